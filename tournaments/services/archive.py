"""Importing a tournament archive (``tournaments.selectors.archive`` writes them).

Everything is checked before anything is written: the file's format and version, the keys it
must have, and every deal, scored again from the archive's own rule snapshot. A deal whose
stored scores differ from the engine's is an error naming the deal. Then all is written in
one transaction. An archive whose ``archive_id`` is here already is not imported again.

Players are matched by member number (in the club named), else by first and last name in
that club (or, without a club, by name among players of no club); a player not found is
created, with the membership the archive names. Imported by a user (the web page), member
numbers are looked up and memberships created only in the clubs the user runs
(``clubs.permissions.manageable_clubs``): another club's guest is matched by name in that
club, or created without a club, as at the desk's late entry, so an archive can neither
read another club's member numbers nor give it members.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from clubs.permissions import manageable_clubs
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
)
from tournaments.selectors.archive import ARCHIVE_FORMAT, ARCHIVE_VERSION, TOURNAMENT_SETTINGS
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


class _Players:
    """Finds or creates the archive's players (and their clubs)."""

    def __init__(self, clubs: list[Mapping[str, Any]], *, user: Any = None) -> None:
        self.own = (
            None if user is None else set(manageable_clubs(user).values_list("pk", flat=True))
        )
        self.club_data = {}
        for club in clubs:
            _require(club, ("name", "short_name"), _("a club"))
            self.club_data[club["short_name"]] = club
        self.clubs: dict[str, Club] = {}
        self.created = 0

    def club(self, short_name: str | None) -> Club | None:
        if not short_name:
            return None
        if short_name not in self.clubs:
            data = self.club_data.get(short_name, {"name": short_name, "short_name": short_name})
            club = (
                Club.objects.filter(short_name=short_name).first()
                or Club.objects.filter(name=data["name"]).first()
            )
            if club is None:
                club = Club.objects.create(
                    name=data["name"], short_name=short_name, town=data.get("town", "") or "–"
                )
                if self.own is not None:
                    self.own.add(club.pk)  # new here: nobody's members to read or add to
            self.clubs[short_name] = club
        return self.clubs[short_name]

    def player(self, data: Mapping[str, Any]) -> Player:
        _require(data, ("key", "first_name", "last_name"), _("a player"))
        club = self.club(data.get("club"))
        number = (data.get("member_number") or "").strip()
        runs_club = club is not None and (self.own is None or club.pk in self.own)
        if runs_club and number:
            membership = (
                Membership.objects.filter(club=club, member_number=number)
                .select_related("player")
                .first()
            )
            if membership is not None:
                return membership.player
        same_name = Player.objects.filter(
            first_name__iexact=data["first_name"].strip(),
            last_name__iexact=data["last_name"].strip(),
        )
        same_name = (
            same_name.filter(memberships__club=club)
            if club is not None
            else same_name.filter(memberships__isnull=True)
        )
        found = list(same_name.distinct()[:2])
        if len(found) > 1:
            raise ArchiveError(
                _("%(name)s matches more than one player here; merge them first.")
                % {"name": f"{data['first_name']} {data['last_name']}"}
            )
        if found:
            return found[0]
        player = Player.objects.create(
            first_name=data["first_name"].strip(),
            last_name=data["last_name"].strip(),
            birth_year=data.get("birth_year"),
            category=data.get("category") or "open",
        )
        if runs_club:
            taken = number and Membership.objects.filter(club=club, member_number=number).exists()
            Membership.objects.create(
                player=player, club=club, member_number="" if taken else number
            )
        self.created += 1
        return player


def _time(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if isinstance(value, str) else None


@transaction.atomic
def import_tournament_archive(
    *, data: Mapping[str, Any], user: AbstractBaseUser | None = None
) -> ImportOutcome:
    """Import a parsed archive (``parse_archive``); raises ArchiveError, writing nothing."""
    try:
        archive_id = uuid.UUID(str(data["archive_id"]))
    except (KeyError, ValueError) as error:
        raise ArchiveError(_("The archive id is not valid.")) from error
    existing = Tournament.objects.filter(archive_id=archive_id).first()
    if existing is not None:
        return ImportOutcome(tournament=existing, created=False)
    deals_checked = check_deals(data)
    try:
        with transaction.atomic():
            return _write(data, archive_id=archive_id, deals=deals_checked, user=user)
    except KeyError as error:
        raise ArchiveError(
            _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
            % {"key": error.args[0] if error.args else "?"}
        ) from error
    except (TypeError, ValueError, IntegrityError) as error:
        raise ArchiveError(
            _("The archive is inconsistent and was not imported: %(error)s") % {"error": error}
        ) from error


def _write(
    data: Mapping[str, Any], *, archive_id: uuid.UUID, deals: int, user: Any = None
) -> ImportOutcome:
    settings = data["tournament"]
    _require(
        settings, ("name", "date", "host_club", "rules_slug", "rules_snapshot"), _("the tournament")
    )
    players = _Players(_list(data, "clubs", _("the archive")), user=user)
    host = players.club(settings["host_club"])
    season = None
    if settings.get("season"):
        season_data = settings["season"]
        season, _created = Season.objects.get_or_create(
            name=season_data["name"],
            defaults={"starts_on": season_data["starts_on"], "ends_on": season_data["ends_on"]},
        )
    date = dt.date.fromisoformat(settings["date"])
    if Tournament.objects.filter(host_club=host, date=date, name=settings["name"]).exists():
        raise ArchiveError(
            _(
                "%(host)s already has a tournament named %(name)s on %(date)s that did not "
                "come from this archive; rename one of them first."
            )
            % {"host": host, "name": settings["name"], "date": date.strftime("%d.%m.%Y")}
        )
    tournament = Tournament(
        **{key: settings[key] for key in TOURNAMENT_SETTINGS if key in settings},
        date=date,
        host_club=host,
        season=season,
        rules_snapshot=settings["rules_snapshot"],
        archive_id=archive_id,
        finished_at=_time(settings.get("finished_at")),
    )
    tournament.full_clean(exclude=["rules_snapshot"])
    tournament.save()

    player_of = {p["key"]: players.player(p) for p in _list(data, "players", _("the archive"))}
    teams = {}
    for team in _list(data, "teams", _("the archive")):
        teams[team["name"]] = Team.objects.create(
            tournament=tournament, name=team["name"], club=players.club(team.get("club"))
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
    return ImportOutcome(
        tournament=tournament, created=True, players_created=players.created, deals=deals
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
