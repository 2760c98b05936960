"""The season server's side of publishing: a batch of changes from a laptop, applied.

The walk, top to bottom: ``views.changes_endpoint`` reads the body (size-capped, gzip) →
``receive_changes`` here checks the token, every number the batch declares
(``archive_format.parse_batch``) and the batch's base against what this server holds of the
tournament → ``tournaments.services.archive_plan`` (``archive_diff``) says what the items would change (players
matched, clubs known, the season) → ``tournaments.services.archive_write`` writes those rows
only and bumps the tournament's revision → the public standings, cached by revision, show the
change on the next read.

The season server is the hall's second copy, not its mirror. Nothing a laptop declares is
taken on trust:

- A batch applies only onto the state this server holds now (its ``base``); onto anything
  else the answer is ``lost_track`` with the state and item digests held here (and whether
  this server ever acknowledged the laptop's base), and the laptop merges: it takes back
  what only the server holds before publishing on top (``publishing.laptop.merging``).
- The laptop's revision orders nothing: it is stored, within bounds, and shown. A batch "at
  revision + 5" cannot lock the real laptop out.
- Deletes are checked against this server's own record (``AcknowledgedState``): a batch
  never deletes a deal (deals are annulled in this app, never deleted), nor a table, round or
  entry that holds played deals here; and a batch of a laptop copy's ``epoch`` deletes only
  from a state acknowledged to that epoch. Anything else is a fork (``fork``): nothing is
  written, and the laptop takes back first.
- A passing failure (two imports creating the same new player at once, a deadlock, a lost
  connection) is retried here, not answered as a fault of the batch.

A batch whose result is already here is acknowledged without writing (sent twice, or its
answer was lost).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import time
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from publishing.models import AcknowledgedState, PublishToken
from publishing.server.handover import mark_delivered
from publishing.server.services import NotYourClub, host_club_of, played_in
from tournaments.archive_format import ArchiveError, Batch, kind_of, parse_batch, state_digest
from tournaments.caching import revisions_moved
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_items
from tournaments.services.archive_diff import Held, stored_digests
from tournaments.services.archive_write import ArchiveWriteClash, apply_batch

logger = logging.getLogger(__name__)

# A batch that meets a passing failure is tried this often in all, with these pauses between.
ATTEMPTS = 3
PAUSES = (0.05, 0.25)


class Refused(Exception):
    """The batch cannot be applied here; ``code`` says why (``lost_track``, ``fork``,
    ``original``) and ``answer`` what the laptop needs to go on."""

    def __init__(self, message: str, *, code: str, answer: dict[str, Any] | None = None):
        super().__init__(message)
        self.message, self.code, self.answer = message, code, answer or {}


@dataclass(frozen=True)
class Applied:
    tournament: Tournament
    status: str  # "created", "applied" or "unchanged"
    state: str
    upserts: int = 0
    deletes: int = 0
    notes: tuple[str, ...] = ()  # what the organiser should know (shown on the laptop)


class Busy(Exception):
    """A passing failure outlasted the retries (the database kept a lock, lost its
    connection): the laptop tries again in a moment (503)."""


def knows_state(*, tournament: Tournament, state: str | None) -> bool:
    """Whether this server ever acknowledged ``state`` of ``tournament`` to a laptop."""
    return bool(state) and (
        AcknowledgedState.objects.filter(tournament=tournament, state=state).exists()
    )


def _held(tournament: Tournament, digests: dict[str, str], base: str | None) -> dict[str, Any]:
    return {
        "state": state_digest(digests) if digests else None,
        "digests": digests,
        # False: the laptop's base is no state this server acknowledged (it was restored from
        # an older backup, or the tournament came before the record began): the laptop then
        # takes back only what it never had, and asks the desk where both differ.
        "knows_base": knows_state(tournament=tournament, state=base),
    }


def _lost_track(
    tournament: Tournament | None, digests: dict[str, str] | None = None, base: str | None = None
) -> Refused:
    if tournament is None:
        return Refused(
            _("The season server holds nothing of this tournament yet."),
            code="lost_track",
            answer={"state": None, "digests": {}, "knows_base": False},
        )
    return Refused(
        _("The season server holds another state of this tournament."),
        code="lost_track",
        answer=_held(tournament, digests or {}, base),
    )


def _fork(tournament: Tournament, digests: dict[str, str], base: str | None, what: str) -> Refused:
    return Refused(
        _(
            "The season server holds %(what)s that this laptop would delete without having "
            "seen it; nothing was changed. The laptop takes it back first."
        )
        % {"what": what},
        code="fork",
        answer=_held(tournament, digests, base),
    )


def held_state(
    *, token: PublishToken, archive_id, digests: bool = False, base: str | None = None
) -> dict[str, Any]:
    """What this server holds of the token's club's tournament ``archive_id``: its state and
    revision (None where it holds nothing, or the tournament is another club's); with
    ``digests`` each item's digest and whether this server ever acknowledged ``base``."""
    tournament = Tournament.objects.filter(archive_id=archive_id, host_club=token.club).first()
    if tournament is None:
        return {"state": None, "revision": None, "digests": {}, "knows_base": False}
    stored = stored_digests(tournament)[0]
    answer: dict[str, Any] = {
        "state": state_digest(stored) if stored else None,
        "revision": tournament.archive_revision,
    }
    if digests:
        answer["digests"] = stored
        answer["knows_base"] = knows_state(tournament=tournament, state=base)
    return answer


def receive_changes(*, token: PublishToken, raw: bytes) -> Applied:
    """Apply a laptop's batch; ``ArchiveError`` (unreadable, a number out of bounds, or
    inconsistent: nothing written), ``NotYourClub``, ``Refused`` (with what the laptop needs
    to go on) or ``Busy`` (a passing failure that outlasted the retries)."""
    batch = parse_batch(raw)
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return _receive(token=token, batch=batch)
        except (ArchiveWriteClash, DatabaseError) as error:
            # Only passing failures reach here: a clash with a concurrent writer (the same
            # new player created by two imports), a deadlock, a lost connection. Once more
            # in a new transaction; a clash that repeats every time is the batch's own.
            if isinstance(error, DatabaseError) and not _passing(error):
                raise
            logger.info("batch for %s, attempt %s: %s", batch.archive_id, attempt, error)
            if attempt == ATTEMPTS:
                if isinstance(error, ArchiveWriteClash):
                    raise ArchiveError(error.message) from error
                raise Busy(str(error)) from error
            _reconnect_if_lost()
            time.sleep(PAUSES[attempt - 1])
    raise AssertionError("unreachable")  # pragma: no cover


def _reconnect_if_lost() -> None:
    """A lost connection is closed, so that the next attempt opens a new one (never the
    caller's own transaction's)."""
    lost = connection.connection is not None and not connection.is_usable()
    if lost and not connection.in_atomic_block:
        connection.close()


def _passing(error: DatabaseError) -> bool:
    """A failure that the same transaction, tried again, may not meet: a unique clash with
    a concurrent writer, a deadlock or serialisation failure, a lost connection, SQLite's
    busy database. Not a programming error (a missing column, a syntax error)."""
    from django.db import InterfaceError, OperationalError

    return isinstance(error, IntegrityError | OperationalError | InterfaceError)


@transaction.atomic
def _receive(*, token: PublishToken, batch: Batch) -> Applied:
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("season", "host_club")
        .filter(archive_id=batch.archive_id)
        .first()
    )
    held = None
    if tournament is None:
        if not batch.snapshot:
            raise _lost_track(None)
        if host_club_of(data=_settings_and_clubs(batch.upserts)) != token.club:
            raise _not_your_club(token)
    else:
        if tournament.host_club_id != token.club_id:
            raise _not_your_club(token)
        if tournament.archive_revision is None and not tournament.archive_hash:
            raise Refused(
                _(
                    "“%(name)s” was set up on the season server, not in the hall; fetch it "
                    "to the laptop first."
                )
                % {"name": tournament.name},
                code="original",
            )
        stored_and_backfill = stored_digests(tournament)
        stored = stored_and_backfill[0]
        here = state_digest(stored)
        held = Held(tournament=tournament, digests=stored_and_backfill, state=here)
        if here == batch.state:
            _acknowledged(tournament, here, batch)
            return Applied(tournament=tournament, status="unchanged", state=here)
        if not batch.snapshot and batch.base != here:
            raise _lost_track(tournament, stored, batch.base)
        _check_deletes(tournament, batch, stored, here)
    outcome = apply_batch(
        batch=batch,
        actor=str(token),
        own_club_ids=frozenset({token.club_id}),
        unknown_clubs_without_club=True,
        held=held,
    )
    _acknowledged(outcome.tournament, outcome.state, batch)
    if tournament is None or any(kind_of(key) == "entry" for key in batch.upserts):
        mark_delivered(tournament=outcome.tournament)  # registrations for the hall, now entries
    _used(token)
    return Applied(
        tournament=outcome.tournament,
        status="created" if tournament is None else "applied",
        state=outcome.state,
        upserts=len(batch.upserts),
        deletes=len(batch.deletes),
        notes=outcome.notes,
    )


def _used(token: PublishToken) -> None:
    """The token's last use, for the club's token list: to the minute (not a write for every
    batch of a busy hall)."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > dt.timedelta(minutes=1):
        PublishToken.objects.filter(pk=token.pk).update(last_used_at=now)


def _acknowledged(tournament: Tournament, state: str, batch: Batch) -> None:
    """This server says ``state`` to the batch's laptop copy: recorded, so that its later
    deletes and merges are checked against what it has seen. The tables of the items the
    laptop's desk has still to choose are shown as provisional."""
    AcknowledgedState.objects.create(
        tournament=tournament,
        state=state,
        epoch=uuid.UUID(batch.epoch) if batch.epoch else None,
        laptop_revision=batch.revision,
        open_conflicts=sorted(set(batch.open_conflicts)),
    )
    provisional = provisional_tables(batch.open_conflicts)
    if provisional != tournament.provisional_tables:
        Tournament.objects.filter(pk=tournament.pk).update(
            provisional_tables=provisional, revision=F("revision") + 1
        )
        revisions_moved()


def provisional_tables(keys: list[str]) -> list[str]:
    """``deal:r2-t5-d13`` and ``table:r2-t5`` → ``r2-t5``, each table once, in order."""
    tables = set()
    for key in keys:
        kind, tail = kind_of(key), key.split(":", 1)[-1]
        if kind == "deal":
            tables.add(tail.rsplit("-d", 1)[0])
        elif kind == "table":
            tables.add(tail)
    return sorted(tables, key=lambda t: tuple(int(p) for p in re.findall(r"\d+", t)))


def _check_deletes(tournament: Tournament, batch: Batch, stored: dict[str, str], here: str) -> None:
    """Refuse (``fork``) a batch that would delete what the server holds of played deals, or
    anything at all that its epoch was never shown."""
    if batch.snapshot:
        deletes = [key for key in stored if key not in batch.upserts]
    else:
        deletes = [key for key in batch.deletes if key in stored]
    if not deletes:
        return
    played = played_in(tournament=tournament, deletes=deletes, stored=stored)
    if played:
        raise _fork(tournament, stored, batch.base, played)
    if batch.epoch is None:
        return  # a laptop before 0.2.0: only the played deals are guarded
    seen = AcknowledgedState.objects.filter(
        tournament=tournament, epoch=batch.epoch, state=here
    ).exists()
    if not seen:
        raise _fork(
            tournament, stored, batch.base, _("items (%(count)s)") % {"count": len(deletes)}
        )


class TakeRequestError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# The most keys one take-back names (a tournament of 150 players has some 4,000 items).
MAX_TAKE_KEYS = 50_000


def parse_take_request(raw: bytes) -> dict[str, Any]:
    """``{"epoch": UUID, "state": digest, "keys": [item keys]}`` checked, or
    ``TakeRequestError`` naming what is wrong."""
    try:
        data = json.loads(raw or b"{}")
    except ValueError as error:
        raise TakeRequestError(_("The request is not JSON.")) from error
    if not isinstance(data, dict):
        raise TakeRequestError(_("The request is not a JSON object."))
    epoch, state, keys = data.get("epoch"), data.get("state"), data.get("keys")
    try:
        epoch = str(uuid.UUID(str(epoch)))
    except ValueError as error:
        raise TakeRequestError(_("The epoch is not a UUID.")) from error
    if not isinstance(state, str) or not re.fullmatch(r"[0-9a-f]{64}", state):
        raise TakeRequestError(_("The state is not a state digest (64 hexadecimal digits)."))
    if (
        not isinstance(keys, list)
        or len(keys) > MAX_TAKE_KEYS
        or not all(isinstance(key, str) and 0 < len(key) <= 200 for key in keys)
    ):
        raise TakeRequestError(
            _("The keys must be a list of at most %(most)s item keys.") % {"most": MAX_TAKE_KEYS}
        )
    return {"epoch": epoch, "state": state, "keys": keys}


def take_back(
    *, token: PublishToken, archive_id: str, state: str, epoch: str, keys: list[str]
) -> dict[str, Any]:
    """A laptop takes back what only this server holds (or holds in another version) before
    publishing on top: the items named, as held here, if ``state`` is still what this
    server holds; recorded as seen by the laptop copy's ``epoch``. ``Refused``
    (``lost_track``) when the state moved meanwhile."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(archive_id=archive_id).first()
        if tournament is None:
            raise _lost_track(None)
        if tournament.host_club_id != token.club_id:
            raise _not_your_club(token)
        stored = stored_digests(tournament)[0]
        here = state_digest(stored)
        if here != state:
            raise _lost_track(tournament, stored, None)
        wanted = [key for key in keys if key in stored]
        items = tournament_items(tournament=tournament) if wanted else {}
        AcknowledgedState.objects.create(
            tournament=tournament,
            state=here,
            epoch=uuid.UUID(epoch),
            how=AcknowledgedState.How.TAKEN_BACK,
        )
    return {
        "state": here,
        "items": {key: items[key] for key in wanted if key in items},
        "digests": {key: stored[key] for key in wanted},
    }


def _not_your_club(token: PublishToken) -> NotYourClub:
    return NotYourClub(
        _("This token publishes the tournaments of %(club)s only.") % {"club": token.club}
    )


def _settings_and_clubs(items: dict[str, Any]) -> dict[str, Any]:
    """What ``host_club_of`` reads of an archive, from a snapshot's items."""
    return {
        "tournament": items.get("tournament") or {},
        "clubs": [item for key, item in items.items() if kind_of(key) == "club"],
    }


__all__ = [
    "MAX_TAKE_KEYS",
    "TakeRequestError",
    "parse_take_request",
    "Applied",
    "ArchiveError",
    "Busy",
    "NotYourClub",
    "Refused",
    "receive_changes",
    "take_back",
]
