"""The registry ids: players and clubs stored before the ids existed get one each, distinct
(a callable default in one AddField would have given every row the same id)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubs", "0009_annual_fee_recorded_by")]
AFTER = [("clubs", "0012_registry_ids_unique")]


@pytest.mark.django_db(transaction=True)
def test_existing_rows_get_distinct_registry_ids():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Club = old.get_model("clubs", "Club")
    Player = old.get_model("clubs", "Player")
    for index in range(3):
        Club.objects.create(name=f"Club {index}", short_name=f"C{index}", town="T")
        Player.objects.create(first_name="Anna", last_name=f"Faller{index}")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    for model in ("Club", "Player"):
        ids = list(new.get_model("clubs", model).objects.values_list("uuid", flat=True))
        assert len(ids) == 3 and None not in ids and len(set(ids)) == 3

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
