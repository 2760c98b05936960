"""Publishing on the season server: the API the laptops call (archives, batches, the
registry, the way back), what it acknowledged, a club's tokens and their page."""
