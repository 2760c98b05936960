"""An upgrade loses no publishing position: the digests a laptop kept as JSON move into one
row per item (``PublishedItem``), and going back puts them into the JSON again."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("publishing", "0005_fork_safe_publishing")
AFTER = ("publishing", "0006_published_items")
DIGESTS = {"tournament": "a" * 32, "entry:1": "b" * 32, "deal:r1-t1-d1": "c" * 32}


def _migrate(publishing):
    """Publishing at ``publishing``, every other app at its newest (their tables as they are)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] != "publishing"]
    targets = [*others, publishing] if publishing else executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_acknowledged_digests_become_rows_and_back():
    old = _migrate(BEFORE)
    club = old.get_model("clubs", "Club").objects.create(name="CF Br", short_name="CF", town="B")
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Wintercego",
        host_club=club,
        date=datetime.date(2026, 12, 5),
        rules_slug="swm",
        rules_snapshot={},
    )
    Publication = old.get_model("publishing", "Publication")
    acknowledged = Publication.objects.create(
        tournament=tournament, url="http://a.example", token="t", sent_hash="d" * 64,
        sent_digests=DIGESTS,
    )  # fmt: skip
    Publication.objects.create(
        tournament=tournament, url="http://b.example", token="t", sent_digests={}
    )

    new = _migrate(AFTER)
    rows = new.get_model("publishing", "PublishedItem").objects.order_by("key")
    assert {row.key: row.sent for row in rows} == DIGESTS
    assert {row.publication_id for row in rows} == {acknowledged.pk}
    assert all(row.local == "" for row in rows)

    back = _migrate(BEFORE)
    assert (
        back.get_model("publishing", "Publication").objects.get(pk=acknowledged.pk).sent_digests
        == DIGESTS
    )
    _migrate(None)
