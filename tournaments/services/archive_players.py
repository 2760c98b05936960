"""Who the archive's clubs and players are here (part of the plan: ``archive_plan``).

The clubs: by registry id, short name, name or a remembered spelling, else an unknown club
that someone maps (only to a club the importer runs), creates or leaves out (never
silently). The players of the entries to write: by registry id (under the same name), by
member number in a club the importer runs, by the start number of the copy here (same
name), else a namesake here is ``ambiguous`` (offered as the same person only when the only
one in the same club), else new. Reads only (3 queries for the players, 2 for the clubs).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from clubs.search import club_key, player_key
from clubs.services.imports import (
    AMBIGUOUS,
    MATCH,
    NEW,
    ClubChoice,
    ClubNames,
    PlanRow,
    UnknownClub,
)
from tournaments.archive_format import ArchiveError
from tournaments.models import Tournament

# A player's choice in the preview: an existing player's pk, or a new record.
NEW_PLAYER = "new"


@dataclass
class ArchivePlayer:
    """One player of the archive and who they are here."""

    key: str
    first_name: str
    last_name: str
    club_name: str  # as the archive names the club
    status: str  # imports.NEW, MATCH or AMBIGUOUS
    player: Player | None = None  # MATCH, or AMBIGUOUS as chosen
    candidates: list[Player] = field(default_factory=list)  # AMBIGUOUS: same name here
    how: str = ""  # MATCH: by registry id, member number or start number
    number: int = 0  # the entry's start number
    data: Mapping[str, Any] = field(default_factory=dict)  # the archive's player

    @property
    def name(self) -> str:
        return f"{self.last_name}, {self.first_name}"


def _uuid(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value)) if value else None
    except ValueError:
        return None


# Clubs.


class ArchiveClubs:
    """The archive's clubs here: by registry id, by short name or name (or a remembered
    spelling), else an unknown club that someone maps or creates (never silently). An
    unknown name maps only to a club in ``allowed_ids`` (the clubs the importer runs; None:
    any): a mapping is remembered as the club's spelling and gives its new players a
    membership, which only the club's organisers may do."""

    def __init__(
        self,
        clubs: Mapping[str, Mapping[str, Any]],
        choices: Mapping[str, ClubChoice] | None,
        *,
        allowed_ids: frozenset[int] | None = None,
    ) -> None:
        self.choices = dict(choices or {})
        self.allowed_ids = allowed_ids
        self._names: ClubNames | None = None  # read on the first lookup (2 queries)
        self.data = clubs
        self.found: dict[str, Club | None] = {}
        self.key_of: dict[str, str] = {}  # short name -> the unknown club's key

    @property
    def names(self) -> ClubNames:
        if self._names is None:
            self._names = ClubNames(allowed_ids=self.allowed_ids, choices=self.choices)
            self.by_uuid = {club.uuid: club for club in self._names.clubs}
        return self._names

    def club(self, short_name: str | None) -> Club | None:
        if not short_name:
            return None
        if short_name not in self.found:
            self.found[short_name] = self._find(short_name)
        return self.found[short_name]

    def _find(self, short_name: str) -> Club | None:
        data = self.data.get(short_name, {"name": short_name, "short_name": short_name})
        names = self.names
        registry_id = _uuid(data.get("uuid"))
        club = self.by_uuid.get(registry_id) if registry_id else None
        if club is None:
            club = names.by_key.get(club_key(short_name))
        if club is not None:
            return club
        row = PlanRow(line=0, status=NEW)
        club = self.names.resolve(str(data["name"]), row)
        if row.club_key:
            self.key_of[short_name] = row.club_key
            unknown = self.names.unknown[row.club_key]
            unknown.town = str(data.get("town") or unknown.town)[:80]
            if club_key(short_name) not in self.names.by_key:
                unknown.short_name = short_name[:20]
            if club is not None and club.pk is None:  # CREATE: the archive's town
                club.town = unknown.town
        return club

    @property
    def unknown(self) -> list[UnknownClub]:
        return list(self._names.unknown.values()) if self._names is not None else []


# Players.


@dataclass
class _Known:
    """The players here that the archive's players may be (3 queries, whatever the count)."""

    by_uuid: dict[uuid.UUID, Player]
    by_key: dict[str, list[Player]]
    by_member_number: dict[tuple[int, str], Player]
    earlier: dict[int, Player]  # start number -> the player of the copy's entry


def _known_players(
    rows: list[ArchivePlayer], clubs: ArchiveClubs, existing: Tournament | None
) -> _Known:
    ids = {u for u in (_uuid(row.data.get("uuid")) for row in rows) if u is not None}
    by_key: dict[str, list[Player]] = {}
    keys = {player_key(row.first_name, row.last_name) for row in rows}
    for player in Player.objects.filter(search_key__in=keys).prefetch_related("memberships"):
        by_key.setdefault(player.search_key, []).append(player)
    numbers = {_member_number(row) for row in rows} - {""}
    club_ids = {club.pk for row in rows if (club := clubs.club(row.club_name)) and club.pk}
    by_member_number = {
        (m.club_id, m.member_number): m.player
        for m in Membership.objects.filter(
            club_id__in=club_ids, member_number__in=numbers
        ).select_related("player")
    }
    earlier = {}
    if existing is not None:
        earlier = {
            e.number: e.player
            for e in existing.entries.filter(number__in=[row.number for row in rows])
            .select_related("player")
            .order_by()
        }
    return _Known(
        by_uuid={p.uuid: p for p in Player.objects.filter(uuid__in=ids)},
        by_key=by_key,
        by_member_number=by_member_number,
        earlier=earlier,
    )


def _member_number(row: ArchivePlayer) -> str:
    return str(row.data.get("member_number") or "").strip()


def _same_name(player: Player | None, row: ArchivePlayer) -> bool:
    return player is not None and player.search_key == player_key(row.first_name, row.last_name)


def _by_registry_id(row: ArchivePlayer, known: _Known) -> Player | None:
    """A registry id under another name is no proof: anyone could copy the id of another
    club's member into an archive. The name decides then."""
    registry_id = _uuid(row.data.get("uuid"))
    player = known.by_uuid.get(registry_id) if registry_id else None
    return player if _same_name(player, row) else None


def _by_member_number(
    row: ArchivePlayer, club: Club | None, known: _Known, own_club_ids: frozenset[int] | None
) -> Player | None:
    """Only in a club the importer runs: another club's numbers are not hers to quote."""
    runs_club = club is not None and (own_club_ids is None or club.pk in own_club_ids)
    if not runs_club or club.pk is None or not _member_number(row):  # type: ignore[union-attr]
        return None
    return known.by_member_number.get((club.pk, _member_number(row)))  # type: ignore[union-attr]


def _by_earlier_revision(row: ArchivePlayer, known: _Known) -> Player | None:
    """The copy's entry of the same start number and name: matched when it came in."""
    player = known.earlier.get(row.number)
    return player if _same_name(player, row) else None


def _namesakes(
    row: ArchivePlayer, club: Club | None, known: _Known, choices: Mapping[str, Any]
) -> None:
    """A namesake here: ambiguous, as chosen in the preview; else the preview's first offer
    (the namesake in the same club when there is one only, else a new record)."""
    candidates = known.by_key.get(player_key(row.first_name, row.last_name), [])
    if not candidates:
        return
    row.status, row.candidates = AMBIGUOUS, candidates[:10]
    choice = choices.get(row.key)
    if choice is None:
        same_club = [
            p
            for p in candidates
            if club is not None and any(m.club_id == club.pk for m in p.memberships.all())
        ]
        choice = same_club[0].pk if len(same_club) == 1 else NEW_PLAYER
    if choice != NEW_PLAYER:
        row.player = next((p for p in candidates if str(p.pk) == str(choice)), None)
        if row.player is None:
            raise ArchiveError(
                _("%(name)s: choose one of the players offered or a new record.")
                % {"name": row.name}
            )


def _plan_player(
    row: ArchivePlayer,
    clubs: ArchiveClubs,
    known: _Known,
    *,
    choices: Mapping[str, Any],
    own_club_ids: frozenset[int] | None,
) -> None:
    club = clubs.club(row.club_name)
    for how, player in (
        (_("registry id"), _by_registry_id(row, known)),
        (_("member number"), _by_member_number(row, club, known, own_club_ids)),
        (_("the earlier revision"), _by_earlier_revision(row, known)),
    ):
        if player is not None:
            row.status, row.player, row.how = MATCH, player, how
            return
    _namesakes(row, club, known, choices)


def _archive_player(entry: Mapping[str, Any]) -> ArchivePlayer:
    data = entry["player"]
    return ArchivePlayer(
        key=str(data["key"]),
        first_name=str(data["first_name"]).strip(),
        last_name=str(data["last_name"]).strip(),
        club_name=str(data.get("club") or ""),
        status=NEW,
        number=int(entry["number"]),
        data=data,
    )


def plan_players(
    *,
    entries: Iterable[Mapping[str, Any]],
    clubs: ArchiveClubs,
    existing: Tournament | None,
    choices: Mapping[str, Any],
    own_club_ids: frozenset[int] | None,
) -> list[ArchivePlayer]:
    """Who the players of the entries to write are here."""
    rows = [_archive_player(entry) for entry in entries]
    if not rows:
        return []
    known = _known_players(rows, clubs, existing)
    for row in rows:
        _plan_player(row, clubs, known, choices=choices, own_club_ids=own_club_ids)
    return rows


def without_membership(
    *, rows: list[ArchivePlayer], clubs: ArchiveClubs, own_club_ids: frozenset[int] | None
) -> tuple[tuple[str, int], ...]:
    """The clubs here the importer does not run whose players would be new records: they
    come without a membership (``archive_write._new_player``), so the organiser is told."""
    if own_club_ids is None:
        return ()
    counts: dict[str, int] = {}
    for row in rows:
        club = clubs.club(row.club_name)
        if row.player is None and club is not None and club.pk not in (None, *own_club_ids):
            counts[club.name] = counts.get(club.name, 0) + 1
    return tuple(sorted(counts.items()))
