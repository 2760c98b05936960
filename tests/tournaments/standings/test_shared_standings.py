"""The standings are worked out once per revision and shared by the pages that show them
(``standings_at_revision``): the first of the projector board, the standings page, its live
part and the players' places pays; the others at that revision only render. Kept only if the
revision did not move while they were worked out."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.standings.conftest import cego
from tournaments.caching import revision_key
from tournaments.models import Tournament
from tournaments.selectors import standings as selector
from tournaments.services.phone_entry import enter_deal
from tournaments.services.revision import bump_revision
from tournaments.tables_standings import signed_html
from tournaments.views import player_day as player_day_views
from tournaments.views import standings as standings_views

pytestmark = pytest.mark.django_db

PAGES = [
    ("projector", {"partial": "1"}),
    ("standings", {"partial": "1"}),
    ("standings", {}),
    ("projector", {}),
]


@pytest.fixture
def worked_out(monkeypatch):
    """The tournaments whose standings were worked out, in order."""
    calls = []
    original = selector.tournament_standings

    def counted(*, tournament):
        calls.append(tournament.revision)
        return original(tournament=tournament)

    monkeypatch.setattr(selector, "tournament_standings", counted)
    for module in (standings_views, player_day_views):  # any page working them out itself
        if hasattr(module, "tournament_standings"):
            monkeypatch.setattr(module, "tournament_standings", counted)
    return calls


def get(client, name, params, tournament):
    response = client.get(reverse(f"tournaments:{name}", kwargs={"pk": tournament.pk}), params)
    assert response.status_code == 200
    return response.content.decode()


def test_once_per_revision_for_every_page(client, tournament, one_table, worked_out):
    cache.clear()
    for name, params in PAGES:
        get(client, name, params, tournament)
    assert len(worked_out) == 1
    # a deal: the next page works them out again, and every page shows the new totals
    enter_deal(table=one_table, number=2, inputs=cego(1, 61))
    pages = [get(client, name, params, tournament) for name, params in PAGES]
    assert len(worked_out) == 2 and worked_out[0] < worked_out[1]
    leader = selector.tournament_standings(tournament=Tournament.objects.get(pk=tournament.pk))
    assert all(signed_html(leader.rows[0].total) in page for page in pages)


def test_not_kept_if_the_revision_moved_meanwhile(client, tournament, one_table, monkeypatch):
    cache.clear()
    original = selector.tournament_standings
    read = Tournament.objects.get(pk=tournament.pk)

    def with_a_deal_meanwhile(*, tournament):
        result = original(tournament=tournament)
        bump_revision(tournament_id=tournament.pk)  # as a deal entered meanwhile does
        return result

    monkeypatch.setattr(selector, "tournament_standings", with_a_deal_meanwhile)
    get(client, "projector", {"partial": "1"}, tournament)
    assert cache.get(revision_key(read, "standings-data", language=False)) is None
    monkeypatch.setattr(selector, "tournament_standings", original)
    get(client, "projector", {"partial": "1"}, tournament)
    now = Tournament.objects.get(pk=tournament.pk)
    assert now.revision == read.revision + 1
    kept = cache.get(revision_key(now, "standings-data", language=False))
    assert kept is not None and kept.rows == original(tournament=now).rows


def test_the_board_at_a_new_revision_reads_the_revision_once_more(client, tournament, one_table):
    """The standings' data is kept on the check the board makes (no query of its own)."""
    get(client, "projector", {"partial": "1"}, tournament)
    bump_revision(tournament_id=tournament.pk)
    with CaptureQueriesContext(connection) as queries:
        get(client, "projector", {"partial": "1"}, tournament)
    revision_reads = [q for q in queries.captured_queries if 'SELECT "revision"' in q["sql"]]
    assert len(revision_reads) == 2  # the shared page's, and the check before keeping
