"""What publishing does when the venue server starts, and when a tournament changes."""

from __future__ import annotations

from django.dispatch import receiver

from publishing import sender as outbox_sender
from publishing.client import check_url
from tournaments.signals import revision_committed
from venue.signals import serving_started


@receiver(serving_started, dispatch_uid="publishing.start_sender")
def start_sender(sender, *, publish_to=None, publish_token=None, **kwargs) -> None:
    """Always: a tournament's page may name a season server later (its own publication)."""
    if publish_to and publish_token:
        outbox_sender.start(url=check_url(publish_to), token=publish_token)
    else:
        outbox_sender.start(url=None, token="")


@receiver(revision_committed, dispatch_uid="publishing.wake_sender")
def wake_sender(sender, **kwargs) -> None:
    outbox_sender.wake()
