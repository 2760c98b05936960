"""What publishing does when the venue server starts with --publish-to."""

from __future__ import annotations

from django.dispatch import receiver

from publishing import worker
from publishing.client import check_url
from venue.signals import serving_started


@receiver(serving_started, dispatch_uid="publishing.start_sender")
def start_sender(sender, *, publish_to=None, publish_token=None, **kwargs) -> None:
    """Always: a tournament's page may name a season server later (its own publication)."""
    if publish_to and publish_token:
        worker.start(url=check_url(publish_to), token=publish_token)
    else:
        worker.start(url=None, token="")
