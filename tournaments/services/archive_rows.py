"""The rows of an archive's items written here (part of the write: ``archive_write``).

Upserts by natural key (a team by name, an entry by start number, a round by number, a
table by round and number, a deal by table and number, a keep-apart pair by its start
numbers, a draw by lot by its place), deletes in reverse order of dependence. A deal's
history rows are replaced by the item's (with their original times), a round's history
likewise, a table's seats and substitutions likewise: writing the same items twice changes
nothing. The digests kept (``ArchiveItem``). In the caller's transaction, with the
tournament row locked.

The clubs and players the entries need: ``archive_records``; the tournament item's rows (the
tournament row, the ceremony, rulings and seat swaps) and ``Here``: ``archive_tournament_rows``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from clubs.models import Player
from tournaments.archive_format import kind_of
from tournaments.models import (
    ArchiveItem,
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
from tournaments.services.archive_plan import ArchivePlan
from tournaments.services.archive_records import clubs_here, players_here
from tournaments.services.archive_tournament_rows import (
    Here,
    archive_time,
    write_ceremony,
    write_fairness,
    write_series,
    write_tournament,
)
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


def _by_kind(keys: Iterable[str], kind: str) -> list[str]:
    return [key for key in keys if kind_of(key) == kind]


def _numbers(key: str) -> tuple[int, ...]:
    """``deal:r1-t2-d3`` -> (1, 2, 3); ``entry:7`` -> (7,); ``keep_apart:1-2`` -> (1, 2)."""
    tail = key.split(":", 1)[1]
    return tuple(int(part.lstrip("rtd")) for part in tail.split("-"))


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


def _delete_early(here: Here, deletes: list[str]) -> None:
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


def _delete_late(here: Here, deletes: list[str]) -> None:
    """Entries and teams: after the tables that seated them were written."""
    numbers = [n for (n,) in map(_numbers, _by_kind(deletes, "entry"))]
    if numbers:
        Entry.objects.filter(tournament=here.tournament, number__in=numbers).delete()
        here._entries = None
    names = [key.split(":", 1)[1] for key in _by_kind(deletes, "team")]
    if names:
        Team.objects.filter(tournament=here.tournament, name__in=names).delete()


# Upserts (in order of dependence).


def _write_teams(here: Here, items: list[Mapping[str, Any]], clubs) -> dict[str, Team]:
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
    here: Here, items: list[Mapping[str, Any]], player_of: dict[str, Player], clubs
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


def _write_keep_apart(here: Here, items: list[Mapping[str, Any]]) -> None:
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


def _write_lots(here: Here, items: list[tuple[int, Mapping[str, Any]]]) -> None:
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


def _write_rounds(here: Here, items: list[Mapping[str, Any]]) -> None:
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


def _write_tables(here: Here, items: list[Mapping[str, Any]]) -> None:
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


def _write_deals(here: Here, items: list[Mapping[str, Any]]) -> None:
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
            archive_time(change.get("changed_at")),
        )
        for item in items
        for change in item.get("history") or []
    ]
    _bulk_history(DealChange, history)


def _write_round_history(here: Here, items: list[Mapping[str, Any]]) -> None:
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
                archive_time(change.get("changed_at")),
            )
            for item in items
            for change in item.get("history") or []
        ],
    )


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
        clubs_here(plan=plan, user=user) if _needs_clubs(plan, upserts) else ({}, frozenset())
    )
    tournament = write_tournament(plan=plan, upserts=upserts, clubs=clubs, season=plan.season)
    here = Here(tournament=tournament)
    _delete_early(here, deletes)
    player_of, players_created = players_here(
        plan=plan, clubs=clubs, created_club_ids=created_club_ids
    )

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
        write_fairness(here=here, settings=upserts["tournament"])
        write_ceremony(here=here, settings=upserts["tournament"])
        write_series(here=here, settings=upserts["tournament"])
    return tournament, players_created
