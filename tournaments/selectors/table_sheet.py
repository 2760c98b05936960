"""One table's sheet for the entry pages: players, deals so far and running totals."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.db import connection, models

from clubs.models import Player
from scoring import RuleSource
from tournaments.contract_names import contract_name
from tournaments.deal_words import deal_title, penalty_of
from tournaments.models import Deal, Entry, Seat, Substitution, Table
from tournaments.rule_snapshot import rule_source_of
from tournaments.seating import dealer_position, sitting_out_position
from tournaments.selectors.plain import table_deals


@dataclass(frozen=True)
class SheetLine:
    deal: Deal
    number: int
    dealer: int
    contract_name: str
    declarer: int | None
    scores: tuple[int | None, ...]
    running: tuple[int, ...]  # running totals after this deal (counting deals only)
    counts: bool
    title: str = ""  # the contract's name, or the penalty in words (``deal_words.deal_title``)
    penalty: bool = False
    short_title: str = ""  # the sheet's column: "Strafe gegen Paul W." (points in the seats)
    offender: int | None = None  # the penalised seat position


@dataclass(frozen=True)
class SeatInfo:
    position: int
    name: str
    number: int
    substitutes: tuple[tuple[int, str], ...]  # (from deal, name)
    short_name: str = ""  # "Anna K." for narrow sheets
    entry_id: int | None = None  # the seat's entry: its row on the standings page
    last_name: str = ""  # the printed sheet heads a column with them (printing.score_sheets)
    first_name: str = ""


@dataclass(frozen=True)
class PendingLine:
    """A deal waiting for confirmation, with the players' names beside its numbers."""

    line: SheetLine
    declarer_name: str  # short name; "" for none
    points: tuple[tuple[str, Any] | None, ...]  # per seat: (name, card points entered) or None
    scores: tuple[tuple[str, int | None], ...]  # (name, score) per seat that has a score


@dataclass(frozen=True)
class TableSheet:
    table: Table
    rules: RuleSource
    seats: tuple[SeatInfo, ...]
    lines: tuple[SheetLine, ...]
    totals: tuple[int, ...]
    next_number: int | None
    deals_per_round: int

    @property
    def player_names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def seat_totals(self) -> list[tuple[SeatInfo, int]]:
        return list(zip(self.seats, self.totals, strict=True))

    @property
    def pending(self) -> list[SheetLine]:
        return [line for line in self.lines if line.deal.status == Deal.Status.PENDING]

    @property
    def pending_lines(self) -> list[PendingLine]:
        names = [(seat.position, seat.short_name or seat.name) for seat in self.seats]
        shown = []
        for line in self.pending:
            entered = line.deal.details.get("points") or () if line.deal.details else ()
            shown.append(
                PendingLine(
                    line=line,
                    declarer_name="".join(n for p, n in names if p == line.declarer),
                    points=tuple(
                        (name, entered[p]) if 0 <= p < len(entered) else None for p, name in names
                    ),
                    scores=tuple(
                        (name, line.scores[p]) for p, name in names if 0 <= p < len(line.scores)
                    ),
                )
            )
        return shown

    def sitting_out(self, number: int) -> int | None:
        return sitting_out_position(
            rules=self.rules, table_size=len(self.seats), deal_number=number
        )

    def dealer(self, number: int) -> int:
        return dealer_position(deal_number=number, table_size=len(self.seats))


def table_seating(*, table: Table) -> TableSheet:
    """The sheet without its deals (no lines, no next number): the players and the rules, all
    the deal form needs to check a posted deal. Two queries."""
    tournament = table.round.tournament
    return TableSheet(
        table=table,
        rules=rule_source_of(tournament),
        seats=_seat_infos(table),
        lines=(),
        totals=(),
        next_number=None,
        deals_per_round=tournament.deals_per_round,
    )


def _seat_infos(table: Table) -> tuple[SeatInfo, ...]:
    """Two queries, as plain rows. Plain SQL: every phone request reads these, and building
    the ORM's joined queries cost more than running them."""
    seats = [dict(zip(_SEAT_COLUMNS, row, strict=True)) for row in _rows(_seats_sql(), [table.pk])]
    substitutes: dict[int, list[tuple[int, str]]] = {}
    for seat_id, from_deal, first, last in _rows(_substitutes_sql(), [table.pk]):
        substitutes.setdefault(seat_id, []).append((from_deal, f"{first} {last}"))
    infos = []
    for seat in seats:
        first, last = seat["entry__player__first_name"], seat["entry__player__last_name"]
        infos.append(
            SeatInfo(
                position=seat["position"],
                name=f"{first} {last}",  # Player.full_name
                number=seat["entry__number"],
                entry_id=seat["entry_id"],
                short_name=f"{first} {last[:1]}.",
                last_name=last,
                first_name=first,
                substitutes=tuple(substitutes.get(seat["id"], ())),
            )
        )
    return tuple(infos)


_SEAT_COLUMNS = (
    "id",
    "position",
    "entry_id",
    "entry__number",
    "entry__player__first_name",
    "entry__player__last_name",
)


def _rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _column(model: type[models.Model], name: str) -> str:
    """A model field's column, quoted for the database in use."""
    field: Any = model._meta.get_field(name)
    return connection.ops.quote_name(str(field.column))


def _table_name(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@functools.cache
def _seats_sql() -> str:
    """A table's seats with their entries' numbers and players' names, by position (the
    query ``Seat.objects.filter(table=…).values(…)`` builds, written out once)."""
    c = _column
    return (
        f"SELECT s.{c(Seat, 'id')}, s.{c(Seat, 'position')}, s.{c(Seat, 'entry')}, "  # noqa: S608
        f"e.{c(Entry, 'number')}, p.{c(Player, 'first_name')}, p.{c(Player, 'last_name')} "
        f"FROM {_table_name(Seat)} s "
        f"INNER JOIN {_table_name(Entry)} e ON e.{c(Entry, 'id')} = s.{c(Seat, 'entry')} "
        f"INNER JOIN {_table_name(Player)} p ON p.{c(Player, 'id')} = e.{c(Entry, 'player')} "
        f"WHERE s.{c(Seat, 'table')} = %s ORDER BY s.{c(Seat, 'position')}"
    )


@functools.cache
def _substitutes_sql() -> str:
    """A table's substitutions: seat, first deal, the substitute's names; by seat and deal."""
    c, sub = _column, Substitution
    return (
        f"SELECT u.{c(sub, 'seat')}, u.{c(sub, 'from_deal')}, "  # noqa: S608
        f"p.{c(Player, 'first_name')}, p.{c(Player, 'last_name')} "
        f"FROM {_table_name(sub)} u "
        f"INNER JOIN {_table_name(Seat)} s ON s.{c(Seat, 'id')} = u.{c(sub, 'seat')} "
        f"INNER JOIN {_table_name(Entry)} e ON e.{c(Entry, 'id')} = u.{c(sub, 'entry')} "
        f"INNER JOIN {_table_name(Player)} p ON p.{c(Player, 'id')} = e.{c(Entry, 'player')} "
        f"WHERE s.{c(Seat, 'table')} = %s ORDER BY u.{c(sub, 'seat')}, u.{c(sub, 'from_deal')}"
    )


def _short_names_at(seats: tuple[SeatInfo, ...], number: int) -> list[str]:
    """Who sat in each seat at deal ``number`` (a substitute from their first deal on)."""
    names = []
    for seat in seats:
        name = seat.short_name or seat.name
        for from_deal, substitute in seat.substitutes:
            if from_deal <= number:
                name = substitute
        names.append(name)
    return names


def table_sheet(*, table: Table) -> TableSheet:
    """Three queries: seats with players and substitutes, and the deals."""
    tournament = table.round.tournament
    rules = rule_source_of(tournament)
    seat_infos = _seat_infos(table)
    size = len(seat_infos)
    running = [0] * size
    lines = []
    for deal in table_deals(table):
        scores = tuple(deal.scores[:size])
        counts = deal.status == Deal.Status.CONFIRMED and not table.voided
        if counts:
            running = [total + (score or 0) for total, score in zip(running, scores, strict=True)]
        is_deal = deal.kind == Deal.Kind.DEAL
        penalty = penalty_of(deal.details) if is_deal else None
        names = _short_names_at(seat_infos, deal.number) if penalty else []
        lines.append(
            SheetLine(
                deal=deal,
                number=deal.number,
                dealer=deal.dealer_position if deal.dealer_position is not None else 0,
                contract_name=contract_name(rules, deal.contract) if is_deal else "",
                declarer=deal.declarer_position,
                scores=scores,
                running=tuple(running),
                counts=counts,
                title=(
                    deal_title(
                        rules=rules,
                        contract=deal.contract,
                        penalty=penalty,
                        names=names,
                        scores=scores,
                    )
                    if is_deal
                    else ""
                ),
                penalty=penalty is not None,
                short_title=(
                    deal_title(
                        rules=rules,
                        contract=deal.contract,
                        penalty=penalty,
                        names=names,
                        short=True,
                    )
                    if penalty
                    else ""
                ),
                offender=penalty.get("seat") if penalty else None,
            )
        )
    taken = {line.number for line in lines}
    free = [n for n in range(1, tournament.deals_per_round + 1) if n not in taken]
    return TableSheet(
        table=table,
        rules=rules,
        seats=seat_infos,
        lines=tuple(lines),
        totals=tuple(running),
        next_number=free[0] if free else None,
        deals_per_round=tournament.deals_per_round,
    )
