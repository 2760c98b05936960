"""What an archive or a batch of changes would change here (step 2 of 3: parse → plan → write).

The same planner serves the upload's preview, the command line and the season server's
endpoint. It says:
- what happens to the tournament: ``new``, ``unchanged``, ``replace``, ``older``, ``conflict``
  (the same revision with other content), ``original`` (played on this server: an archive
  from elsewhere never replaces it) or ``stale`` (a batch built on a state this server does
  not hold: the sender must send a snapshot);
- the **item diff** (``archive_diff``): which items to write (new or changed digest) and which to delete,
  against the digests this server stored when the copy arrived (``ArchiveItem``), never by
  reading the whole tournament; counted by kind for the preview ("12 neue Spiele, 1
  geändert");
- the clubs (``archive_players``): the archive's clubs here, by registry id, short name, name or a remembered
  spelling, else an unknown club that someone maps (only to a club the importer runs),
  creates or leaves out (never silently); the clubs she does not run whose new players
  come without a membership (``without_membership``: said in the preview and the log);
- the players of the entries to write: by registry id (under the same name), by member
  number in a club the importer runs, by the start number of the copy here (same name), else
  a namesake here is ``ambiguous`` (offered as the same person only when the only one in the
  same club), else new;
- every deal to write scored again (``archive_deals``) from the tournament's rule snapshot; one whose scores
  differ is an ArchiveError naming the deal.
Nothing here writes; ``archive_write`` applies a plan.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import manageable_clubs
from clubs.services.imports import AMBIGUOUS, ClubChoice, UnknownClub
from seasons.models import Season
from tournaments.archive_format import ArchiveError, Batch, kind_of, state_digest
from tournaments.models import Tournament
from tournaments.services.archive_deals import check_deal_items
from tournaments.services.archive_diff import (
    APPLICABLE,
    CONFLICT,
    OLDER,
    ORIGINAL,
    STALE,
    UNCHANGED,
    Diff,
    Held,
    archive_diff,
    batch_diff,
    take_back_diff,
)
from tournaments.services.archive_players import (
    ArchiveClubs,
    ArchivePlayer,
    plan_players,
    without_membership,
)
from tournaments.services.archive_season import choose_season


@dataclass
class ArchivePlan:
    """The preview of an archive or batch: what it is, what it would do here, what must be
    decided, and the items to write and delete."""

    archive_id: uuid.UUID
    content_hash: str  # the state digest after applying
    revision: int
    action: str
    existing: Tournament | None
    settings: Mapping[str, Any]  # the tournament item (its settings)
    season: Season | None
    deals: int  # deals scored again
    unknown_clubs: list[UnknownClub]
    players: list[ArchivePlayer]
    host: Club | None
    clubs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # short name -> item
    own_club_ids: frozenset[int] | None = None
    upserts: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    deletes: list[str] = field(default_factory=list)
    stored: Mapping[str, str] = field(default_factory=dict)  # digests held here before
    digests: Mapping[str, str] = field(default_factory=dict)  # digests after applying
    backfill: bool = False  # a copy from before the items: store every digest
    data: Mapping[str, Any] | None = None  # the archive, when one was planned
    season_note: str = ""  # why it joins no season (several or none hold its date)
    # Clubs here the importer does not run, with the number of their new players: these come
    # without a membership (only a club's organisers give it members).
    without_membership: tuple[tuple[str, int], ...] = ()

    @property
    def name(self) -> str:
        return str(self.settings.get("name", ""))

    @property
    def date(self) -> dt.date | None:
        try:
            return dt.date.fromisoformat(str(self.settings.get("date", "")))
        except ValueError:
            return None

    @property
    def finished(self) -> bool:
        return bool(self.settings.get("finished_at"))

    @property
    def uncertain(self) -> list[ArchivePlayer]:
        return [row for row in self.players if row.status == AMBIGUOUS]

    @property
    def club_errors(self) -> list[str]:
        errors = [unknown.error for unknown in self.unknown_clubs if unknown.error]
        errors += [
            _("Unknown club “%(club)s”: map it to a club here or create it.")
            % {"club": unknown.name}
            for unknown in self.unknown_clubs
            if unknown.choice is None
        ]
        return errors

    @property
    def membership_warnings(self) -> list[str]:
        """Said in the preview, before the import: new players who will have no club."""
        return [
            _(
                "You do not run the club “%(club)s”: its new players (%(count)s) will be taken "
                "without a club membership; only its organisers may add them."
            )
            % {"club": name, "count": count}
            for name, count in self.without_membership
        ]

    @property
    def changes(self) -> dict[str, dict[str, int]]:
        """Per kind of item: how many are new, changed and removed."""
        counts: dict[str, dict[str, int]] = {}
        for key in self.upserts:
            how = "changed" if key in self.stored else "new"
            row = counts.setdefault(kind_of(key), {"new": 0, "changed": 0, "removed": 0})
            row[how] += 1
        for key in self.deletes:
            row = counts.setdefault(kind_of(key), {"new": 0, "changed": 0, "removed": 0})
            row["removed"] += 1
        return counts

    @property
    def summary(self) -> str:
        return change_words(self.changes)


def _kind_names() -> dict[str, str]:
    return {
        "deal": _("Deals"),
        "entry": _("Entries"),
        "table": _("Tables"),
        "round": _("Rounds"),
        "team": _("Teams"),
        "keep_apart": _("Keep-apart pairs"),
        "lot": _("Draws by lot"),
        "club": _("Clubs"),
        "tournament": _("Settings"),
    }


def change_words(
    changes: Mapping[str, Mapping[str, int]], *, kinds: Iterable[str] | None = None
) -> str:
    """The item diff in words, kind by kind: "Spiele: 12 neu, 1 geändert; Tische: 1 neu"."""
    names = _kind_names()
    parts = []
    for kind in kinds if kinds is not None else names:
        counts = changes.get(kind) or {}
        words = [
            text % {"count": counts[how]}
            for how, text in (
                ("new", _("%(count)s new")),
                ("changed", _("%(count)s changed")),
                ("removed", _("%(count)s removed")),
            )
            if counts.get(how)
        ]
        if words:
            parts.append(f"{names[kind]}: {', '.join(words)}")
    return "; ".join(parts)


def _own_clubs(user: Any, own_club_ids: frozenset[int] | None) -> frozenset[int] | None:
    if user is not None:
        return frozenset(manageable_clubs(user).values_list("pk", flat=True))
    return own_club_ids


def _finish(
    diff: Diff,
    *,
    season: Season | None,
    club_choices: Mapping[str, ClubChoice] | None,
    player_choices: Mapping[str, Any] | None,
    own_club_ids: frozenset[int] | None,
    data: Mapping[str, Any] | None = None,
) -> ArchivePlan:
    """Clubs, players and the deals' scores of the items to write."""
    applicable = diff.action in APPLICABLE
    deals = (
        check_deal_items(
            diff.upserts, settings=diff.settings, items=diff.items, existing=diff.existing
        )
        if applicable
        else 0
    )
    clubs = ArchiveClubs(diff.clubs, club_choices, allowed_ids=own_club_ids)
    host: Club | None
    if diff.existing is not None and "tournament" not in diff.upserts:
        host = diff.existing.host_club  # unchanged settings: the copy's host
    else:
        host = clubs.club(diff.settings.get("host_club"))
    entries = [item for key, item in diff.upserts.items() if kind_of(key) == "entry"]
    players = (
        plan_players(
            entries=entries,
            clubs=clubs,
            existing=diff.existing,
            choices=player_choices or {},
            own_club_ids=own_club_ids,
        )
        if applicable
        else []
    )
    for key, item in diff.upserts.items():  # teams' clubs are looked up too
        if kind_of(key) == "team":
            clubs.club(item.get("club"))
    chosen_season, season_note = choose_season(
        season=season, existing=diff.existing, settings=diff.settings
    )
    return ArchivePlan(
        archive_id=diff.archive_id,
        content_hash=diff.content_hash or state_digest(diff.digests),
        revision=diff.revision,
        action=diff.action,
        existing=diff.existing,
        settings=diff.settings,
        season=chosen_season,
        season_note=season_note,
        deals=deals,
        unknown_clubs=clubs.unknown,
        players=players,
        without_membership=without_membership(rows=players, clubs=clubs, own_club_ids=own_club_ids),
        host=host,
        clubs=diff.clubs,
        own_club_ids=own_club_ids,
        upserts=diff.upserts if applicable else {},
        deletes=diff.deletes if applicable else [],
        stored=diff.stored,
        digests=diff.digests,
        backfill=diff.backfill,
        data=data,
    )


def plan_archive(
    *,
    data: Mapping[str, Any],
    season: Season | None = None,
    club_choices: Mapping[str, ClubChoice] | None = None,
    player_choices: Mapping[str, Any] | None = None,
    user: Any = None,
    own_club_ids: frozenset[int] | None = None,
) -> ArchivePlan:
    """What importing the archive would do here; raises ArchiveError if it cannot be read.
    ``season``: the season it joins (else the copy's, else the season the archive names, by
    name). Imported by ``user``, member numbers are looked up and memberships created only
    in the clubs ``user`` runs (``clubs.permissions.manageable_clubs``) and in clubs this
    import creates: another club's guest is matched by name or registry id, or entered
    without a club, so an archive can neither read another club's member numbers nor give
    it members. Without a user, ``own_club_ids`` says which clubs (a publishing token's: its
    club), None any (the command line, on the server's own authority)."""
    return _finish(
        archive_diff(data=data),
        season=season,
        club_choices=club_choices,
        player_choices=player_choices,
        own_club_ids=_own_clubs(user, own_club_ids),
        data=data,
    )


def plan_batch(
    *,
    batch: Batch,
    season: Season | None = None,
    club_choices: Mapping[str, ClubChoice] | None = None,
    player_choices: Mapping[str, Any] | None = None,
    user: Any = None,
    own_club_ids: frozenset[int] | None = None,
    held: Held | None = None,
) -> ArchivePlan:
    """What applying a batch of changes (``archive_format.parse_batch``) would do here. A
    snapshot (``base`` None) is every item: the diff against the digests here says what to
    write and delete. A batch of changes applies on the state it names as ``base``; another
    state here is ``stale`` (the sender sends a snapshot). The state digest after applying
    must be the batch's ``state``, else an ArchiveError (nothing written). ``held``: the
    copy and its digests as the caller read them (in this transaction), not read again."""
    return _finish(
        batch_diff(batch=batch, held=held),
        season=season,
        club_choices=club_choices,
        player_choices=player_choices,
        own_club_ids=_own_clubs(user, own_club_ids),
    )


def plan_take_back(
    *,
    tournament: Tournament,
    own: Mapping[str, Mapping[str, Any]],
    items: Mapping[str, Mapping[str, Any]],
    club_choices: Mapping[str, ClubChoice] | None = None,
) -> ArchivePlan:
    """On the laptop: what writing ``items`` taken back from the season server into this
    laptop's own ``tournament`` (whose items are ``own``) would do: the same checks as any
    archive (deals scored again, players matched), nothing deleted."""
    return _finish(
        take_back_diff(tournament=tournament, own=own, items=items),
        season=tournament.season,
        club_choices=club_choices,
        player_choices=None,
        own_club_ids=None,
    )


def refuse_unless_applicable(plan: ArchivePlan, *, allow_unfinished: bool = True) -> None:
    """An ArchiveError saying why the plan cannot be applied (older, conflict, original,
    stale, not finished, unknown clubs); nothing for ``new``, ``replace`` and ``unchanged``."""
    if plan.action == OLDER:
        raise ArchiveError(
            _(
                "This archive is revision %(revision)s of %(tournament)s; revision %(here)s is "
                "here already. An older archive never replaces a newer one; nothing changed."
            )
            % {
                "revision": plan.revision,
                "tournament": plan.existing,
                "here": plan.existing.archive_revision,  # type: ignore[union-attr]
            }
        )
    if plan.action == CONFLICT:
        raise ArchiveError(
            _(
                "This archive is revision %(revision)s of %(tournament)s, like the copy here, "
                "but its content differs. Export it again after the correction; nothing changed."
            )
            % {"revision": plan.revision, "tournament": plan.existing}
        )
    if plan.action == ORIGINAL:
        raise ArchiveError(
            _(
                "%(tournament)s was played on this server; an archive from elsewhere never "
                "replaces it. Nothing changed."
            )
            % {"tournament": plan.existing}
        )
    if plan.action == STALE:
        raise ArchiveError(
            _(
                "This server holds another state of the tournament than the batch builds on; "
                "nothing was written. Send the whole tournament."
            )
        )
    if plan.action == UNCHANGED:
        return
    if not plan.finished and not allow_unfinished:
        raise ArchiveError(
            _(
                "%(name)s is not finished (no final standings yet). Tick “import although not "
                "finished” to import it as it is; nothing was imported."
            )
            % {"name": plan.name}
        )
