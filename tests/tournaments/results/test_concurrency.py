"""Two devices at once: nothing lost, nothing stored twice. Real threads, real transactions."""

import threading
import uuid

import pytest
from django.db import connection

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, DealChange
from tournaments.services.phone_entry import enter_deal, revise_deal
from tournaments.services.results_common import DealConflict

pytestmark = pytest.mark.django_db(transaction=True)

EINE = {"contract": "eine", "declarer": 2, "declarer_points": 41}


def run_together(*calls):
    """Start every call at the same moment in its own thread; collect results or errors."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as error:  # noqa: BLE001 - the outcome is what the test inspects
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.fixture
def table():
    return seat_table(tournament=TournamentFactory(rules_slug="swm"))


def test_two_devices_same_deal_number_one_wins_one_conflict(table):
    outcomes = run_together(
        lambda: enter_deal(table=table, number=1, inputs=EINE, via="table", entered_by_position=0),
        lambda: enter_deal(
            table=table,
            number=1,
            inputs={**EINE, "declarer_points": 30},
            via="table",
            entered_by_position=1,
        ),
    )
    stored = [o for o in outcomes if isinstance(o, Deal)]
    conflicts = [o for o in outcomes if isinstance(o, DealConflict)]
    assert len(stored) == 1 and len(conflicts) == 1, outcomes
    assert Deal.objects.count() == 1
    assert Deal.objects.get().declarer_points == stored[0].declarer_points


def test_double_tap_with_one_key_stores_one_deal(table):
    key = uuid.uuid4()
    outcomes = run_together(
        *[lambda: enter_deal(table=table, number=1, inputs=EINE, submission_key=key)] * 3
    )
    assert all(isinstance(o, Deal) for o in outcomes), outcomes
    assert len({o.pk for o in outcomes}) == 1
    assert Deal.objects.count() == 1
    assert DealChange.objects.count() == 1


def test_two_corrections_of_one_version_one_conflicts(table, django_user_model):
    organiser = django_user_model.objects.create_superuser("orga", "", None)
    deal = enter_deal(table=table, number=1, inputs=EINE)
    outcomes = run_together(
        lambda: revise_deal(
            deal=deal,
            inputs={**EINE, "declarer_points": 50},
            expected_version=1,
            user=organiser,
            reason="Gerät A",
        ),
        lambda: revise_deal(
            deal=deal,
            inputs={**EINE, "declarer_points": 60},
            expected_version=1,
            user=organiser,
            reason="Gerät B",
        ),
    )
    assert sum(isinstance(o, Deal) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, DealConflict) for o in outcomes) == 1, outcomes
    deal.refresh_from_db()
    assert deal.version == 2
    assert DealChange.objects.filter(action="corrected").count() == 1


def test_many_deals_at_many_tables_at_once_none_lost(db):
    tournament = TournamentFactory(rules_slug="swm")
    tables = [seat_table(tournament=tournament, table_number=n) for n in range(1, 5)]
    calls = [
        (lambda t=t, n=n: enter_deal(table=t, number=n, inputs=EINE))
        for t in tables
        for n in range(1, 4)
    ]
    outcomes = run_together(*calls)
    assert all(isinstance(o, Deal) for o in outcomes), outcomes
    assert Deal.objects.count() == 12
