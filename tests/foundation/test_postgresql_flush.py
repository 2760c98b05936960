"""The test suite's PostgreSQL backend (tests/postgresql/base.py) empties after a
transactional test exactly the tables Django's TRUNCATE would: every one, whatever the foreign
keys between the rows; a flush that resets sequences stays Django's own."""

import pytest
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from clubs.models import Player
from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db(transaction=True)


def rows_per_table() -> dict[str, int]:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    counts = {}
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL backend of the tests; SQLite's flush is Django's DELETE")


def test_a_flush_empties_every_table_that_held_rows(postgresql, django_user_model):
    user = django_user_model.objects.create_user("orga", password="x")
    table = seat_table(tournament=TournamentFactory(rules_slug="swm"), table_number=1)
    enter_deal(
        table=table,
        number=1,
        inputs={"contract": "eine", "declarer": 2, "declarer_points": 41},
        user=user,
    )
    PlayerFactory(last_name="Ohne Turnier")
    held = {table for table, n in rows_per_table().items() if n}
    assert {Deal._meta.db_table, Player._meta.db_table, django_user_model._meta.db_table} <= held
    assert Deal.objects.count() == 1
    # only the tables holding rows are named, each emptied
    statements = connection.ops.sql_flush(no_style(), sorted(rows_per_table()))
    assert {s.split()[-1].strip('";') for s in statements if s.startswith("DELETE")} == held

    call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)
    assert not any(rows_per_table().values())
    assert connection.ops.sql_flush(no_style(), sorted(rows_per_table())) == []


def test_a_flush_that_resets_sequences_is_django_s_truncate(postgresql):
    statements = connection.ops.sql_flush(no_style(), ["auth_user"], reset_sequences=True)
    assert statements and statements[0].startswith("TRUNCATE")
