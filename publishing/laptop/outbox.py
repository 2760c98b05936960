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

What changed is read, not the whole tournament: every service that changes a tournament
bumps its revision, and the frequent ones (a deal, its confirmation, a correction, a void)
name the tables they touched (``tournaments.models.RevisionScope``, written in the change's
own transaction). The publication keeps this laptop's own item digests at the revision it
last read; where every revision since names its tables, only those tables are read again
(a constant number of queries, whatever the tournament's size). A revision that names
nothing (a setting, a draw, a registration, a rename in the registry) is read in full, and
so is everything once every ``FULL_READ_SECONDS``, so that a change written without its
scope is published a few minutes late rather than never (and logged).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, Q
from django.utils import timezone

from cego_club.platform.sqlite.reads import read_snapshot
from publishing.laptop.merge_plan import effective_digests
from publishing.laptop.position import move, position
from publishing.models import Publication, PublishConflict
from tournaments.archive_format import BATCH_FORMAT, BATCH_VERSION, item_digests, state_digest
from tournaments.models import RevisionScope, Tournament
from tournaments.selectors.archive import table_items, tournament_items

logger = logging.getLogger(__name__)

# Waits after a failed attempt: short, so that a server that is back is noticed within
# seconds (each wait is one cheap request that fails fast while the network is down).
BACKOFF_SECONDS = (1, 2, 3, 5)
# The whole tournament is read again this often even where every change named its tables.
FULL_READ_SECONDS = 300.0


@dataclass(frozen=True)
class Batch:
    """What to send for one publication, and the position it leads to."""

    publication_id: int
    revision: int
    state: str
    digests: dict[str, str] = field(repr=False)  # as published (open conflicts held)
    body: dict[str, Any] | None = field(repr=False)  # None: the server has it all
    # This laptop's own digests at ``revision``, and whether only changed tables were read.
    local_digests: dict[str, str] = field(default_factory=dict, repr=False)
    read_in_full: bool = True
    # The only keys whose published or own digest may differ from the position's (None: any).
    touched: frozenset[str] | None = field(default=None, repr=False)

    @property
    def counts(self) -> tuple[int, int]:
        if self.body is None:
            return 0, 0
        return len(self.body["upserts"]), len(self.body["deletes"])


def next_batch(*, publication: Publication, full: bool = False) -> Batch:
    """The batch that brings the server from its acknowledged position to the tournament as
    it is now (``body`` None when the server has it all). An item in open conflict
    (``publishing.laptop.merging``) is held at the server's version until the desk chooses.
    ``full``: read the whole tournament, whatever the changes named."""
    # One read snapshot: every query sees the same state, so the items agree with each other
    # and with the revision; on SQLite it takes no write lock (the phones never wait for it).
    with read_snapshot():
        tournament = Tournament.objects.get(pk=publication.tournament_id)
        conflicts = open_conflict_keys(publication=publication)
        held = position(publication=publication)
        known = held.sent if publication.sent_hash else {}
        local, items, reread = (
            ({}, {}, None) if full else _changed_since(publication, tournament, held.local)
        )
        read_in_full = full or not local
        if read_in_full:
            items = tournament_items(tournament=tournament)
            local = item_digests(items)
            _check_scopes(publication, tournament, held.local, local)
        digests = effective_digests(local, known, conflicts)
        changed = [key for key, digest in digests.items() if known.get(key) != digest]
        gone = sorted(key for key in known if key not in digests)
        if any(key not in items for key in changed):
            # After a merge or a settled conflict: an item read earlier differs from the
            # server's, so read it all once.
            items = tournament_items(tournament=tournament)
            read_in_full = True
    state = state_digest(digests)
    touched = (
        None
        if reread is None or not publication.sent_hash
        else frozenset((*reread, *changed, *gone, *conflicts, *publication.conflicts_told))
    )
    batch = Batch(
        publication_id=publication.pk,
        revision=tournament.revision,
        state=state,
        digests=digests,
        body=None,
        local_digests=local,
        read_in_full=read_in_full,
        touched=touched,
    )
    if publication.sent_hash == state and sorted(conflicts) == publication.conflicts_told:
        return batch  # the server holds it all, and knows which tables are provisional
    body = {
        "format": BATCH_FORMAT,
        "version": BATCH_VERSION,
        "archive_id": str(tournament.archive_id),
        "revision": tournament.revision,
        "base": publication.sent_hash or None,
        "state": state,
        "epoch": ensure_epoch(publication=publication),
        "open_conflicts": sorted(conflicts),
        "upserts": {key: items[key] for key in changed},
        "deletes": gone,
    }
    return dataclasses.replace(batch, body=body)


def _changed_since(
    publication: Publication, tournament: Tournament, last_read: dict[str, str]
) -> tuple[dict[str, str], dict[str, dict[str, Any]], set[str] | None]:
    """This laptop's item digests now, the items read again for them and the keys read again
    or gone, reading only the tables changed since the publication's last read
    (``last_read``, its digests); ``({}, {}, None)`` where a change since named no tables (or
    nothing was read before): then the whole tournament is read."""
    since, now = publication.local_revision, tournament.revision
    if since is None or since > now or not last_read:
        return {}, {}, None
    scopes = list(
        RevisionScope.objects.filter(
            tournament_id=tournament.pk, revision__gt=since, revision__lte=now
        ).values_list("revision", "table_id")
    )
    if len({revision for revision, _table in scopes}) != now - since:
        return {}, {}, None  # a revision without a scope may have changed anything
    digests = dict(last_read)
    if not scopes:
        return digests, {}, set()
    items = table_items(tournament=tournament, table_ids=sorted({t for _r, t in scopes}))
    # What those tables and rounds held before goes; what they hold now comes in (a deal's
    # key ends its table's with "-d", so table 5's deals are not table 50's).
    exact = {key for key in items if not key.startswith("deal:")}
    deals_of = tuple(f"deal:{key.split(':', 1)[1]}-d" for key in exact if key.startswith("table:"))
    dropped = [key for key in digests if key in exact or key.startswith(deals_of)]
    for key in dropped:
        del digests[key]
    digests.update(item_digests(items))
    return digests, items, {*dropped, *items}


def _check_scopes(
    publication: Publication,
    tournament: Tournament,
    last_read: dict[str, str],
    read: dict[str, str],
) -> None:
    """A full read at the revision the last scoped read reached must find the same: else a
    service changed something it did not name (published now, but say so in the log)."""
    if publication.local_revision != tournament.revision or not last_read:
        return
    missed = sorted(
        key for key in read.keys() | last_read.keys() if read.get(key) != last_read.get(key)
    )
    if missed:
        logger.warning(
            "%s: changes not named by their service, published now: %s",
            publication,
            ", ".join(missed[:10]),
        )


def acknowledge(*, batch: Batch, notes: list[str] | None = None) -> None:
    """The server applied ``batch`` (or already held its state): the position moves on.
    ``notes``: what the server said the organiser should know (None: it said nothing new).
    The only way the position moves besides a merge (``publishing.laptop.merging``): never on a
    refusal, a failure or an answer naming another state."""
    said = {} if notes is None else {"server_notes": [str(note)[:500] for note in notes][:20]}
    now = timezone.now()
    move(
        publication=Publication.objects.get(pk=batch.publication_id),
        sent=batch.digests,
        local=batch.local_digests,
        only=batch.touched,
        **said,
        sent_revision=batch.revision,
        sent_hash=batch.state,
        local_revision=batch.revision,
        **({} if batch.body is None else {"conflicts_told": batch.body["open_conflicts"]}),
        sent_at=now,
        last_contact_at=now,
        failures=0,
        last_error="",
        next_attempt_at=None,
        refused_revision=None,
    )


def heard(*, publication: Publication) -> None:
    """The server answered (whatever it said): the hall is still connected."""
    Publication.objects.filter(pk=publication.pk).update(last_contact_at=timezone.now())


def open_conflict_keys(*, publication: Publication) -> set[str]:
    """The items waiting for the desk's choice between this laptop's and the server's."""
    return set(
        PublishConflict.objects.filter(
            publication=publication, settled_at__isnull=True
        ).values_list("key", flat=True)
    )


def ensure_epoch(*, publication: Publication) -> str:
    """This laptop copy's publishing history (a UUID), drawn at its first batch and again
    after a restore (``restore`` clears it)."""
    if publication.epoch is None:
        Publication.objects.filter(pk=publication.pk, epoch__isnull=True).update(epoch=uuid.uuid4())
        publication.epoch = Publication.objects.values_list("epoch", flat=True).get(
            pk=publication.pk
        )
    return str(publication.epoch)


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
