"""A round's deals stored at once (``desk_entry.enter_round_deals``, issue 26: the demo of any
size): scored as the desk scores one deal, each with its history row, all or nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import Deal, DealChange, Round
from tournaments.services.desk_entry import enter_round_deals
from tournaments.services.phone_entry import enter_deal
from tournaments.services.results_common import (
    DealConflict,
    ResultError,
    compute_scores,
    table_facts,
)

from .conftest import seat_table

CEGO = {"contract": "cego", "declarer": 0, "declarer_points": 45}
LOST = {"contract": "cego", "declarer": 1, "declarer_points": 20}
RAEUBER = {"contract": "raeuber", "declarer": 0, "points": [30, 20, 15, 14]}


def test_a_round_is_stored_as_the_desk_would_store_it(swm_tournament, organiser) -> None:
    first = seat_table(tournament=swm_tournament, table_number=1)
    second = seat_table(tournament=swm_tournament, table_number=2)
    stored = enter_round_deals(
        round=first.round, deals={1: [CEGO, LOST, RAEUBER], 2: [LOST]}, user=organiser
    )
    assert stored == 4
    # the same deals entered one by one at the desk of another tournament's table
    for table, inputs in ((first, [CEGO, LOST, RAEUBER]), (second, [LOST])):
        facts = table_facts(table)
        for number, deal in enumerate(inputs, start=1):
            row = Deal.objects.get(table=table, number=number)
            _, scores = compute_scores(facts=facts, number=number, inputs=deal)
            assert tuple(row.scores[: len(scores)]) == scores
            assert row.status == Deal.Status.CONFIRMED
            assert row.dealer_position == (number - 1) % 4
            change = row.changes.get()
            assert change.action == DealChange.Action.CREATED
            assert change.changed_by == organiser
            assert change.after["scores"] == list(scores)
    assert Round.objects.get(pk=first.round_id).state == Round.State.PLAYING


def test_the_same_scores_as_one_deal_entered_at_the_desk(swm_tournament) -> None:
    bulk = seat_table(tournament=swm_tournament, table_number=1)
    single = seat_table(tournament=swm_tournament, table_number=2)
    enter_round_deals(round=bulk.round, deals={1: [RAEUBER]})
    one = enter_deal(table=single, number=1, inputs=RAEUBER)
    assert Deal.objects.get(table=bulk).scores == one.scores
    assert Deal.objects.get(table=bulk).details == one.details


def test_a_deal_the_engine_refuses_writes_nothing(swm_tournament) -> None:
    table = seat_table(tournament=swm_tournament)
    impossible = {"contract": "raeuber", "declarer": 0, "points": [0, 0, 0, 0]}
    with pytest.raises(ResultError, match="Tisch 1, Spiel 2"):
        enter_round_deals(round=table.round, deals={1: [CEGO, impossible]})
    assert not Deal.objects.exists() and not DealChange.objects.exists()


def test_a_table_with_deals_a_foreign_table_or_too_many_deals_are_refused(
    swm_tournament,
) -> None:
    table = seat_table(tournament=swm_tournament)
    enter_deal(table=table, number=3, inputs=CEGO)
    with pytest.raises(DealConflict):
        enter_round_deals(round=table.round, deals={1: [CEGO]})
    with pytest.raises(ResultError, match="keinen Tisch 7"):
        enter_round_deals(round=table.round, deals={7: [CEGO]})
    other = seat_table(tournament=swm_tournament, table_number=2)
    with pytest.raises(ResultError, match="zwischen 1 und 24"):
        enter_round_deals(round=other.round, deals={2: [CEGO] * 25})
    assert Deal.objects.count() == 1


def test_a_closed_round_is_locked(swm_tournament) -> None:
    table = seat_table(tournament=swm_tournament)
    Round.objects.filter(pk=table.round_id).update(state=Round.State.CLOSED)
    with pytest.raises(ResultError, match="abgeschlossen"):
        enter_round_deals(round=table.round, deals={1: [CEGO]})
    assert not Deal.objects.exists()


def test_queries_are_not_one_per_deal(swm_tournament) -> None:
    def queries(tables: int, round_number: int) -> int:
        seated = [
            seat_table(tournament=swm_tournament, round_number=round_number, table_number=n)
            for n in range(1, tables + 1)
        ]
        with CaptureQueriesContext(connection) as captured:
            enter_round_deals(
                round=seated[0].round, deals={n: [CEGO, LOST] * 12 for n in range(1, tables + 1)}
            )
        return len(captured)

    one_table = queries(1, 1)  # 24 deals
    # 144 deals: only the inserts' batches (as many rows as the database takes in one) add
    assert queries(6, 2) <= one_table + 6
