"""The standings pages run the same number of queries for 20 and for 100 players."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.results.conftest import seat_table
from tests.tournaments.standings.conftest import cego, fill
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db

# The selector's 7, the tournament, the recorded lot draws, the revision read again before the
# page is cached (tournaments.caching), which players' pages are public (their names link:
# clubs.permissions.public_player_page_ids), the approved seat swaps and the final rulings
# (tournaments.selectors.fairness), and for the organiser the session, the user and the
# navigation's rounds, the series the tournament counts for (issue 41): 17 at most. Served
# from the cache, the page needs only the tournament.
QUERY_BOUND = 17
PAGES = [
    ("standings", {}),
    ("standings", {"partial": "1"}),
    ("projector", {}),
    ("projector", {"partial": "1"}),
]


@pytest.mark.parametrize("players", [20, 100])
@pytest.mark.parametrize("staff", [False, True], ids=["public", "staff"])
def test_pages_stay_within_the_bound(
    client, tournament, organiser, django_assert_max_num_queries, players, staff
):
    fill(tournament, tables=players // 4)
    if staff:
        client.force_login(organiser)
    for name, params in PAGES:
        url = reverse(f"tournaments:{name}", kwargs={"pk": tournament.pk})
        with django_assert_max_num_queries(QUERY_BOUND):
            response = client.get(url, params)
        assert response.status_code == 200
    with django_assert_max_num_queries(QUERY_BOUND):
        response = client.get(reverse("exports:standings_xlsx", kwargs={"pk": tournament.pk}))
    assert response.status_code == 200 or not staff


def counts(client, tournament) -> list[int]:
    result = []
    for name, params in PAGES:
        url = reverse(f"tournaments:{name}", kwargs={"pk": tournament.pk})
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url, params).status_code == 200
        result.append(len(queries))
    return result


def test_counts_do_not_grow_from_20_to_100_players(client, tournament, organiser):
    client.force_login(organiser)
    fill(tournament, tables=5)
    small = counts(client, tournament)
    for number in range(6, 26):
        table = seat_table(tournament=tournament, table_number=number)
        enter_deal(table=table, number=1, inputs=cego(0, 45))
    large = counts(client, tournament)
    assert small == large, (small, large)
    print("queries (standings, standings partial, projector, projector partial):", large)
