"""Pages of the club area, one module per area, each with its own ``urlpatterns``."""
