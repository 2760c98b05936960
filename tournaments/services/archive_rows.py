"""The rows of an archive's items written here (part of the write: ``archive_write``).

Upserts by natural key (a team by name, an entry by start number, a round by number, a
table by round and number, a deal by table and number, a keep-apart pair by its start
numbers, a draw by lot by its place), deletes in reverse order of dependence. A deal's
history rows are replaced by the item's (with their original times), a round's history
likewise, a table's seats and substitutions likewise: writing the same items twice changes
nothing. The digests kept (``ArchiveItem``). In the caller's transaction, with the
tournament row locked.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from ceremony.models import CeremonySettings
from clubs.models import Club, Membership, Player
from clubs.services.imports import NEW, NO_CLUB, Plan, PlanRow
from clubs.services.imports import _apply_club_choices as apply_club_choices
from seasons.models import Season, SeriesMembership
from tournaments.archive_format import ArchiveError, kind_of
from tournaments.models import (
    ArchiveItem,
    Deal,
    DealChange,
    Entry,
    KeepApart,
    LotDraw,
    Round,
    RoundChange,
    Ruling,
    Seat,
    SeatSwap,
    Substitution,
    Table,
    Team,
    Tournament,
)
from tournaments.selectors.archive import (
    TOURNAMENT_SETTINGS,
    ceremony_record,
    fairness_records,
    series_record,
)
from tournaments.services.archive_plan import ArchivePlan
from tournaments.services.archive_players import ArchiveClubs
from tournaments.services.results_common import INPUT_FIELDS

# Items whose content the server keeps (the others: the digest only).
_KEPT = ("tournament", "club")

_RECORD_COLUMNS = ("contract", "declarer", "declarer_points", "won")
_DEAL_FIELDS = [
    "kind",
    "status",
    "dealer_position",
    "entered_via",
    "entered_by_position",
    "version",
    "as_written",
    "contract",
    "declarer_position",
    "declarer_points",
    "won",
    "details",
    "score_0",
    "score_1",
    "score_2",
    "score_3",
    "score_4",
]


def _time(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if isinstance(value, str) else None


def _by_kind(keys: Iterable[str], kind: str) -> list[str]:
    return [key for key in keys if kind_of(key) == kind]


def _numbers(key: str) -> tuple[int, ...]:
    """``deal:r1-t2-d3`` -> (1, 2, 3); ``entry:7`` -> (7,); ``keep_apart:1-2`` -> (1, 2)."""
    tail = key.split(":", 1)[1]
    return tuple(int(part.lstrip("rtd")) for part in tail.split("-"))


@dataclass
class _Here:
    """The rows of the tournament the writer has looked up, each kind once."""

    tournament: Tournament
    _entries: dict[int, Entry] | None = None
    _rounds: dict[int, Round] | None = None

    def entries(self) -> dict[int, Entry]:
        if self._entries is None:
            self._entries = {
                e.number: e for e in Entry.objects.filter(tournament=self.tournament).order_by()
            }
        return self._entries

    def entry(self, number: Any) -> Entry:
        return self.entries()[number]

    def rounds(self) -> dict[int, Round]:
        if self._rounds is None:
            self._rounds = {
                r.number: r for r in Round.objects.filter(tournament=self.tournament).order_by()
            }
        return self._rounds

    def tables(self, pairs: Iterable[tuple[int, ...]]) -> dict[tuple[int, ...], Table]:
        pairs = set(pairs)
        if not pairs:
            return {}
        rows = Table.objects.filter(
            round__tournament=self.tournament,
            round__number__in={r for r, _t in pairs},
            number__in={t for _r, t in pairs},
        ).select_related("round")
        return {(t.round.number, t.number): t for t in rows if (t.round.number, t.number) in pairs}


# Clubs and players.


def _clubs_here(
    plan: ArchivePlan, *, user: AbstractBaseUser | None
) -> tuple[dict[str, Club | None], frozenset[int]]:
    """The archive's clubs, after the choices for unknown ones are applied, and the ids of
    the clubs created for it."""
    rows = [PlanRow(line=0, status=NEW, club_key=unknown.key) for unknown in plan.unknown_clubs]
    created_ids, _remembered = apply_club_choices(
        Plan(rows=rows, columns=(), unknown_columns=(), unknown_clubs=plan.unknown_clubs),
        user=user,
    )
    clubs = ArchiveClubs(plan.clubs, None)
    found = {short_name: clubs.club(short_name) for short_name in plan.clubs}
    for unknown in plan.unknown_clubs:  # "no club": its players enter without a club
        if unknown.choice is not None and unknown.choice.action == NO_CLUB:
            for short_name, key in clubs.key_of.items():
                if key == unknown.key:
                    found[short_name] = None
    return found, created_ids


def _new_player(row, clubs: dict[str, Club | None], taken_ids: set, plan, created_club_ids):
    """A new record: a membership in the archive's club where the importer runs it; else
    that club shown as the player's without one (``Player.guest_club``), or an unknown
    club's name as the archive gives it (``guest_club_name``, until the club is created or
    its spelling mapped here: ``clubs.services.players.place_named_guests``)."""
    data = row.data
    player = Player(
        first_name=row.first_name,
        last_name=row.last_name,
        birth_year=data.get("birth_year"),
        category=data.get("category") or "open",
    )
    registry_id = str(data.get("uuid") or "")
    if _is_uuid(registry_id) and registry_id not in taken_ids:
        player.uuid = registry_id
        taken_ids.add(registry_id)
    club = clubs.get(row.club_name)
    runs_club = club is not None and (
        plan.own_club_ids is None or club.pk in plan.own_club_ids or club.pk in created_club_ids
    )
    if club is not None and not runs_club:
        player.guest_club = club
    elif club is None and row.club_name:
        named = plan.clubs.get(row.club_name, {}).get("name") or row.club_name
        player.guest_club_name = str(named).strip()[:120]
    player.save()
    if runs_club and club is not None:
        number = str(data.get("member_number") or "").strip()
        taken = number and Membership.objects.filter(club=club, member_number=number).exists()
        Membership.objects.create(player=player, club=club, member_number="" if taken else number)
    return player


def _players_here(
    plan: ArchivePlan, clubs: dict[str, Club | None], *, created_club_ids: frozenset[int]
) -> tuple[dict[str, Player], int]:
    """The players of the entries to write as records here: matched, chosen, or created
    (with the archive's registry id where it is free, so that its next revision finds
    them)."""
    wanted = [str(row.data.get("uuid")) for row in plan.players if row.player is None]
    taken_ids = {
        str(u)
        for u in Player.objects.filter(uuid__in=[u for u in wanted if _is_uuid(u)]).values_list(
            "uuid", flat=True
        )
    }
    player_of: dict[str, Player] = {}
    created = 0
    for row in plan.players:
        if row.player is None:
            row.player = _new_player(row, clubs, taken_ids, plan, created_club_ids)
            created += 1
        player_of[row.key] = row.player
    return player_of, created


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


# The tournament row.


def _tournament_fields(
    plan: ArchivePlan, clubs: dict[str, Club | None], season: Season | None
) -> dict[str, Any]:
    settings = plan.settings
    host = clubs.get(settings["host_club"])
    if host is None:
        raise ArchiveError(_("The archive's host club must be a club here."))
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
    return {
        **{key: settings[key] for key in TOURNAMENT_SETTINGS if key in settings},
        "date": date,
        "host_club": host,
        "season": season,
        "rules_snapshot": settings["rules_snapshot"],
        "finished_at": _time(settings.get("finished_at")),
    }


def _write_tournament(
    plan: ArchivePlan, upserts: Mapping[str, Mapping[str, Any]], clubs, *, season
) -> Tournament:
    """The new tournament, or the copy with its settings as the tournament item says (saved
    without a revision bump: the apply bumps once, at its end)."""
    if plan.existing is None:
        fields = _tournament_fields(plan, clubs, season)
        tournament = Tournament(**fields, archive_id=plan.archive_id)
        tournament.full_clean(exclude=["rules_snapshot"], validate_unique=False)
        tournament.save()
        return tournament
    tournament = plan.existing
    if "tournament" in upserts:
        fields = _tournament_fields(plan, clubs, season or tournament.season)
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.full_clean(exclude=["rules_snapshot"], validate_unique=False)
        Tournament.objects.filter(pk=tournament.pk).update(**fields)
    return tournament


# Deletes (reverse order of dependence).


def _delete_deals(deals) -> None:
    DealChange.objects.filter(deal__in=deals).delete()
    Deal.objects.filter(pk__in=deals).delete()


def _delete_tables(tables) -> None:
    _delete_deals(Deal.objects.filter(table__in=tables).values("pk"))
    Substitution.objects.filter(seat__table__in=tables).delete()
    Seat.objects.filter(table__in=tables).delete()
    RoundChange.objects.filter(table__in=tables).delete()
    Table.objects.filter(pk__in=tables).delete()


def _delete_early(here: _Here, deletes: list[str]) -> None:
    """Deals, tables, rounds, draws by lot and keep-apart pairs: before the upserts."""
    tournament = here.tournament
    deals = [_numbers(key) for key in _by_kind(deletes, "deal")]
    if deals:
        tables = here.tables((r, t) for r, t, _d in deals)
        ids = [
            d.pk
            for d in Deal.objects.filter(
                table__in=tables.values(), number__in={d for *_x, d in deals}
            ).select_related("table__round")
            if (d.table.round.number, d.table.number, d.number) in set(deals)
        ]
        _delete_deals(ids)
    tables = here.tables(_numbers(key) for key in _by_kind(deletes, "table"))
    if tables:
        _delete_tables([t.pk for t in tables.values()])
    rounds = [
        here.rounds()[n] for (n,) in map(_numbers, _by_kind(deletes, "round")) if n in here.rounds()
    ]
    if rounds:
        _delete_tables(Table.objects.filter(round__in=rounds).values("pk"))
        RoundChange.objects.filter(round__in=rounds).delete()
        Round.objects.filter(pk__in=[r.pk for r in rounds]).delete()
        here._rounds = None
    lots = _by_kind(deletes, "lot")
    if lots:
        draws = list(LotDraw.objects.filter(tournament=tournament).order_by("performed_at", "pk"))
        doomed = [draws[n - 1].pk for (n,) in map(_numbers, lots) if 0 < n <= len(draws)]
        LotDraw.objects.filter(pk__in=doomed).delete()
    pairs = [_numbers(key) for key in _by_kind(deletes, "keep_apart")]
    if pairs:
        entries = here.entries()
        for first, second in pairs:
            pair_ids = (
                {entries[first].pk, entries[second].pk}
                if {first, second} <= entries.keys()
                else set()
            )
            KeepApart.objects.filter(
                tournament=tournament, first__in=pair_ids, second__in=pair_ids
            ).delete()


def _delete_late(here: _Here, deletes: list[str]) -> None:
    """Entries and teams: after the tables that seated them were written."""
    numbers = [n for (n,) in map(_numbers, _by_kind(deletes, "entry"))]
    if numbers:
        Entry.objects.filter(tournament=here.tournament, number__in=numbers).delete()
        here._entries = None
    names = [key.split(":", 1)[1] for key in _by_kind(deletes, "team")]
    if names:
        Team.objects.filter(tournament=here.tournament, name__in=names).delete()


# Upserts (in order of dependence).


def _write_teams(here: _Here, items: list[Mapping[str, Any]], clubs) -> dict[str, Team]:
    teams = {t.name: t for t in Team.objects.filter(tournament=here.tournament)}
    for item in items:
        club = clubs.get(item.get("club") or "")
        team = teams.get(item["name"])
        if team is None:
            teams[item["name"]] = Team.objects.create(
                tournament=here.tournament, name=item["name"], club=club
            )
        elif team.club_id != (club.pk if club else None):
            team.club = club
            team.save(update_fields=["club"])
    return teams


def _write_entries(
    here: _Here, items: list[Mapping[str, Any]], player_of: dict[str, Player], clubs
) -> None:
    if not items:
        return
    teams = (
        {t.name: t for t in Team.objects.filter(tournament=here.tournament)}
        if any(item.get("team") for item in items)
        else {}
    )
    entries = here.entries()
    new: list[Entry] = []
    changed: list[Entry] = []
    for item in items:
        entry = entries.get(item["number"]) or Entry(
            tournament=here.tournament, number=item["number"]
        )
        entry.player = player_of[item["player"]["key"]]
        entry.category = item.get("category") or "open"
        entry.fee_paid = bool(item.get("fee_paid"))
        entry.checked_in = bool(item.get("checked_in"))
        entry.withdrawn_after_round = item.get("withdrawn_after_round")
        entry.paper_total = item.get("paper_total")
        entry.fill_in = bool(item.get("fill_in"))
        entry.team = teams[item["team"]] if item.get("team") else None
        (changed if entry.pk else new).append(entry)
    Entry.objects.bulk_create(new)
    Entry.objects.bulk_update(
        changed,
        [
            "player",
            "category",
            "fee_paid",
            "checked_in",
            "withdrawn_after_round",
            "paper_total",
            "fill_in",
            "team",
        ],
    )
    here._entries = None


def _write_keep_apart(here: _Here, items: list[Mapping[str, Any]]) -> None:
    for item in items:
        low, high = sorted(
            (here.entry(item["first"]), here.entry(item["second"])), key=lambda e: e.pk
        )
        KeepApart.objects.update_or_create(
            tournament=here.tournament,
            first=low,
            second=high,
            defaults={"reason": item.get("reason", "")},
        )


def _write_lots(here: _Here, items: list[tuple[int, Mapping[str, Any]]]) -> None:
    if not items:
        return
    draws = list(LotDraw.objects.filter(tournament=here.tournament).order_by("performed_at", "pk"))
    for place, item in sorted(items):
        order = [here.entry(number).pk for number in item["order"]]
        if place <= len(draws):
            draw = draws[place - 1]
            draw.purpose, draw.seed, draw.order = (
                item.get("purpose", "tie_break"),
                item["seed"],
                order,
            )
            draw.save(update_fields=["purpose", "seed", "order"])
        else:
            draws.append(
                LotDraw.objects.create(
                    tournament=here.tournament,
                    purpose=item.get("purpose", "tie_break"),
                    seed=item["seed"],
                    order=order,
                )
            )


def _write_rounds(here: _Here, items: list[Mapping[str, Any]]) -> None:
    rounds = here.rounds()
    for item in items:
        round_ = rounds.get(item["number"]) or Round(
            tournament=here.tournament, number=item["number"]
        )
        round_.state = item.get("state", Round.State.CLOSED)
        round_.draw_seed = item.get("draw_seed", 0)
        round_.time_limit_minutes = item.get("time_limit_minutes")
        round_.awaiting_release = bool(item.get("awaiting_release"))
        round_.save()
        rounds[round_.number] = round_


def _write_tables(here: _Here, items: list[Mapping[str, Any]]) -> None:
    """Tables with their seats and substitutions (the old seats of every table written go
    first, so that players who change tables within a round never meet themselves)."""
    if not items:
        return
    rounds = here.rounds()
    tables = here.tables((item["round"], item["number"]) for item in items)
    for item in items:
        table = tables.get((item["round"], item["number"]))
        if table is None:
            table = Table(round=rounds[item["round"]], number=item["number"])
            tables[(item["round"], item["number"])] = table
        table.voided = bool(item.get("voided"))
        table.void_reason = item.get("void_reason", "")
        table.save()
    written = [tables[(item["round"], item["number"])] for item in items]
    Substitution.objects.filter(seat__table__in=written).delete()
    Seat.objects.filter(table__in=written).delete()
    seats = Seat.objects.bulk_create(
        [
            Seat(table=table, round=table.round, position=position, entry=here.entry(number))
            for table, item in zip(written, items, strict=True)
            for position, number in enumerate(item["seats"])
        ]
    )
    seat_of = {(seat.table_id, seat.position): seat for seat in seats}
    Substitution.objects.bulk_create(
        [
            Substitution(
                seat=seat_of[(table.pk, sub["position"])],
                entry=here.entry(sub["entry"]),
                from_deal=sub["from_deal"],
                reason=sub.get("reason", ""),
            )
            for table, item in zip(written, items, strict=True)
            for sub in item.get("substitutions", [])
        ]
    )


def _fill_deal(deal: Deal, item: Mapping[str, Any]) -> None:
    deal.kind = item["kind"]
    deal.status = item["status"]
    deal.dealer_position = item.get("dealer")
    deal.entered_via = item.get("entered_via", "desk")
    deal.entered_by_position = item.get("entered_by")
    deal.version = item.get("version", 1)
    deal.as_written = bool(item.get("as_written"))
    record = item.get("record") or {}
    deal.contract = record.get("contract", "")
    deal.declarer_position = record.get("declarer")
    deal.declarer_points = record.get("declarer_points")
    deal.won = record.get("won")
    deal.details = {
        k: v for k, v in record.items() if k in INPUT_FIELDS and k not in _RECORD_COLUMNS
    }
    deal.set_scores(item["scores"])


def _write_deals(here: _Here, items: list[Mapping[str, Any]]) -> None:
    """Deals by table and number, each with its history replaced by the item's."""
    if not items:
        return
    tables = here.tables((item["round"], item["table"]) for item in items)
    existing = {
        (d.table_id, d.number): d
        for d in Deal.objects.filter(
            table__in=list(tables.values()), number__in={item["number"] for item in items}
        )
    }
    new: list[Deal] = []
    changed: list[Deal] = []
    for item in items:
        table = tables[(item["round"], item["table"])]
        deal = existing.get((table.pk, item["number"])) or Deal(table=table, number=item["number"])
        _fill_deal(deal, item)
        (changed if deal.pk else new).append(deal)
    if changed:
        DealChange.objects.filter(deal__in=changed).delete()
        Deal.objects.bulk_update(changed, _DEAL_FIELDS, batch_size=500)
    Deal.objects.bulk_create(new, batch_size=500)
    deal_of = {(d.table_id, d.number): d for d in [*new, *changed]}
    history = [
        (
            DealChange(
                deal=deal_of[(tables[(item["round"], item["table"])].pk, item["number"])],
                action=change["action"],
                actor=(change.get("actor") or change.get("changed_by") or "")[:120],
                reason=change.get("reason", ""),
                before=change.get("before"),
                after=change.get("after"),
            ),
            _time(change.get("changed_at")),
        )
        for item in items
        for change in item.get("history") or []
    ]
    _bulk_history(DealChange, history)


def _write_round_history(here: _Here, items: list[Mapping[str, Any]]) -> None:
    """Each written round's history, replaced by the item's (after its tables exist)."""
    if not items:
        return
    rounds = here.rounds()
    written = [rounds[item["number"]] for item in items]
    RoundChange.objects.filter(round__in=written).delete()
    tables = here.tables(
        (item["number"], change["table"])
        for item in items
        for change in item.get("history") or []
        if change.get("table")
    )
    _bulk_history(
        RoundChange,
        [
            (
                RoundChange(
                    round=rounds[item["number"]],
                    table=tables[(item["number"], change["table"])]
                    if change.get("table")
                    else None,
                    action=change["action"],
                    reason=change.get("reason", ""),
                ),
                _time(change.get("changed_at")),
            )
            for item in items
            for change in item.get("history") or []
        ],
    )


def _write_ceremony(here: _Here, settings: Mapping[str, Any]) -> None:
    """The places hidden until the prize ceremony as the tournament item says: a copy hides
    what the hall hides, and shows them once the hall revealed them (the revision bumped
    below makes every cached public page of the copy new)."""
    wanted = settings.get("ceremony") or {}
    tournament = here.tournament
    if ceremony_record(tournament).get("ceremony", {}) == wanted:
        return
    CeremonySettings.objects.update_or_create(
        tournament=tournament,
        defaults={
            "hide_from_round": wanted.get("hide_from_round"),
            "hide_top_n": wanted.get("hide_top_n"),
            "revealed_at": _time(wanted.get("revealed_at")),
            "revealed_by": None,
            "shown_steps": 0,
        },
    )


def _write_series(here: _Here, settings: Mapping[str, Any]) -> None:
    """The other series the tournament also counts for as the tournament item says (issue
    41), each season found by name here (created with the item's dates where missing, as
    the home season is). An item without the key (an older archive, or one of a tournament
    that counts for no other series) leaves them as they are; the home season is never
    listed again."""
    wanted = settings.get("series")
    if not wanted:
        return
    tournament = here.tournament
    if series_record(tournament).get("series") == wanted:
        return
    seasons = []
    for named in wanted:
        season, _created = Season.objects.get_or_create(
            name=named["name"],
            defaults={"starts_on": named["starts_on"], "ends_on": named["ends_on"]},
        )
        if season.pk != tournament.season_id:
            seasons.append(season)
    SeriesMembership.objects.filter(tournament=tournament).exclude(season__in=seasons).delete()
    have = set(
        SeriesMembership.objects.filter(tournament=tournament).values_list("season_id", flat=True)
    )
    SeriesMembership.objects.bulk_create(
        SeriesMembership(tournament=tournament, season=season)
        for season in seasons
        if season.pk not in have
    )


def _write_fairness(here: _Here, settings: Mapping[str, Any]) -> None:
    """The final rulings and approved seat swaps as the tournament item says (after the
    entries and rounds they name, and after the deletes). Left alone where they are as
    stored; else the stored final rulings and approved swaps are replaced by the item's
    (pending rulings and waiting swaps are the hall's own business and stay). A name the
    archive does not contain is an ArchiveError: nothing is written."""
    tournament = here.tournament
    number_of = {entry.pk: number for number, entry in here.entries().items()}
    wanted = {key: list(settings.get(key) or []) for key in ("rulings", "seat_swaps")}
    stored = fairness_records(tournament, number_of=number_of)
    if all(wanted[key] == stored.get(key, []) for key in wanted):
        return
    Ruling.objects.filter(tournament=tournament, decided_at__isnull=False).delete()
    SeatSwap.objects.filter(tournament=tournament, state=SeatSwap.State.APPROVED).delete()

    def missing(key: str) -> ArchiveError:
        return ArchiveError(
            _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
            % {"key": key}
        )

    now = timezone.now()  # for a time the archive does not give
    rulings = []
    for item in wanted["rulings"]:
        referees = [str(name)[:150] for name in item["referees"] if name][:2]
        if not referees:
            raise missing(_("the referee of a ruling"))
        decided_at = _time(item.get("decided_at")) or _time(item.get("ruled_at")) or now
        rulings.append(
            Ruling(
                tournament=tournament,
                round_number=item.get("round"),
                table_number=item.get("table"),
                deal_number=item.get("deal"),
                conduct=bool(item.get("conduct")),
                decision=item["decision"],
                penalty=item.get("penalty") or "",
                needs_two=len(referees) > 1,
                first_at=_time(item.get("ruled_at")) or decided_at,
                first_name=referees[0],
                second_name=referees[1] if len(referees) > 1 else "",
                second_at=decided_at if len(referees) > 1 else None,
                decided_at=decided_at,
            )
        )
    rounds, entries = here.rounds(), here.entries()
    swaps = []
    for item in wanted["seat_swaps"]:
        round_ = rounds.get(item["round"])
        if round_ is None:
            raise missing(_("round %(round)s") % {"round": item["round"]})
        for number in (item["first"], item["second"]):
            if number not in entries:
                raise missing(_("start number %(n)s") % {"n": number})
        swaps.append(
            SeatSwap(
                tournament=tournament,
                round=round_,
                first=entries[item["first"]],
                second=entries[item["second"]],
                first_table=item["first_table"],
                first_position=item["first_position"],
                second_table=item["second_table"],
                second_position=item["second_position"],
                reason=item["reason"],
                state=SeatSwap.State.APPROVED,
                requested_at=_time(item.get("requested_at"))
                or _time(item.get("approved_at"))
                or now,
                requested_name=item["requested_by"][:150],
                decided_at=_time(item.get("approved_at")) or _time(item.get("requested_at")) or now,
                decided_name=item["approved_by"][:150],
            )
        )
    for row in rulings + swaps:
        row.full_clean(exclude=["tournament", "round", "first", "second"], validate_unique=False)
    Ruling.objects.bulk_create(rulings)
    SeatSwap.objects.bulk_create(swaps)


def _bulk_history(model, rows: list[tuple[Any, dt.datetime | None]]) -> None:
    """Write history rows, keeping the time each change was made on the original server
    (now, where the archive gives none)."""
    if not rows:
        return
    for row, when in rows:
        if when is not None:
            row.changed_at = when
    model.objects.bulk_create([row for row, _when in rows], batch_size=500)


# The digests kept.


def keep_digests(
    *, tournament: Tournament, plan: ArchivePlan, upserts: Mapping[str, Any], deletes: list[str]
) -> None:
    def content(key: str) -> Any:
        if kind_of(key) not in _KEPT:
            return None
        if key in upserts:
            return dict(upserts[key])
        return dict(plan.settings) if key == "tournament" else dict(plan.clubs.get(key[5:], {}))

    if plan.existing is None or plan.backfill:
        ArchiveItem.objects.filter(tournament=tournament).delete()
        keys = list(plan.digests)
    else:
        ArchiveItem.objects.filter(tournament=tournament, key__in=[*upserts, *deletes]).delete()
        keys = list(upserts)
    ArchiveItem.objects.bulk_create(
        [
            ArchiveItem(tournament=tournament, key=key, digest=plan.digests[key], data=content(key))
            for key in keys
        ],
        batch_size=1000,
    )


def _needs_clubs(plan: ArchivePlan, upserts: Mapping[str, Any]) -> bool:
    return plan.existing is None or any(
        kind_of(key) in ("tournament", "entry", "team") for key in upserts
    )


def write_items(
    *,
    plan: ArchivePlan,
    upserts: Mapping[str, Mapping[str, Any]],
    deletes: list[str],
    user: AbstractBaseUser | None,
) -> tuple[Tournament, int]:
    """Write the rows of ``upserts`` and ``deletes`` (the tournament's row first); the
    tournament and the number of players created."""
    clubs, created_club_ids = (
        _clubs_here(plan, user=user) if _needs_clubs(plan, upserts) else ({}, frozenset())
    )
    tournament = _write_tournament(plan, upserts, clubs, season=plan.season)
    here = _Here(tournament=tournament)
    _delete_early(here, deletes)
    player_of, players_created = _players_here(plan, clubs, created_club_ids=created_club_ids)

    def of(kind: str) -> list[Mapping[str, Any]]:
        return [item for key, item in upserts.items() if kind_of(key) == kind]

    _write_teams(here, of("team"), clubs) if of("team") else None
    _write_entries(here, of("entry"), player_of, clubs)
    _write_keep_apart(here, of("keep_apart"))
    _write_lots(here, [(_numbers(k)[0], i) for k, i in upserts.items() if kind_of(k) == "lot"])
    _write_rounds(here, of("round"))
    _write_tables(here, of("table"))
    _write_deals(here, of("deal"))
    _write_round_history(here, of("round"))
    _delete_late(here, deletes)
    if "tournament" in upserts:
        _write_fairness(here, upserts["tournament"])
        _write_ceremony(here, upserts["tournament"])
        _write_series(here, upserts["tournament"])
    return tournament, players_created
