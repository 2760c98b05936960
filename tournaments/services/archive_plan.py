"""What an archive or a batch of changes would change here (step 2 of 3: parse → plan → write).

The same planner serves the upload's preview, the command line and the season server's
endpoint. It says:
- what happens to the tournament: ``new``, ``unchanged``, ``replace``, ``older``, ``conflict``
  (the same revision with other content), ``original`` (played on this server: an archive
  from elsewhere never replaces it) or ``stale`` (a batch built on a state this server does
  not hold: the sender must send a snapshot);
- the **item diff**: which items to write (new or changed digest) and which to delete,
  against the digests this server stored when the copy arrived (``ArchiveItem``), never by
  reading the whole tournament; counted by kind for the preview ("12 neue Spiele, 1
  geändert");
- the clubs: the archive's clubs here, by registry id, short name, name or a remembered
  spelling, else an unknown club that someone maps (only to a club the importer runs),
  creates or leaves out (never silently); the clubs she does not run whose new players
  come without a membership (``without_membership``: said in the preview and the log);
- the players of the entries to write: by registry id (under the same name), by member
  number in a club the importer runs, by the start number of the copy here (same name), else
  a namesake here is ``ambiguous`` (offered as the same person only when the only one in the
  same club), else new;
- every deal to write scored again from the tournament's rule snapshot; one whose scores
  differ is an ArchiveError naming the deal.
Nothing here writes; ``archive_write`` applies a plan.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from clubs.permissions import manageable_clubs
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
from scoring import ScoringError, rule_source_from_dict
from seasons.models import Season
from tournaments.archive_format import (
    ArchiveError,
    Batch,
    archive_items,
    diff_digests,
    item_digests,
    kind_of,
    legacy_archive_hash,
    state_digest,
    table_key,
    validate_archive,
)
from tournaments.models import ArchiveItem, Deal, Seat, Tournament
from tournaments.selectors.archive import tournament_items
from tournaments.services.paper_sheets import WrittenRow, check_written_row
from tournaments.services.results_common import ResultError, TableFacts, compute_scores

# What an archive or batch does to this server's copy of its tournament.
NEW_TOURNAMENT, UNCHANGED, REPLACE = "new", "unchanged", "replace"
OLDER, CONFLICT, ORIGINAL, STALE = "older", "conflict", "original", "stale"
APPLICABLE = (NEW_TOURNAMENT, REPLACE)
# A player's choice in the preview: an existing player's pk, or a new record.
NEW_PLAYER = "new"
# Deal-record keys the table supplies rather than the person entering.
_TABLE_KEYS = {"id", "rules", "seats", "sitting_out"}


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


def _plan_players(
    entries: Iterable[Mapping[str, Any]],
    clubs: ArchiveClubs,
    *,
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


def _without_membership(
    rows: list[ArchivePlayer], clubs: ArchiveClubs, own_club_ids: frozenset[int] | None
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


# Deals.


def _deal_name(round_number: Any, table_number: Any, deal_number: Any) -> str:
    return _("Round %(round)s, table %(table)s, deal %(deal)s") % {
        "round": round_number,
        "table": table_number,
        "deal": deal_number,
    }


def rules_of(settings: Mapping[str, Any]):
    try:
        return rule_source_from_dict(settings["rules_snapshot"])
    except (ScoringError, KeyError, TypeError, ValueError) as error:
        raise ArchiveError(
            _("The archive's rule snapshot cannot be read: %(error)s") % {"error": error}
        ) from error


def _scores_of(deal: Mapping[str, Any], record: Mapping[str, Any], facts: TableFacts) -> list:
    stored = deal["scores"]
    if deal.get("as_written"):
        # A paper sheet's line: the engine checks the amounts as written.
        return list(
            check_written_row(
                facts=facts,
                row=WrittenRow(
                    number=int(deal["number"]),
                    contract=str(record.get("contract", "")),
                    declarer=int(record.get("declarer", -1)),
                    amounts=tuple(stored),
                ),
            ).scores
        )
    inputs = {k: v for k, v in record.items() if k not in _TABLE_KEYS}
    _record, scores = compute_scores(facts=facts, number=int(deal["number"]), inputs=inputs)
    return list(scores)


def check_deal(deal: Mapping[str, Any], *, rules, size: int) -> None:
    """Score one deal item again from the rules; an ArchiveError naming it if its stored
    scores are not what the rules give."""
    name = _deal_name(deal["round"], deal["table"], deal["number"])
    stored = deal["scores"]
    if not isinstance(stored, list) or len(stored) != size:
        raise ArchiveError(_("%(deal)s: there must be one score per seat.") % {"deal": name})
    if deal["kind"] == Deal.Kind.TOTAL:
        if sum(s or 0 for s in stored) != 0:
            raise ArchiveError(_("%(deal)s: the totals do not add up to 0.") % {"deal": name})
        return
    record = deal.get("record")
    if not isinstance(record, Mapping):
        raise ArchiveError(_("%(deal)s has no deal record.") % {"deal": name})
    if record.get("rules") != rules.slug or record.get("seats") != size:
        raise ArchiveError(
            _("%(deal)s: the record's rules or seats do not match the tournament.") % {"deal": name}
        )
    facts = TableFacts(table=None, rules=rules, table_size=size)  # type: ignore[arg-type]
    try:
        scores = _scores_of(deal, record, facts)
    except (ResultError, TypeError, ValueError) as error:
        raise ArchiveError(
            _("%(deal)s cannot be scored: %(error)s") % {"deal": name, "error": error}
        ) from error
    if scores != list(stored):
        raise ArchiveError(
            _(
                "%(deal)s: the archive says %(stored)s, but its rules give "
                "%(scores)s. Nothing was imported."
            )
            % {"deal": name, "stored": stored, "scores": scores}
        )


def _table_sizes(
    deals: list[Mapping[str, Any]], items: Mapping[str, Mapping[str, Any]], existing
) -> dict[str, int]:
    """The number of seats of each table the deals are at: from the items, else from the
    copy here (1 query)."""
    sizes: dict[str, int] = {}
    wanted = set()
    for deal in deals:
        key = table_key(deal["round"], deal["table"])
        if key in items:
            sizes[key] = len(items[key]["seats"])
        else:
            wanted.add((deal["round"], deal["table"]))
    if wanted and existing is not None:
        rows = (
            Seat.objects.filter(
                round__tournament=existing, round__number__in={r for r, _t in wanted}
            )
            .values("round__number", "table__number")
            .annotate(seats=Count("pk"))
            .order_by()
        )
        for row in rows:
            sizes[table_key(row["round__number"], row["table__number"])] = row["seats"]
    for deal in deals:
        if table_key(deal["round"], deal["table"]) not in sizes:
            raise ArchiveError(
                _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
                % {"key": table_key(deal["round"], deal["table"])}
            )
    return sizes


def check_deal_items(
    upserts: Mapping[str, Mapping[str, Any]],
    *,
    settings: Mapping[str, Any],
    items: Mapping[str, Mapping[str, Any]] | None = None,
    existing: Tournament | None = None,
) -> int:
    """Score every deal item of ``upserts`` again from the tournament's rule snapshot; raise
    on the first mismatch. ``items``: where the tables are (else ``upserts``, then the copy
    here). Returns the number of deals checked."""
    deals = [item for key, item in upserts.items() if kind_of(key) == "deal"]
    if not deals:
        return 0
    rules = rules_of(settings)
    sizes = _table_sizes(deals, items if items is not None else upserts, existing)
    for deal in deals:
        check_deal(deal, rules=rules, size=sizes[table_key(deal["round"], deal["table"])])
    return len(deals)


# What is here.


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


def _season(
    season: Season | None, existing: Tournament | None, settings: Mapping[str, Any]
) -> tuple[Season | None, str]:
    """The season it joins, and a note where none could be chosen: the one given, else the
    copy's (the organiser may have chosen it here), else the archive's by name, else the one
    season whose dates hold the tournament's date. Several or none: no season, and the note
    says so (the organiser picks once, on the tournament's page)."""
    if season is None and existing is not None:
        season = existing.season
    if season is None and settings.get("season"):
        season = Season.objects.filter(name=settings["season"].get("name", "")).first()
    if season is not None:
        return season, ""
    try:
        day = dt.date.fromisoformat(str(settings.get("date", "")))
    except ValueError:
        return None, ""
    holding = list(Season.objects.filter(starts_on__lte=day, ends_on__gte=day).order_by("name"))
    if len(holding) == 1:
        return holding[0], ""
    if holding:
        return None, _(
            "Several seasons hold %(date)s (%(seasons)s): choose the tournament's season on its "
            "page on the season server."
        ) % {"date": day.strftime("%d.%m.%Y"), "seasons": ", ".join(s.name for s in holding)}
    return None, _(
        "No season on the season server holds %(date)s: the tournament counts for no season "
        "until one is chosen on its page there."
    ) % {"date": day.strftime("%d.%m.%Y")}


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


def _own_clubs(user: Any, own_club_ids: frozenset[int] | None) -> frozenset[int] | None:
    if user is not None:
        return frozenset(manageable_clubs(user).values_list("pk", flat=True))
    return own_club_ids


def _archive_id(value: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except (KeyError, ValueError) as error:
        raise ArchiveError(_("The archive id is not valid.")) from error


@dataclass
class _Diff:
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


def _finish(
    diff: _Diff,
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
        _plan_players(
            entries,
            clubs,
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
    chosen_season, season_note = _season(season, diff.existing, diff.settings)
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
        without_membership=_without_membership(players, clubs, own_club_ids),
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
    diff = _Diff(
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
    return _finish(
        diff,
        season=season,
        club_choices=club_choices,
        player_choices=player_choices,
        own_club_ids=_own_clubs(user, own_club_ids),
        data=data,
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
    diff = _Diff(
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
    return _finish(
        diff,
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
    local = item_digests(own)
    merged = {**own, **items}
    diff = _Diff(
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
    return _finish(
        diff,
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
