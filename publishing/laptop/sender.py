"""The venue process's sender: wakes when a tournament's change commits, gathers the burst
for a moment, and sends each followed tournament's batch of changes to the season server.

It runs in its own daemon thread, so no request of the hall ever waits for it. A change
commits → ``tournaments.signals.revision_committed`` → ``wake()``; a change made by another
process (a command) is found by a cheap check every second. After a failure it tries again
within seconds (``outbox.BACKOFF_SECONDS``), so a season server that is back is caught up at
once; an answer it cannot act on is shown on the tournament's page instead of being retried.
For a tournament fetched from the season server it also asks, at start and every 30 s while
no round is drawn, for registrations made there since (``publishing.laptop.fetching``).
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import close_old_connections
from django.utils.translation import gettext

from publishing.laptop import fetching, merging, outbox
from publishing.laptop.client import TIMEOUT_SECONDS, PublishError, request
from publishing.laptop.services import follow
from publishing.models import Publication
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

CHANGES_PATH = "/api/publish/changes/"
# A burst of deals (a round's end) is gathered into one batch.
GATHER_SECONDS = 0.15
# Changes made outside this process (a command on the same data folder) are noticed this late.
CHECK_SECONDS = 1.0
# A tournament created here is published this late at most (not looked for at every batch).
NEW_TOURNAMENT_SECONDS = 2.0
# How often the sender asks the server whether it still holds what it acknowledged (it may
# have been restored from an older backup while the hall had nothing new to send).
VERIFY_SECONDS = 30.0
STATE_PATH = "/api/publish/state/{archive_id}/"
# The server holds what this laptop lacks: take it back before publishing on top.
MERGE_CODES = ("lost_track", "fork")

_wake = threading.Event()
# When this process last read each publication's tournament whole (``outbox.next_batch``).
_full_read_at: dict[int, float] = {}
# Where the running venue publishes to (``venue --publish-to``), for the page that fetches a
# tournament from the season server: the address to offer and the token to use.
_configured: dict[str, str] = {"url": "", "token": ""}


def configured() -> tuple[str, str]:
    """The season server and token this venue was started with ("" where none)."""
    return _configured["url"], _configured["token"]


def wake() -> None:
    _wake.set()


def send(*, publication: Publication) -> str:
    """Send what the server lacks of ``publication``'s tournament: ``"sent"`` or
    ``"unchanged"``; ``PublishError`` when it did not arrive (the wait is set) or was refused
    (the refusal is kept for the organiser). Where the server holds what this laptop lacks
    (``lost_track``, ``fork``), it is taken back first (``publishing.laptop.merging``)."""
    for _attempt in range(3):
        last_full_read = _full_read_at.get(publication.pk, -outbox.FULL_READ_SECONDS)
        full = time.monotonic() - last_full_read >= outbox.FULL_READ_SECONDS
        batch = outbox.next_batch(publication=publication, full=full)
        if batch.read_in_full:
            _full_read_at[publication.pk] = time.monotonic()
        if batch.body is None:
            outbox.acknowledge(batch=batch)
            return "unchanged"
        try:
            # A snapshot of thousands of deals takes the server a while to check and write.
            timeout = TIMEOUT_SECONDS + len(batch.body["upserts"]) / 200
            answer = request(
                publication.url,
                token=publication.token,
                path=CHANGES_PATH,
                payload=batch.body,
                timeout=timeout,
            )
        except PublishError as error:
            if error.status:
                outbox.heard(publication=publication)
            if error.code in MERGE_CODES:
                _merge(publication=publication, answer=error.answer)
                continue
            if error.refused:
                outbox.refused(
                    publication=publication, revision=batch.revision, message=error.message
                )
            else:
                outbox.failed(publication=publication, message=error.message)
            raise
        if answer.get("state") != batch.state:
            # Applied, yet the server names another state: ask it what it holds and merge.
            _merge(publication=publication, answer=_held(publication))
            continue
        notes = answer.get("notes") if answer.get("status") != "unchanged" else None
        outbox.acknowledge(batch=batch, notes=notes if isinstance(notes, list) else None)
        return "sent"
    moving = PublishError("the season server's state keeps moving; trying again")
    outbox.failed(publication=publication, message=moving.message)
    raise moving


def _held(publication: Publication) -> dict:
    """What the server holds, with its item digests and whether it knows our position."""
    path = STATE_PATH.format(archive_id=publication.tournament.archive_id)
    query = f"?digests=1&base={publication.sent_hash}" if publication.sent_hash else "?digests=1"
    return request(publication.url, token=publication.token, path=path + query)


def _merge(*, publication: Publication, answer: dict) -> None:
    """Take back what only the server holds; a failure waits like an unreachable server
    (nothing was written here, the position did not move)."""
    try:
        plan = merging.merge(publication=publication, answer=answer)
    except merging.MergeError as error:
        outbox.failed(publication=publication, message=error.message)
        raise PublishError(error.message) from error
    except PublishError as error:
        outbox.failed(publication=publication, message=error.message)
        raise
    if not plan.empty:
        # In the venue's console, in German: the organiser should see it happen.
        logger.warning(
            "%s: %s",
            publication,
            gettext(
                "%(count)s items taken back from the season server, %(conflicts)s for the "
                "desk to choose"
            )
            % {"count": len(plan.take), "conflicts": len(plan.conflicts)},
        )


def verify(*, publication: Publication) -> bool:
    """Ask the server whether it still holds what it acknowledged. Where it does not (it was
    restored, or another laptop published), merge with what it holds and make the
    publication due, so that this laptop's own state follows. True if it holds what we
    think."""
    path = STATE_PATH.format(archive_id=publication.tournament.archive_id)
    answer = request(publication.url, token=publication.token, path=path)
    outbox.heard(publication=publication)
    if answer.get("state") == publication.sent_hash:
        return True
    _merge(publication=publication, answer=_held(publication))
    Publication.objects.filter(pk=publication.pk).update(sent_revision=None)
    return False


def verify_all() -> None:
    for publication in outbox.acknowledged_publications():
        try:
            verify(publication=publication)
        except PublishError as error:
            logger.info("checking %s: %s", publication, error.message)


def send_due(*, url: str | None = None, token: str = "", look_for_new: bool = True) -> int:
    """One pass: tournaments created since join the queue for ``url`` (``look_for_new``);
    each due publication is sent. Returns the number sent."""
    if url and look_for_new:
        follow(url=url, token=token, tournaments=Tournament.objects.exclude(publications__url=url))
    sent = 0
    for publication in outbox.due_publications():
        try:
            sent += send(publication=publication) == "sent"
        except PublishError as error:
            logger.warning("publishing %s: %s", publication, error.message)
    return sent


def start(*, url: str | None, token: str) -> threading.Event:
    """Start the sender; set the returned event to stop it."""
    _configured.update(url=url or "", token=token or "")
    stop = threading.Event()

    def run() -> None:
        verified = time.monotonic()
        looked = None  # for tournaments created here: at once, then every few seconds
        asked = None  # registrations made on the server: asked at once, then every 30 s
        while not stop.is_set():
            if _wake.wait(CHECK_SECONDS):
                _wake.clear()
                stop.wait(GATHER_SECONDS)
            if stop.is_set():
                return
            try:
                look = looked is None or time.monotonic() - looked > NEW_TOURNAMENT_SECONDS
                if look:
                    looked = time.monotonic()
                send_due(url=url, token=token, look_for_new=look)
                if time.monotonic() - verified > VERIFY_SECONDS:
                    verified = time.monotonic()
                    verify_all()
                if asked is None or time.monotonic() - asked > fetching.REGISTRATION_SECONDS:
                    asked = time.monotonic()
                    fetching.take_all_registrations()
            except Exception:  # never let the sender die with the hall still playing
                logger.exception("publishing failed")
            finally:
                close_old_connections()

    threading.Thread(target=run, name="cego-publish", daemon=True).start()
    return stop
