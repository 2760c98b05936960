"""The venue process's background sender: every few seconds, the tournaments that changed
are sent to the season server (newest revision only; backoff after failures). It runs in its
own daemon thread: no request of the hall ever waits for it."""

from __future__ import annotations

import logging
import threading

from django.db import close_old_connections

from publishing.client import PublishError
from publishing.services import due_publications, follow, publish
from tournaments.models import Tournament

logger = logging.getLogger(__name__)
INTERVAL_SECONDS = 5.0


def send_due(*, url: str | None = None, token: str = "") -> int:
    """One pass over the queue (tournaments created since join it for ``url``); the number
    of tournaments sent."""
    if url:
        follow(url=url, token=token, tournaments=Tournament.objects.exclude(publications__url=url))
    sent = 0
    for publication in due_publications():
        try:
            publish(publication=publication)
            sent += 1
        except PublishError as error:
            logger.warning("publishing %s: %s", publication, error.message)
    return sent


def start(*, url: str | None, token: str, interval: float = INTERVAL_SECONDS) -> threading.Event:
    """Start the sender; set the returned event to stop it."""
    stop = threading.Event()

    def run() -> None:
        while True:
            try:
                send_due(url=url, token=token)
            except Exception:  # never let the sender die with the hall still playing
                logger.exception("publishing failed")
            finally:
                close_old_connections()
            if stop.wait(interval):
                return

    threading.Thread(target=run, name="cego-publish", daemon=True).start()
    return stop
