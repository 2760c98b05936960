"""Importing a tournament archive (``tournaments.selectors.archive`` writes them).

Everything is checked before anything is written: the file's format and version, the keys it
must have, and every deal, scored again from the archive's own rule snapshot. A deal whose
stored scores differ from the engine's is an error naming the deal. Then all is written in
one transaction. An archive whose ``archive_id`` is here already is not imported again.

Players are matched by member number (in the club named), else by first and last name in
that club (or, without a club, by name among players of no club); a player not found is
created, with the membership the archive names.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from clubs.permissions import manageable_clubs
from clubs.search import club_key, player_key
from clubs.services.imports import (
    AMBIGUOUS,
    CREATE,
    MATCH,
    NEW,
    NO_CLUB,
    ClubChoice,
    ClubNames,
    Plan,
    PlanRow,
    UnknownClub,
    _apply_club_choices,
)
from scoring import ScoringError, rule_source_from_dict
from seasons.models import Season
from tournaments.models import (
    Deal,
    DealChange,
    Entry,
    KeepApart,
    LotDraw,
    Round,
    RoundChange,
    Seat,
    Substitution,
    Table,
    Team,
    Tournament,
    TournamentChange,
)
from tournaments.selectors.archive import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    TOURNAMENT_SETTINGS,
    archive_hash,
    tournament_archive,
)
from tournaments.services import changelog
from tournaments.services.results import (
    INPUT_FIELDS,
    ResultError,
    TableFacts,
    WrittenRow,
    check_written_row,
    compute_scores,
)

# Deal-record keys the table supplies rather than the person entering.
_TABLE_KEYS = {"id", "rules", "seats", "sitting_out"}


class ArchiveError(Exception):
    """The archive cannot be imported; nothing was written."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ImportOutcome:
    tournament: Tournament
    created: bool  # False: this archive had been imported before
    replaced: bool = False  # a newer revision replaced the copy here
    players_created: int = 0
    deals: int = 0


def parse_archive(raw: bytes | str) -> dict[str, Any]:
    """The archive's JSON, or an ArchiveError saying what is wrong with the file."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ArchiveError(
            _("The file is not a JSON file: %(error)s") % {"error": error}
        ) from error
    except RecursionError as error:  # no archive nests more than a few levels
        raise ArchiveError(_("The file is nested too deeply for a tournament archive.")) from error
    if not isinstance(data, dict) or data.get("format") != ARCHIVE_FORMAT:
        raise ArchiveError(_("The file is not a Cego Club tournament archive."))
    if data.get("version") != ARCHIVE_VERSION:
        raise ArchiveError(
            _("Archive version %(found)s cannot be read; this server reads version %(version)s.")
            % {"found": data.get("version"), "version": ARCHIVE_VERSION}
        )
    _require(
        data,
        ("archive_id", "tournament", "clubs", "players", "entries", "rounds"),
        _("the archive"),
    )
    return data


def _require(obj: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(obj, Mapping):
        raise ArchiveError(_("%(where)s is not an object.") % {"where": where})
    missing = [key for key in keys if key not in obj]
    if missing:
        raise ArchiveError(
            _("%(where)s lacks %(keys)s.") % {"where": where, "keys": ", ".join(missing)}
        )


def _list(obj: Mapping, key: str, where: str) -> list:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise ArchiveError(_("%(where)s: %(key)s is not a list.") % {"where": where, "key": key})
    return value


def _deal_name(round_number: Any, table_number: Any, deal_number: Any) -> str:
    return _("Round %(round)s, table %(table)s, deal %(deal)s") % {
        "round": round_number,
        "table": table_number,
        "deal": deal_number,
    }


def check_deals(data: Mapping[str, Any]) -> int:
    """Score every deal again from the archive's rule snapshot; raise on the first mismatch.
    Returns the number of deals checked."""
    tournament = data["tournament"]
    try:
        rules = rule_source_from_dict(tournament["rules_snapshot"])
    except (ScoringError, KeyError, TypeError, ValueError) as error:
        raise ArchiveError(
            _("The archive's rule snapshot cannot be read: %(error)s") % {"error": error}
        ) from error
    checked = 0
    for round_ in _list(data, "rounds", _("the archive")):
        _require(round_, ("number", "tables"), _("a round"))
        seated: dict[Any, Any] = {}  # entry -> its table in this round
        for table in _list(round_, "tables", _("a round")):
            _require(table, ("number", "seats", "deals"), _("a table"))
            size = len(table["seats"])
            for entry in _list(table, "seats", _("a table")):
                if entry is not None and entry in seated:
                    raise ArchiveError(
                        _(
                            "Round %(round)s: entry %(entry)s sits twice at table %(table)s; "
                            "nothing was imported."
                        )
                        % {"round": round_["number"], "entry": entry, "table": table["number"]}
                        if seated[entry] == table["number"]
                        else _(
                            "Round %(round)s: entry %(entry)s sits at tables %(first)s and "
                            "%(second)s; nothing was imported."
                        )
                        % {
                            "round": round_["number"],
                            "entry": entry,
                            "first": seated[entry],
                            "second": table["number"],
                        }
                    )
                seated[entry] = table["number"]
            numbers: set[Any] = set()
            for deal in _list(table, "deals", _("a table")):
                _require(deal, ("number", "kind", "status", "scores"), _("a deal"))
                name = _deal_name(round_["number"], table["number"], deal["number"])
                if deal["number"] in numbers:
                    raise ArchiveError(
                        _(
                            "Round %(round)s, table %(table)s: deal %(deal)s twice; nothing was "
                            "imported."
                        )
                        % {
                            "round": round_["number"],
                            "table": table["number"],
                            "deal": deal["number"],
                        }
                    )
                numbers.add(deal["number"])
                stored = deal["scores"]
                if not isinstance(stored, list) or len(stored) != size:
                    raise ArchiveError(
                        _("%(deal)s: there must be one score per seat.") % {"deal": name}
                    )
                if deal["kind"] == Deal.Kind.TOTAL:
                    if sum(s or 0 for s in stored) != 0:
                        raise ArchiveError(
                            _("%(deal)s: the totals do not add up to 0.") % {"deal": name}
                        )
                    continue
                record = deal.get("record")
                if not isinstance(record, Mapping):
                    raise ArchiveError(_("%(deal)s has no deal record.") % {"deal": name})
                if record.get("rules") != rules.slug or record.get("seats") != size:
                    raise ArchiveError(
                        _("%(deal)s: the record's rules or seats do not match the tournament.")
                        % {"deal": name}
                    )
                inputs = {k: v for k, v in record.items() if k not in _TABLE_KEYS}
                facts = TableFacts(table=None, rules=rules, table_size=size)  # type: ignore[arg-type]
                try:
                    if deal.get("as_written"):
                        # A paper sheet's line: the engine checks the amounts as written.
                        scores = check_written_row(
                            facts=facts,
                            row=WrittenRow(
                                number=int(deal["number"]),
                                contract=str(record.get("contract", "")),
                                declarer=int(record.get("declarer", -1)),
                                amounts=tuple(stored),
                            ),
                        ).scores
                    else:
                        _record, scores = compute_scores(
                            facts=facts, number=int(deal["number"]), inputs=inputs
                        )
                except (ResultError, TypeError, ValueError) as error:
                    raise ArchiveError(
                        _("%(deal)s cannot be scored: %(error)s") % {"deal": name, "error": error}
                    ) from error
                if list(scores) != list(stored):
                    raise ArchiveError(
                        _(
                            "%(deal)s: the archive says %(stored)s, but its rules give "
                            "%(scores)s. Nothing was imported."
                        )
                        % {"deal": name, "stored": stored, "scores": list(scores)}
                    )
                checked += 1
    return checked


# What an archive does to this server's copy of its tournament.
NEW_TOURNAMENT, UNCHANGED, REPLACE = "new", "unchanged", "replace"
OLDER, CONFLICT, ORIGINAL = "older", "conflict", "original"
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

    @property
    def name(self) -> str:
        return f"{self.last_name}, {self.first_name}"


@dataclass
class ArchivePlan:
    """The preview of an archive: what it is, what it would do here, what must be decided."""

    data: Mapping[str, Any]
    archive_id: uuid.UUID
    content_hash: str
    revision: int
    action: str  # NEW_TOURNAMENT, UNCHANGED, REPLACE, OLDER, CONFLICT or ORIGINAL
    existing: Tournament | None
    finished: bool
    season: Season | None
    deals: int
    unknown_clubs: list[UnknownClub]
    players: list[ArchivePlayer]
    host: Club | None
    # The clubs whose member numbers the archive may name and which it may give members (those
    # the importing user runs); None: any (the command line, on the server's own authority).
    own_club_ids: frozenset[int] | None = None

    @property
    def name(self) -> str:
        return str(self.data["tournament"].get("name", ""))

    @property
    def date(self) -> dt.date | None:
        try:
            return dt.date.fromisoformat(str(self.data["tournament"].get("date", "")))
        except ValueError:
            return None

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


def _uuid(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value)) if value else None
    except ValueError:
        return None


class _Clubs:
    """The archive's clubs here: by registry id, by short name or name (or a remembered
    spelling), else an unknown club that someone maps or creates (never silently)."""

    def __init__(self, clubs: list[Any], choices: Mapping[str, ClubChoice] | None) -> None:
        self.names = ClubNames(allowed_ids=None, choices=dict(choices or {}))
        self.by_uuid = {club.uuid: club for club in self.names.clubs}
        self.data: dict[str, Mapping[str, Any]] = {}
        for club in clubs:
            _require(club, ("name", "short_name"), _("a club"))
            self.data[club["short_name"]] = club
        self.found: dict[str, Club | None] = {}
        self.key_of: dict[str, str] = {}  # short name -> the unknown club's key

    def club(self, short_name: str | None) -> Club | None:
        if not short_name:
            return None
        if short_name not in self.found:
            data = self.data.get(short_name, {"name": short_name, "short_name": short_name})
            club = self.by_uuid.get(_uuid(data.get("uuid")))
            if club is None:
                club = self.names.by_key.get(club_key(short_name))
            if club is None:
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
            self.found[short_name] = club
        return self.found[short_name]

    @property
    def unknown(self) -> list[UnknownClub]:
        return list(self.names.unknown.values())


def _plan_players(
    data: Mapping[str, Any],
    clubs: _Clubs,
    *,
    existing: Tournament | None,
    choices: Mapping[str, Any],
    own_club_ids: frozenset[int] | None,
) -> list[ArchivePlayer]:
    rows = _list(data, "players", _("the archive"))
    for row in rows:
        _require(row, ("key", "first_name", "last_name"), _("a player"))
    ids = {u for u in (_uuid(row.get("uuid")) for row in rows) if u is not None}
    by_uuid = {p.uuid: p for p in Player.objects.filter(uuid__in=ids)}
    keys = {player_key(row["first_name"], row["last_name"]) for row in rows}
    by_key: dict[str, list[Player]] = {}
    for player in Player.objects.filter(search_key__in=keys).prefetch_related("memberships"):
        by_key.setdefault(player.search_key, []).append(player)
    # A replacement: the start numbers of this server's copy, with the same names, are the
    # players matched (or created) when the earlier revision came in.
    earlier: dict[str, Player] = {}
    if existing is not None:
        number_of = {
            e["player"]: e["number"]
            for e in _list(data, "entries", _("the archive"))
            if isinstance(e, Mapping) and "player" in e and "number" in e
        }
        by_number = {
            e.number: e.player
            for e in Entry.objects.filter(tournament=existing).select_related("player")
        }
        for row in rows:
            player = by_number.get(number_of.get(row["key"]))
            if player is not None and player.search_key == player_key(
                row["first_name"], row["last_name"]
            ):
                earlier[row["key"]] = player
    planned = []
    for row in rows:
        club = clubs.club(row.get("club"))
        item = ArchivePlayer(
            key=row["key"],
            first_name=str(row["first_name"]).strip(),
            last_name=str(row["last_name"]).strip(),
            club_name=str(row.get("club") or ""),
            status=NEW,
        )
        planned.append(item)
        player = by_uuid.get(_uuid(row.get("uuid")))
        if player is not None and player.search_key != player_key(
            row["first_name"], row["last_name"]
        ):
            # A registry id under another name is no proof: anyone could copy the id of
            # another club's member into an archive. The name decides below.
            player = None
        how = _("registry id")
        number = str(row.get("member_number") or "").strip()
        runs_club = club is not None and (own_club_ids is None or club.pk in own_club_ids)
        if player is None and runs_club and club.pk is not None and number:
            membership = (
                Membership.objects.filter(club=club, member_number=number)
                .select_related("player")
                .first()
            )
            player, how = (membership.player if membership else None), _("member number")
        if player is None and row["key"] in earlier:
            player, how = earlier[row["key"]], _("the earlier revision")
        if player is not None:
            item.status, item.player, item.how = MATCH, player, how
            continue
        candidates = by_key.get(player_key(row["first_name"], row["last_name"]), [])
        if not candidates:
            continue
        item.status, item.candidates = AMBIGUOUS, candidates[:10]
        choice = choices.get(row["key"])
        if choice is None:  # the preview's first offer: the namesake in the same club
            same_club = [
                p
                for p in candidates
                if club is not None and any(m.club_id == club.pk for m in p.memberships.all())
            ]
            choice = same_club[0].pk if len(same_club) == 1 else NEW_PLAYER
        if choice != NEW_PLAYER:
            item.player = next((p for p in candidates if str(p.pk) == str(choice)), None)
            if item.player is None:
                raise ArchiveError(
                    _("%(name)s: choose one of the players offered or a new record.")
                    % {"name": item.name}
                )
    return planned


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
    ``season``: the season it joins (else the season the archive names, by name). Imported by
    ``user``, member numbers are looked up and memberships created only in the clubs ``user``
    runs (``clubs.permissions.manageable_clubs``) and in clubs this import creates: another
    club's guest is matched by name or registry id, or entered without a club, as at the
    desk's late entry, so an archive can neither read another club's member numbers nor give
    it members. Without a user, ``own_club_ids`` says which clubs (a publishing token's:
    its club), None any (the command line, on the server's own authority)."""
    if user is not None:
        own_club_ids = frozenset(manageable_clubs(user).values_list("pk", flat=True))
    try:
        archive_id = uuid.UUID(str(data["archive_id"]))
    except (KeyError, ValueError) as error:
        raise ArchiveError(_("The archive id is not valid.")) from error
    settings = data["tournament"]
    _require(
        settings, ("name", "date", "host_club", "rules_slug", "rules_snapshot"), _("the tournament")
    )
    content_hash = archive_hash(dict(data))
    try:
        revision = int(data.get("revision") or 0)
    except (TypeError, ValueError) as error:
        raise ArchiveError(_("The archive's revision is not a number.")) from error
    existing = Tournament.objects.filter(archive_id=archive_id).select_related("season").first()
    if existing is None:
        action = NEW_TOURNAMENT
    elif existing.archive_hash == content_hash:
        action = UNCHANGED
    elif existing.archive_revision is None and not existing.archive_hash:
        # This server is where it was played: its own archive changes nothing; another
        # server's version of it never replaces the original.
        own = tournament_archive(tournament=existing)
        action = UNCHANGED if own["content_hash"] == content_hash else ORIGINAL
    elif revision > (existing.archive_revision or 0):
        action = REPLACE
    elif revision < (existing.archive_revision or 0):
        action = OLDER
    else:
        action = CONFLICT
    deals = check_deals(data) if action in (NEW_TOURNAMENT, REPLACE) else 0
    if season is None and existing is not None:
        season = existing.season
    if season is None and settings.get("season"):
        season = Season.objects.filter(name=settings["season"].get("name", "")).first()
    clubs = _Clubs(_list(data, "clubs", _("the archive")), club_choices)
    host = clubs.club(settings["host_club"])
    players = (
        _plan_players(
            data,
            clubs,
            existing=existing,
            choices=player_choices or {},
            own_club_ids=own_club_ids,
        )
        if action in (NEW_TOURNAMENT, REPLACE)
        else []
    )
    return ArchivePlan(
        data=data,
        archive_id=archive_id,
        content_hash=content_hash,
        revision=revision,
        action=action,
        existing=existing,
        finished=bool(settings.get("finished_at")),
        season=season,
        deals=deals,
        unknown_clubs=clubs.unknown,
        players=players,
        host=host,
        own_club_ids=own_club_ids,
    )


def _time(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if isinstance(value, str) else None


@transaction.atomic
def import_tournament_archive(
    *,
    data: Mapping[str, Any],
    user: AbstractBaseUser | None = None,
    season: Season | None = None,
    allow_unfinished: bool = True,
    club_choices: Mapping[str, ClubChoice] | None = None,
    player_choices: Mapping[str, Any] | None = None,
    create_clubs: bool = False,
    actor: str = "",
    own_club_ids: frozenset[int] | None = None,
) -> ImportOutcome:
    """Import a parsed archive (``parse_archive``); raises ArchiveError, writing nothing.

    A new tournament is created (in ``season`` if given); a newer revision of one imported
    before replaces it, with an entry in its log saying what changed; the same content again
    changes nothing; an older revision is refused. ``allow_unfinished`` False refuses a
    tournament that is not finished. Unknown clubs need a choice (``club_choices``, or
    ``create_clubs`` to create them as the archive names them); uncertain players take
    ``player_choices`` (key -> a player's pk or ``NEW_PLAYER``), else the preview's offer.
    """
    if "archive_id" in data:
        Tournament.objects.select_for_update().filter(archive_id=_uuid(data["archive_id"])).first()
    plan = plan_archive(
        data=data,
        season=season,
        club_choices=club_choices,
        player_choices=player_choices,
        user=user,
        own_club_ids=own_club_ids,
    )
    if plan.action == UNCHANGED:
        return ImportOutcome(tournament=plan.existing, created=False)  # type: ignore[arg-type]
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
    if not plan.finished and not allow_unfinished:
        raise ArchiveError(
            _(
                "%(name)s is not finished (no final standings yet). Tick “import although not "
                "finished” to import it as it is; nothing was imported."
            )
            % {"name": plan.name}
        )
    if create_clubs:
        choices = dict(club_choices or {})
        for unknown in plan.unknown_clubs:
            choices.setdefault(unknown.key, ClubChoice(CREATE, short_name=unknown.short_name))
        plan = plan_archive(
            data=data,
            season=season,
            club_choices=choices,
            player_choices=player_choices,
            user=user,
            own_club_ids=own_club_ids,
        )
    if plan.club_errors:
        raise ArchiveError(" ".join(plan.club_errors))
    try:
        with transaction.atomic():
            return _write(plan, user=user, actor=actor)
    except KeyError as error:
        raise ArchiveError(
            _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
            % {"key": error.args[0] if error.args else "?"}
        ) from error
    except (TypeError, ValueError, IntegrityError) as error:
        raise ArchiveError(
            _("The archive is inconsistent and was not imported: %(error)s") % {"error": error}
        ) from error


def _players_here(
    plan: ArchivePlan, clubs: dict[str, Club | None], *, created_club_ids: frozenset[int]
) -> tuple[dict, int]:
    """The archive's players as records here: matched, chosen, or created (with the
    archive's registry id where it is free, so that its next revision finds them)."""
    rows = {row["key"]: row for row in plan.data["players"]}
    taken_ids = set(
        Player.objects.filter(
            uuid__in=[u for u in (_uuid(r.get("uuid")) for r in rows.values()) if u]
        ).values_list("uuid", flat=True)
    )
    player_of: dict[str, Player] = {}
    created = 0
    for item in plan.players:
        if item.player is not None:
            player_of[item.key] = item.player
            continue
        data = rows[item.key]
        player = Player(
            first_name=item.first_name,
            last_name=item.last_name,
            birth_year=data.get("birth_year"),
            category=data.get("category") or "open",
        )
        registry_id = _uuid(data.get("uuid"))
        if registry_id is not None and registry_id not in taken_ids:
            player.uuid = registry_id
            taken_ids.add(registry_id)
        player.save()
        club = clubs.get(item.club_name)
        runs_club = club is not None and (
            plan.own_club_ids is None or club.pk in plan.own_club_ids or club.pk in created_club_ids
        )
        if runs_club:
            number = str(data.get("member_number") or "").strip()
            taken = number and Membership.objects.filter(club=club, member_number=number).exists()
            Membership.objects.create(
                player=player, club=club, member_number="" if taken else number
            )
        player_of[item.key] = player
        created += 1
    return player_of, created


def _clubs_here(
    plan: ArchivePlan, *, user: AbstractBaseUser | None
) -> tuple[dict[str, Club | None], frozenset[int]]:
    """The archive's clubs, after the choices for unknown ones are applied, and the ids of
    the clubs created for it."""
    rows = [PlanRow(line=0, status=NEW, club_key=unknown.key) for unknown in plan.unknown_clubs]
    created_ids, _remembered = _apply_club_choices(
        Plan(rows=rows, columns=(), unknown_columns=(), unknown_clubs=plan.unknown_clubs),
        user=user,
    )
    clubs = _Clubs(_list(plan.data, "clubs", _("the archive")), None)
    found = {}
    for short_name in [c["short_name"] for c in plan.data["clubs"]]:
        found[short_name] = clubs.club(short_name)
    for unknown in plan.unknown_clubs:  # "no club": its players enter without a club
        if unknown.choice is not None and unknown.choice.action == NO_CLUB:
            for short_name, key in clubs.key_of.items():
                if key == unknown.key:
                    found[short_name] = None
    return found, created_ids


def _clear(tournament: Tournament) -> None:
    """Remove a copy's contents before its newer revision is written (its log stays)."""
    DealChange.objects.filter(deal__table__round__tournament=tournament).delete()
    RoundChange.objects.filter(round__tournament=tournament).delete()
    Substitution.objects.filter(seat__round__tournament=tournament).delete()
    Deal.objects.filter(table__round__tournament=tournament).delete()
    Seat.objects.filter(round__tournament=tournament).delete()
    Table.objects.filter(round__tournament=tournament).delete()
    Round.objects.filter(tournament=tournament).delete()
    KeepApart.objects.filter(tournament=tournament).delete()
    LotDraw.objects.filter(tournament=tournament).delete()
    Entry.objects.filter(tournament=tournament).delete()
    Team.objects.filter(tournament=tournament).delete()


def _deal_states(tournament: Tournament) -> dict[str, tuple]:
    return {
        f"r{r}-t{t}-d{n}": (status, *scores)
        for r, t, n, status, *scores in Deal.objects.filter(
            table__round__tournament=tournament
        ).values_list(
            "table__round__number",
            "table__number",
            "number",
            "status",
            "score_0",
            "score_1",
            "score_2",
            "score_3",
            "score_4",
        )
    }


def _changes(before: dict[str, tuple], after: dict[str, tuple]) -> dict[str, list[str]]:
    """Which deals the newer revision added, changed and removed."""
    return {
        "added": sorted(set(after) - set(before)),
        "changed": sorted(k for k in set(after) & set(before) if after[k] != before[k]),
        "removed": sorted(set(before) - set(after)),
    }


def _write(plan: ArchivePlan, *, user: AbstractBaseUser | None, actor: str) -> ImportOutcome:
    data, settings = plan.data, plan.data["tournament"]
    clubs, created_club_ids = _clubs_here(plan, user=user)
    host = clubs.get(settings["host_club"])
    if host is None:
        raise ArchiveError(_("The archive's host club must be a club here."))
    season = plan.season
    if season is None and settings.get("season"):
        season_data = settings["season"]
        season, _created = Season.objects.get_or_create(
            name=season_data["name"],
            defaults={"starts_on": season_data["starts_on"], "ends_on": season_data["ends_on"]},
        )
    date = dt.date.fromisoformat(settings["date"])
    same_day = Tournament.objects.filter(host_club=host, date=date, name=settings["name"])
    if plan.existing is not None:
        same_day = same_day.exclude(pk=plan.existing.pk)
    if same_day.exists():
        raise ArchiveError(
            _(
                "%(host)s already has a tournament named %(name)s on %(date)s that did not "
                "come from this archive; rename one of them first."
            )
            % {"host": host, "name": settings["name"], "date": date.strftime("%d.%m.%Y")}
        )
    before: dict[str, tuple] = {}
    fields = {
        **{key: settings[key] for key in TOURNAMENT_SETTINGS if key in settings},
        "date": date,
        "host_club": host,
        "season": season,
        "rules_snapshot": settings["rules_snapshot"],
        "finished_at": _time(settings.get("finished_at")),
        "archive_revision": plan.revision,
        "archive_hash": plan.content_hash,
    }
    if plan.existing is None:
        tournament = Tournament(**fields, archive_id=plan.archive_id)
    else:
        tournament = plan.existing
        before = _deal_states(tournament)
        old_revision = tournament.archive_revision
        _clear(tournament)
        for key, value in fields.items():
            setattr(tournament, key, value)
    tournament.full_clean(exclude=["rules_snapshot"], validate_unique=False)
    tournament.save()

    player_of, players_created = _players_here(plan, clubs, created_club_ids=created_club_ids)
    _write_contents(data, tournament, player_of, clubs)
    who = {"user": user, "actor": actor}
    if plan.existing is None:
        changelog.record(
            tournament_id=tournament.pk,
            action=TournamentChange.Action.ARCHIVE_IMPORTED,
            subject=_("revision %(revision)s") % {"revision": plan.revision},
            after={"revision": plan.revision, "content_hash": plan.content_hash},
            **who,
        )
    else:
        changes = _changes(before, _deal_states(tournament))
        changelog.record(
            tournament_id=tournament.pk,
            action=TournamentChange.Action.ARCHIVE_REPLACED,
            subject=_(
                "revision %(old)s → %(new)s: %(added)s deals added, %(changed)s changed, "
                "%(removed)s removed"
            )
            % {
                "old": old_revision,
                "new": plan.revision,
                "added": len(changes["added"]),
                "changed": len(changes["changed"]),
                "removed": len(changes["removed"]),
            },
            before={"revision": old_revision},
            after={"revision": plan.revision, "content_hash": plan.content_hash, **changes},
            **who,
        )
    return ImportOutcome(
        tournament=tournament,
        created=plan.existing is None,
        replaced=plan.existing is not None,
        players_created=players_created,
        deals=plan.deals,
    )


def _write_contents(
    data: Mapping[str, Any],
    tournament: Tournament,
    player_of: dict[str, Player],
    clubs: dict[str, Club | None],
) -> None:
    teams = {}
    for team in _list(data, "teams", _("the archive")):
        teams[team["name"]] = Team.objects.create(
            tournament=tournament, name=team["name"], club=clubs.get(team.get("club") or "")
        )
    entries = Entry.objects.bulk_create(
        [
            Entry(
                tournament=tournament,
                player=player_of[e["player"]],
                number=e["number"],
                category=e.get("category") or "open",
                fee_paid=bool(e.get("fee_paid")),
                checked_in=bool(e.get("checked_in")),
                withdrawn_after_round=e.get("withdrawn_after_round"),
                paper_total=e.get("paper_total"),
                fill_in=bool(e.get("fill_in")),
                team=teams[e["team"]] if e.get("team") else None,
            )
            for e in _list(data, "entries", _("the archive"))
        ]
    )
    entry_of = {e.number: e for e in entries}
    for pair in _list(data, "keep_apart", _("the archive")):
        low, high = sorted((entry_of[pair["first"]], entry_of[pair["second"]]), key=lambda e: e.pk)
        KeepApart.objects.create(
            tournament=tournament, first=low, second=high, reason=pair.get("reason", "")
        )

    history: list[tuple[DealChange, dt.datetime | None]] = []
    deal_rows: list[tuple[Deal, list[dict]]] = []
    rounds: dict[int, Round] = {}
    tables: dict[tuple[int, int], Table] = {}
    for round_data in data["rounds"]:
        round_ = Round.objects.create(
            tournament=tournament,
            number=round_data["number"],
            state=round_data.get("state", Round.State.CLOSED),
            draw_seed=round_data.get("draw_seed", 0),
            time_limit_minutes=round_data.get("time_limit_minutes"),
        )
        rounds[round_.number] = round_
        for table_data in round_data["tables"]:
            table = Table.objects.create(
                round=round_,
                number=table_data["number"],
                voided=bool(table_data.get("voided")),
                void_reason=table_data.get("void_reason", ""),
            )
            tables[(round_.number, table.number)] = table
            seats = Seat.objects.bulk_create(
                [
                    Seat(table=table, round=round_, position=position, entry=entry_of[number])
                    for position, number in enumerate(table_data["seats"])
                ]
            )
            for sub in table_data.get("substitutions", []):
                Substitution.objects.create(
                    seat=seats[sub["position"]],
                    entry=entry_of[sub["entry"]],
                    from_deal=sub["from_deal"],
                    reason=sub.get("reason", ""),
                )
            for deal_data in table_data["deals"]:
                deal = Deal(
                    table=table,
                    number=deal_data["number"],
                    kind=deal_data["kind"],
                    status=deal_data["status"],
                    dealer_position=deal_data.get("dealer"),
                    entered_via=deal_data.get("entered_via", "desk"),
                    entered_by_position=deal_data.get("entered_by"),
                    version=deal_data.get("version", 1),
                    as_written=bool(deal_data.get("as_written")),
                )
                record = deal_data.get("record") or {}
                deal.contract = record.get("contract", "")
                deal.declarer_position = record.get("declarer")
                deal.declarer_points = record.get("declarer_points")
                deal.won = record.get("won")
                deal.details = {
                    k: v
                    for k, v in record.items()
                    if k in INPUT_FIELDS
                    and k not in {"contract", "declarer", "declarer_points", "won"}
                }
                deal.set_scores(deal_data["scores"])
                deal_rows.append((deal, deal_data.get("history", [])))
    created_deals = Deal.objects.bulk_create([deal for deal, _h in deal_rows], batch_size=500)
    for deal, (_deal, changes) in zip(created_deals, deal_rows, strict=True):
        for change in changes:
            history.append(
                (
                    DealChange(
                        deal=deal,
                        action=change["action"],
                        actor=(change.get("actor") or change.get("changed_by") or "")[:120],
                        reason=change.get("reason", ""),
                        before=change.get("before"),
                        after=change.get("after"),
                    ),
                    _time(change.get("changed_at")),
                )
            )
    _bulk_history(DealChange, history)
    round_history = []
    for change in data.get("round_history", []):
        round_ = rounds[change["round"]]
        round_history.append(
            (
                RoundChange(
                    round=round_,
                    table=tables[(round_.number, change["table"])] if change.get("table") else None,
                    action=change["action"],
                    reason=change.get("reason", ""),
                ),
                _time(change.get("changed_at")),
            )
        )
    _bulk_history(RoundChange, round_history)
    for draw in data.get("lot_draws", []):
        LotDraw.objects.create(
            tournament=tournament,
            purpose=draw.get("purpose", "tie_break"),
            seed=draw["seed"],
            order=[entry_of[number].pk for number in draw["order"]],
        )


def _bulk_history(model, rows: list[tuple[Any, dt.datetime | None]]) -> None:
    """Write history rows, keeping the time each change was made on the original server
    (``auto_now_add`` stamps them now; ``bulk_update`` sets the original time back)."""
    created = model.objects.bulk_create([row for row, _when in rows], batch_size=500)
    dated = []
    for row, (_row, when) in zip(created, rows, strict=True):
        if when is not None:
            row.changed_at = when
            dated.append(row)
    if dated:
        model.objects.bulk_update(dated, ["changed_at"], batch_size=500)
