"""Moving clubs, players and memberships into the `clubs` app kept every row."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0002_round_change"), ("rules", "0001_initial")]
AFTER = [("tournaments", "0003_clubs_move_out"), ("clubs", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_move_are_read_by_the_clubs_models():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    club = old.get_model("tournaments", "Club").objects.create(
        name="Cegofreunde Test", short_name="CFT", town="Testhausen"
    )
    player = old.get_model("tournaments", "Player").objects.create(
        first_name="Anna", last_name="Weißhaar", category="woman"
    )
    old.get_model("tournaments", "Membership").objects.create(
        player=player, club=club, member_number="17"
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from clubs.models import Club, Membership, Player

    moved = Membership.objects.select_related("player", "club").get(member_number="17")
    assert moved.club == Club.objects.get(short_name="CFT")
    assert moved.player == Player.objects.get(last_name="Weißhaar")
    assert moved.player.category == "woman"
    assert Club._meta.db_table == "tournaments_club"
