"""The laptop's outbox: what the season server still lacks of a tournament, as one batch.

A tournament is cut into archive items keyed by stable identities (``tournament``,
``entry:7``, ``table:r2-t5``, ``deal:r2-t5-d13``, … see ``tournaments.archive_format``).
The publication keeps the position the server acknowledged last: the state digest and the
digest of every item. The next batch holds the items whose digest differs from the
acknowledged one and the keys that are gone, with the acknowledged state as its ``base``; the
server applies it only onto that base, so a batch sent twice, or late, changes nothing.
Where the server holds nothing (or, after a restore on either side, something else), it says
so and names its own item digests; the next batch is then the difference from those (from
nothing: a snapshot). Like CouchDB's replication checkpoints, the position moves only on the
server's answer.

Why digests of the whole tournament rather than a log of changed rows: every service that
changes a tournament bumps its revision, which wakes the sender, but not every service says
which rows it changed. Comparing digests cannot miss a change, whatever wrote it; reading the
tournament takes a constant number of queries.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from publishing.models import Publication
from tournaments.archive_format import BATCH_FORMAT, BATCH_VERSION, item_digests, state_digest
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_items

# Waits after a failed attempt: short, so that a server that is back is noticed within
# seconds (each wait is one cheap request that fails fast while the network is down).
BACKOFF_SECONDS = (1, 2, 3, 5)


@dataclass(frozen=True)
class Batch:
    """What to send for one publication, and the position it leads to."""

    publication_id: int
    revision: int
    state: str
    digests: dict[str, str]
    body: dict[str, Any] | None = field(repr=False)  # None: the server has it all

    @property
    def counts(self) -> tuple[int, int]:
        if self.body is None:
            return 0, 0
        return len(self.body["upserts"]), len(self.body["deletes"])


def next_batch(*, publication: Publication) -> Batch:
    """The batch that brings the server from its acknowledged position to the tournament as
    it is now (``body`` None when the server has it all)."""
    # One read transaction: on SQLite every query sees the same snapshot, so the items agree
    # with each other and with the revision.
    with transaction.atomic():
        tournament = Tournament.objects.get(pk=publication.tournament_id)
        items = tournament_items(tournament=tournament)
    digests = item_digests(items)
    state = state_digest(digests)
    if publication.sent_hash == state:
        return Batch(publication.pk, tournament.revision, state, digests, body=None)
    known: dict[str, str] = publication.sent_digests if publication.sent_hash else {}
    body = {
        "format": BATCH_FORMAT,
        "version": BATCH_VERSION,
        "archive_id": str(tournament.archive_id),
        "revision": tournament.revision,
        "base": publication.sent_hash or None,
        "state": state,
        "upserts": {key: items[key] for key, digest in digests.items() if known.get(key) != digest},
        "deletes": sorted(key for key in known if key not in digests),
    }
    return Batch(
        publication_id=publication.pk,
        revision=tournament.revision,
        state=state,
        digests=digests,
        body=body,
    )


def acknowledge(*, batch: Batch, notes: list[str] | None = None) -> None:
    """The server applied ``batch`` (or already held its state): the position moves on.
    ``notes``: what the server said the organiser should know (None: it said nothing new)."""
    said = {} if notes is None else {"server_notes": [str(note)[:500] for note in notes][:20]}
    Publication.objects.filter(pk=batch.publication_id).update(
        **said,
        sent_revision=batch.revision,
        sent_hash=batch.state,
        sent_digests=batch.digests,
        sent_at=timezone.now(),
        failures=0,
        last_error="",
        next_attempt_at=None,
        refused_revision=None,
    )


def server_holds(*, publication: Publication, answer: dict[str, Any]) -> None:
    """The server holds another state than our position (it lost track, or we did): take
    its word for what it holds, so the next batch is the difference from that."""
    state = answer.get("state") or ""
    digests = answer.get("digests") if state else {}
    if not isinstance(digests, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in digests.items()
    ):
        state, digests = "", {}  # an answer we cannot read: send everything
    Publication.objects.filter(pk=publication.pk).update(sent_hash=state, sent_digests=digests)
    publication.sent_hash, publication.sent_digests = state, digests


def failed(*, publication: Publication, message: str) -> None:
    """The server could not be reached: try again after a short wait."""
    failures = publication.failures + 1
    wait = BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS)) - 1]
    Publication.objects.filter(pk=publication.pk).update(
        failures=failures,
        last_error=message[:1000],
        next_attempt_at=timezone.now() + dt.timedelta(seconds=wait),
    )


def refused(*, publication: Publication, revision: int, message: str) -> None:
    """The server refused this revision for a reason that sending again cannot mend: shown
    on the tournament's page, not sent again until the tournament changes."""
    Publication.objects.filter(pk=publication.pk).update(
        refused_revision=revision, last_error=message[:1000], failures=0, next_attempt_at=None
    )


def due_publications(*, url: str | None = None) -> list[Publication]:
    """The publications whose tournament moved past what the server acknowledged, whose wait
    is over and which were not refused at this revision. One query."""
    now = timezone.now()
    rows = (
        Publication.objects.select_related("tournament")
        .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        .filter(Q(sent_revision__isnull=True) | ~Q(sent_revision=F("tournament__revision")))
        .exclude(refused_revision=F("tournament__revision"))
        .order_by("pk")
    )
    if url is not None:
        rows = rows.filter(url=url)
    return list(rows)


def acknowledged_publications() -> list[Publication]:
    """The publications with nothing to send and nothing refused, to check with the server."""
    return list(
        Publication.objects.select_related("tournament")
        .filter(sent_revision=F("tournament__revision"), refused_revision__isnull=True)
        .exclude(sent_hash="")
        .filter(next_attempt_at__isnull=True)
    )


def retry(*, publication: Publication) -> None:
    """The organiser asks to send again: forget a refusal and the wait, and send everything
    that differs from what the server says it holds."""
    Publication.objects.filter(pk=publication.pk).update(
        refused_revision=None, next_attempt_at=None, failures=0, sent_revision=None
    )
