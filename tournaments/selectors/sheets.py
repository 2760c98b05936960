"""Read-only data for the printouts of a round (seat plan, table cards, score sheets).

Everything comes from four queries whatever the size of the field: the round with its
tournament, its tables, their seats with players, and the substitutions with players.
The results are plain dataclasses, so templates cannot trigger further queries.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.urls import reverse

from clubs.search import name_sort_key
from scoring import RuleSource
from tournaments.models import Round, Seat, Substitution, Table, Tournament
from tournaments.rule_snapshot import rule_source_of
from tournaments.seating import dealer_position, sitting_out_position


def table_entry_path(token: str) -> str:
    """The path of a table's phone entry page (the QR code on its score sheet)."""
    return reverse("tournaments:table_entry", args=[token])


def table_short_path(short_code: str) -> str:
    """The short address a player types instead of scanning (``/t/K7M3QX``)."""
    return reverse("tournaments:table_short_code", args=[short_code])


@dataclass(frozen=True)
class SheetPlayer:
    number: int  # start number
    first_name: str
    last_name: str
    stays: bool = False  # "bleibt am Tisch": keeps one table all day

    @property
    def name(self) -> str:
        return f"{self.last_name}, {self.first_name}"


@dataclass(frozen=True)
class Occupant:
    """Who plays a seat from deal ``from_deal`` on (1 for the player drawn to it)."""

    player: SheetPlayer
    from_deal: int


@dataclass(frozen=True)
class SeatColumn:
    position: int
    occupants: tuple[Occupant, ...]

    @property
    def seat_number(self) -> int:
        return self.position + 1

    @property
    def player(self) -> SheetPlayer:
        return self.occupants[0].player

    @property
    def substitutes(self) -> tuple[Occupant, ...]:
        return self.occupants[1:]

    def player_at(self, deal_number: int) -> SheetPlayer:
        """Who plays this seat at a deal: the latest occupant from that deal or earlier."""
        current = self.occupants[0].player
        for occupant in self.occupants:
            if occupant.from_deal <= deal_number:
                current = occupant.player
        return current


@dataclass(frozen=True)
class DealCell:
    dealer: bool
    sits_out: bool
    new_occupant: bool  # a substitute takes this seat over from this deal on


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer_position: int
    dealer: SheetPlayer  # who sits in the dealer's seat at this deal
    sits_out: bool  # the dealer sits this deal out (table bigger than the active seats)
    cells: tuple[DealCell, ...]


@dataclass(frozen=True)
class TableSheet:
    number: int
    token: str
    entry_path: str
    short_code: str
    short_path: str  # typed by a player whose phone does not scan: redirects to entry_path
    voided: bool
    seats: tuple[SeatColumn, ...]
    deals: tuple[DealRow, ...]
    # The dealer sits out at this table; then he scores as a defender or nothing.
    dealer_sits_out: bool
    sitting_out_scores: str | None

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class SeatPlanLine:
    player: SheetPlayer
    table_number: int
    seat_number: int
    from_deal: int  # > 1: a substitute who takes the seat over from this deal on

    @property
    def name_length(self) -> int:
        extra = 14 if self.from_deal > 1 else 0  # "(from deal N)"
        extra += 16 if self.player.stays else 0  # "· bleibt am Tisch"
        return len(self.player.last_name) + len(self.player.first_name) + 2 + extra


@dataclass(frozen=True)
class RoundSheets:
    tournament: Tournament
    round: Round
    rules: RuleSource
    totals_only: bool
    tables: tuple[TableSheet, ...]

    @property
    def players_count(self) -> int:
        return sum(table.size for table in self.tables)

    def contract_names(self, language: str) -> tuple[str, ...]:
        """The names of the rule source's contracts, in its order: Cego's own (German) names
        in every language, as players write them on the sheet."""
        return tuple(c.names.de for c in self.rules.contracts.values())

    def seat_plan(self) -> tuple[SeatPlanLine, ...]:
        """Every player of the round with table and seat, in alphabetical order."""
        lines = [
            SeatPlanLine(
                player=occupant.player,
                table_number=table.number,
                seat_number=seat.seat_number,
                from_deal=occupant.from_deal,
            )
            for table in self.tables
            for seat in table.seats
            for occupant in seat.occupants
        ]
        lines.sort(
            key=lambda line: (
                name_sort_key(line.player.first_name, line.player.last_name),
                line.player.number,
                line.from_deal,
            )
        )
        return tuple(lines)


def _deal_rows(*, rules: RuleSource, seats: list[SeatColumn], deals: int) -> tuple[DealRow, ...]:
    size = len(seats)
    changes = {(occ.from_deal, seat.position) for seat in seats for occ in seat.substitutes}
    rows = []
    for number in range(1, deals + 1):
        dealer = dealer_position(deal_number=number, table_size=size)
        out = sitting_out_position(rules=rules, table_size=size, deal_number=number)
        rows.append(
            DealRow(
                number=number,
                dealer_position=dealer,
                dealer=seats[dealer].player_at(number),
                sits_out=out is not None,
                cells=tuple(
                    DealCell(
                        dealer=position == dealer,
                        sits_out=position == out,
                        new_occupant=(number, position) in changes,
                    )
                    for position in range(size)
                ),
            )
        )
    return tuple(rows)


def _player(entry) -> SheetPlayer:
    return SheetPlayer(
        number=entry.number,
        first_name=entry.player.first_name,
        last_name=entry.player.last_name,
        stays=entry.stays_at_table,
    )


def round_sheets(*, tournament: Tournament, round_number: int) -> RoundSheets:
    """The tables of a round as the printouts need them (404 if the round was not drawn)."""
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=round_number
    )
    substitutions = Substitution.objects.select_related("entry__player").order_by("from_deal")
    seats = Seat.objects.select_related("entry__player").prefetch_related(
        Prefetch("substitutions", queryset=substitutions)
    )
    tables = (
        Table.objects.filter(round=round_)
        .order_by("number")
        .prefetch_related(Prefetch("seats", queryset=seats.order_by("position")))
    )
    rules = rule_source_of(round_.tournament)
    totals_only = round_.tournament.entry_mode == Tournament.EntryMode.TOTALS
    sheets = []
    for table in tables:
        columns = []
        for seat in table.seats.all():
            occupants = [Occupant(player=_player(seat.entry), from_deal=1)]
            for sub in seat.substitutions.all():  # one per seat and deal, by from_deal
                if sub.from_deal == 1:  # replaced before the first deal: never played
                    occupants.pop(0)
                occupants.append(Occupant(player=_player(sub.entry), from_deal=sub.from_deal))
            columns.append(SeatColumn(position=seat.position, occupants=tuple(occupants)))
        deals = (
            ()
            if totals_only or not columns
            else _deal_rows(rules=rules, seats=columns, deals=round_.tournament.deals_per_round)
        )
        table_rule = rules.tables.get(len(columns))
        sits_out = table_rule is not None and table_rule.active < len(columns)
        sheets.append(
            TableSheet(
                number=table.number,
                token=table.token,
                entry_path=table_entry_path(table.token),
                short_code=table.short_code,
                short_path=table_short_path(table.short_code),
                voided=table.voided,
                seats=tuple(columns),
                deals=deals,
                dealer_sits_out=sits_out,
                sitting_out_scores=(
                    table_rule.sitting_out_scores if sits_out and table_rule is not None else None
                ),
            )
        )
    return RoundSheets(
        tournament=round_.tournament,
        round=round_,
        rules=rules,
        totals_only=totals_only,
        tables=tuple(sheets),
    )
