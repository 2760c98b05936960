"""What the venue server tells the areas above it (connected in their AppConfig.ready)."""

from django.dispatch import Signal

# The venue server is about to serve. Keyword arguments: publish_to, publish_token (the
# season server to send tournaments to, or None).
serving_started = Signal()
