"""What an archive or batch does to this server's copy and which items it writes (part of
the plan: ``archive_plan``).

The action: ``new``, ``unchanged``, ``replace``, ``older``, ``conflict`` (the same revision
with other content), ``original`` (played on this server: an archive from elsewhere never
replaces it) or ``stale`` (a batch built on a state this server does not hold: the sender
must send a snapshot). The item diff: which items to write (new or changed digest) and which
to delete, against the digests this server stored when the copy arrived (``ArchiveItem``),
never by reading the whole tournament.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournaments.archive_format import (
    ArchiveError,
    Batch,
    archive_items,
    diff_digests,
    item_digests,
    kind_of,
    legacy_archive_hash,
    state_digest,
    validate_archive,
)
from tournaments.models import ArchiveItem, Tournament
from tournaments.selectors.archive import tournament_items

# What an archive or batch does to this server's copy of its tournament.
NEW_TOURNAMENT, UNCHANGED, REPLACE = "new", "unchanged", "replace"
OLDER, CONFLICT, ORIGINAL, STALE = "older", "conflict", "original", "stale"
APPLICABLE = (NEW_TOURNAMENT, REPLACE)


@dataclass(frozen=True)
class Held:
    """A copy as its writer has already read it inside the transaction that holds its row
    lock (the season server's inbox): the tournament (with its season and host club) and
    ``stored_digests``."""

    tournament: Tournament
    digests: tuple[dict[str, str], bool]
    state: str  # the state digest of ``digests``


def stored_digests(tournament: Tournament) -> tuple[dict[str, str], bool]:
    """The digests of the items this server holds of ``tournament`` (1 query), and whether
    they were worked out from its rows instead (a copy imported before the items were
    stored: the writer then stores them all)."""
    stored = dict(ArchiveItem.objects.filter(tournament=tournament).values_list("key", "digest"))
    if stored or tournament.archive_revision is None:
        return stored, False
    return item_digests(tournament_items(tournament=tournament)), True


def stored_items(tournament: Tournament, *, kinds: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The stored content of the tournament and club items (the others keep digests only)."""
    rows = ArchiveItem.objects.filter(tournament=tournament, data__isnull=False)
    return {
        key: data
        for key, data in rows.values_list("key", "data")
        if kind_of(key) in kinds and data is not None
    }


def _action_for_archive(existing: Tournament | None, data, content_hash: str, revision: int):
    if existing is None:
        return NEW_TOURNAMENT
    if existing.archive_hash and (
        existing.archive_hash == content_hash
        or existing.archive_hash == legacy_archive_hash(data)  # stored before the items
    ):
        return UNCHANGED
    if existing.archive_revision is None and not existing.archive_hash:
        # This server is where it was played: its own archive changes nothing; another
        # server's version of it never replaces the original.
        own = state_digest(item_digests(tournament_items(tournament=existing)))
        return UNCHANGED if own == content_hash else ORIGINAL
    return _by_revision(existing, revision)


def _by_revision(existing: Tournament, revision: int) -> str:
    if revision > (existing.archive_revision or 0):
        return REPLACE
    if revision < (existing.archive_revision or 0):
        return OLDER
    return CONFLICT


def _archive_id(value: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except (KeyError, ValueError) as error:
        raise ArchiveError(_("The archive id is not valid.")) from error


@dataclass
class Diff:
    """What the planner found before it looked at players and clubs."""

    archive_id: uuid.UUID
    existing: Tournament | None
    action: str
    revision: int
    settings: Mapping[str, Any]
    clubs: Mapping[str, Mapping[str, Any]]
    upserts: dict[str, Mapping[str, Any]]
    deletes: list[str]
    stored: Mapping[str, str]
    digests: Mapping[str, str]
    backfill: bool = False
    items: Mapping[str, Mapping[str, Any]] | None = None  # every item, for a whole archive
    content_hash: str = ""  # the state digest of ``digests`` where worked out already


def archive_diff(*, data: Mapping[str, Any]) -> Diff:
    """What a whole archive does to the copy here; raises ArchiveError if it cannot be read."""
    validate_archive(data)
    archive_id = _archive_id(data["archive_id"])
    items = archive_items(data)
    digests = item_digests(items)
    content_hash = state_digest(digests)
    existing = Tournament.objects.filter(archive_id=archive_id).select_related("season").first()
    revision = int(data.get("revision") or 0)
    action = _action_for_archive(existing, data, content_hash, revision)
    stored, backfill = (
        stored_digests(existing) if action == REPLACE and existing is not None else ({}, False)
    )
    upserts, deletes = diff_digests(stored, digests, complete=True)
    return Diff(
        archive_id=archive_id,
        existing=existing,
        action=action,
        revision=revision,
        settings=items["tournament"],
        clubs={item["short_name"]: item for key, item in items.items() if kind_of(key) == "club"},
        upserts={key: items[key] for key in upserts},
        deletes=deletes,
        stored=stored,
        digests=digests,
        backfill=backfill,
        items=items,
    )


def _batch_action(batch: Batch, existing: Tournament | None, current: str, after: str) -> str:
    if existing is None:
        return NEW_TOURNAMENT if batch.snapshot and "tournament" in batch.upserts else STALE
    if existing.archive_revision is None and not existing.archive_hash:
        return ORIGINAL
    if after == current:
        return UNCHANGED
    if not batch.snapshot and batch.base != current:
        return STALE
    # The base (or, for a snapshot, the guarded diff) orders batches, never the revision the
    # laptop declares: a forged "revision + 5" would lock the real laptop out.
    return REPLACE


def batch_diff(*, batch: Batch, held: Held | None = None) -> Diff:
    """What a batch of changes does to the copy here (see ``archive_plan.plan_batch``)."""
    archive_id = _archive_id(batch.archive_id)
    existing: Tournament | None
    if held is not None:
        existing, (stored, backfill), current = held.tournament, held.digests, held.state
    else:
        existing = (
            Tournament.objects.filter(archive_id=archive_id)
            .select_related("season", "host_club")
            .first()
        )
        stored, backfill = stored_digests(existing) if existing is not None else ({}, False)
        current = state_digest(stored) if existing is not None else ""
    incoming = item_digests(batch.upserts)
    if batch.snapshot:
        digests = dict(incoming)
        upserts, deletes = diff_digests(stored, incoming, complete=True)
    else:
        digests = {**stored, **incoming}
        for key in batch.deletes:
            digests.pop(key, None)
        upserts, _none = diff_digests(stored, incoming, complete=False)
        deletes = [key for key in batch.deletes if key in stored]
    after = state_digest(digests)
    action = _batch_action(batch, existing, current, after)
    if action in APPLICABLE and after != batch.state:
        raise ArchiveError(
            _(
                "The batch does not lead to the state it names (%(state)s); nothing was "
                "written. Send the whole tournament."
            )
            % {"state": batch.state[:12]}
        )
    here = stored_items(existing, kinds=("tournament", "club")) if existing is not None else {}
    merged = {**here, **{k: v for k, v in batch.upserts.items() if kind_of(k) == "club"}}
    settings = batch.upserts.get("tournament") or here.get("tournament") or {}
    if action in APPLICABLE and not settings:
        raise ArchiveError(_("The batch lacks the tournament's settings."))
    return Diff(
        archive_id=archive_id,
        existing=existing,
        action=action,
        revision=batch.revision,
        settings=settings,
        clubs={item["short_name"]: item for key, item in merged.items() if kind_of(key) == "club"},
        upserts={key: batch.upserts[key] for key in upserts},
        deletes=deletes,
        stored=stored,
        digests=digests,
        backfill=backfill,
        items=batch.upserts if batch.snapshot else None,
        content_hash=after,
    )


def take_back_diff(
    *,
    tournament: Tournament,
    own: Mapping[str, Mapping[str, Any]],
    items: Mapping[str, Mapping[str, Any]],
) -> Diff:
    """On the laptop: ``items`` taken back from the season server written over its own copy
    (whose items are ``own``): everything replaced as given, nothing deleted."""
    local = item_digests(own)
    merged = {**own, **items}
    return Diff(
        archive_id=tournament.archive_id,
        existing=tournament,
        action=REPLACE,
        revision=tournament.archive_revision or 0,
        settings=merged["tournament"],
        clubs={item["short_name"]: item for key, item in merged.items() if kind_of(key) == "club"},
        upserts=dict(items),
        deletes=[],
        stored=local,
        digests={**local, **item_digests(items)},
    )
