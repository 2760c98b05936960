"""Each tournament's results stored by revision (``seasons.selectors.results``): read while
the revision holds, worked out again as soon as it moves, equal to the standings' figures."""

import pytest

from seasons.models import TournamentResult, TournamentResultSet
from seasons.selectors.players import player_page
from seasons.selectors.results import fresh_results, work_out_results
from tests.factories import EntryFactory, PlayerFactory
from tests.seasons.conftest import play, tournament_in
from tournaments.models import Deal, Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.services.desk_entry import annul_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(season):
    anna = PlayerFactory(first_name="Anna", last_name="Faller")
    tournament = tournament_in(season, "Herbst", 7)
    entries = [EntryFactory(tournament=tournament, player=anna)]
    entries += [EntryFactory(tournament=tournament) for _ in range(3)]
    entries.append(EntryFactory(tournament=tournament))  # registered, never seated
    play(tournament, entries[:4], [(0, 45), (0, 34), (1, 45)])
    tournament.refresh_from_db()
    return anna, tournament, entries


def test_stored_once_then_read_while_the_revision_holds(played):
    _anna, tournament, entries = played
    assert fresh_results(tournaments=[tournament]) == 1
    assert TournamentResultSet.objects.get(tournament=tournament).revision == tournament.revision
    assert TournamentResult.objects.filter(tournament=tournament).count() == len(entries)
    assert fresh_results(tournaments=[tournament]) == 0


def test_a_change_after_the_page_was_read_shows_at_once(played, django_user_model):
    anna, tournament, _entries = played
    assert player_page(player=anna).tournaments[0].total == -10  # +30, -30, -10
    deal = Deal.objects.get(table__round__tournament=tournament, number=2)
    annul_deal(deal=deal, reason="wrong table", user=django_user_model.objects.create_user("r"))
    page = player_page(player=anna)
    assert page.tournaments[0].total == 20  # the lost game no longer counts
    cego = next(s for s in page.contracts if s.contract == "cego")
    assert (cego.declared, cego.won) == (1, 1)
    stamp = TournamentResultSet.objects.get(tournament=tournament)
    assert stamp.revision == Tournament.objects.get(pk=tournament.pk).revision


def test_the_same_figures_as_the_tournament_standings(played):
    _anna, tournament, entries = played
    rows = {row.entry_id: row for row in tournament_standings(tournament=tournament).rows}
    stored = {r.entry_id: r for r in work_out_results(tournament=tournament)}
    assert set(stored) == {e.pk for e in entries}
    for entry_id, result in stored.items():
        row = rows.get(entry_id)
        if row is None or not row.round_totals or row.round_totals == (None,):
            assert result.total is None and result.place is None
            continue
        assert (result.total, result.declarer_wins) == (row.total, row.declarer_wins)
    places = sorted(r.place for r in stored.values() if r.place is not None)
    assert places == [1, 2, 2, 2]  # +30 for the second seat, -10 for the three others
