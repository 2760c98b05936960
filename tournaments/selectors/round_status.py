"""Where a round stands: per table, deals counted, deals waiting for confirmation, and whether
the table is finished. Two queries whatever the number of tables."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from django.utils import timezone

from tournaments.models import Deal, Round, Table, Tournament


@dataclass(frozen=True)
class TableStatus:
    table_id: int
    number: int
    voided: bool
    confirmed: int  # confirmed or annulled: finished business
    pending: int
    expected: int
    totals: bool  # entered as round totals
    # the deals waiting for confirmation: (deal id, deal number), by number
    pending_deals: tuple[tuple[int, int], ...] = ()

    @property
    def done(self) -> int:
        return self.expected if self.totals and self.confirmed else self.confirmed

    @property
    def is_open(self) -> bool:
        """Still missing deals, or with deals nobody confirmed yet (a voided table is not)."""
        if self.voided:
            return False
        return self.pending > 0 or self.done < self.expected


@dataclass(frozen=True)
class RoundStatus:
    round: Round
    tables: tuple[TableStatus, ...]

    @property
    def open_tables(self) -> tuple[TableStatus, ...]:
        return tuple(t for t in self.tables if t.is_open)

    @property
    def pending(self) -> int:
        return sum(t.pending for t in self.tables if not t.voided)

    @property
    def time_is_up(self) -> bool:
        ends_at = self.round.ends_at
        return ends_at is not None and ends_at <= timezone.now()


def round_status(*, round: Round) -> RoundStatus:  # noqa: A002
    tournament = round.tournament
    statuses = _statuses(tournament, Deal.objects.filter(table__round=round))
    tables = tuple(
        statuses(table_id, number, voided)
        for table_id, number, voided in round.tables.order_by("number").values_list(
            "pk", "number", "voided"
        )
    )
    return RoundStatus(round=round, tables=tables)


def _statuses(tournament: Tournament, deals) -> Callable[[int, int, bool], TableStatus]:
    """Counts ``deals`` (one query) by table; gives a table's status from its id, number and
    voided flag."""
    totals_only = tournament.entry_mode == Tournament.EntryMode.TOTALS
    confirmed: dict[int, int] = defaultdict(int)
    pending: dict[int, list[tuple[int, int]]] = defaultdict(list)
    has_total: set[int] = set()
    for table_id, deal_status, kind, pk, number in deals.order_by("number").values_list(
        "table_id", "status", "kind", "pk", "number"
    ):
        if kind == Deal.Kind.TOTAL:
            has_total.add(table_id)
        if deal_status == Deal.Status.PENDING:
            pending[table_id].append((pk, number))
        else:
            confirmed[table_id] += 1

    def status(table_id: int, number: int, voided: bool) -> TableStatus:
        totals = totals_only or table_id in has_total
        return TableStatus(
            table_id=table_id,
            number=number,
            voided=voided,
            confirmed=confirmed[table_id],
            pending=len(pending[table_id]),
            pending_deals=tuple(pending[table_id]),
            expected=1 if totals else tournament.deals_per_round,
            totals=totals,
        )

    return status


@dataclass(frozen=True)
class ShortTable:
    """A table of a closed round that was closed with deals missing or unconfirmed (the
    organiser closed anyway: ``set_round_state(close_open=True)``, logged as the round's
    ``RoundChange`` "closed"); its unconfirmed deals count nothing."""

    round_number: int
    status: TableStatus

    @property
    def missing(self) -> int:
        return max(self.status.expected - self.status.done, 0)


def closed_short_tables(*, tournament: Tournament) -> tuple[ShortTable, ...]:
    """Every table of the tournament's closed rounds still open when its round was closed,
    by round and table. Two queries whatever the number of rounds and tables."""
    closed = {"round__tournament": tournament, "round__state": Round.State.CLOSED}
    statuses = _statuses(
        tournament, Deal.objects.filter(**{f"table__{k}": v for k, v in closed.items()})
    )
    short = []
    for table_id, number, round_number in (
        Table.objects.filter(voided=False, **closed)
        .order_by("round__number", "number")
        .values_list("pk", "number", "round__number")
    ):
        status = statuses(table_id, number, False)
        if status.is_open:
            short.append(ShortTable(round_number=round_number, status=status))
    return tuple(short)
