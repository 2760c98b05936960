"""When the venue starts serving, follow the simultaneous day of its published tournaments
(``simultaneous.follower``)."""

from __future__ import annotations

from django.dispatch import receiver

from simultaneous import follower
from venue.signals import serving_started


@receiver(serving_started, dispatch_uid="simultaneous.start_follower")
def start_follower(sender, **kwargs) -> None:
    follower.start()
