"""Organiser and table views, one module per area; each module lists its own ``urlpatterns``."""
