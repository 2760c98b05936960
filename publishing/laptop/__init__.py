"""Publishing on the laptop in the hall: its outbox and sender, the merge when the season
server holds what it lacks, the registry and tournaments fetched from there, its pages."""
