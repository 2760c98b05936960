"""What the standings say of the day (issue 39, item 5): a draw not yet released is no round
begun, a released round without a counted deal has "no results yet" (never "all tables are
finished"), and a finished tournament says "final standings", on the page and the projector."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.models import Round
from tournaments.selectors.standings import tournament_standings
from tournaments.services.results import enter_deal, set_round_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn():
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=1, rounds=1)
    entries = [EntryFactory(tournament=tournament, number=n + 1, checked_in=True) for n in range(4)]
    return tournament, table_of(tournament=tournament, entries=entries)


def _pages(client, tournament) -> tuple[str, str]:
    standings = client.get(reverse("tournaments:standings", args=[tournament.pk]))
    projector = client.get(reverse("tournaments:projector", args=[tournament.pk]))
    return standings.content.decode(), projector.content.decode()


def test_a_draw_awaiting_release_is_no_round_begun(client, drawn):
    tournament, table = drawn
    Round.objects.filter(pk=table.round_id).update(awaiting_release=True)
    standings = tournament_standings(tournament=tournament)
    assert not standings.started and not standings.finished
    page, projector = _pages(client, tournament)
    assert "All tables are finished" not in page and "No round is drawn yet" in page
    assert "All tables finished" not in projector and "No results yet" in projector


def test_a_released_round_without_a_deal_has_no_results_yet(client, drawn):
    tournament, _table = drawn
    page, projector = _pages(client, tournament)
    assert "No results yet" in page and "All tables are finished" not in page
    assert "No results yet" in projector


def test_a_finished_tournament_says_final_standings(client, drawn, django_user_model):
    from tournaments.services import finish

    tournament, table = drawn
    organiser = django_user_model.objects.create_superuser("orga", "", "pw")
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    page, projector = _pages(client, tournament)
    assert "All tables are finished" in page and "All tables finished" in projector
    set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser)
    finish.finish_tournament(tournament=tournament, user=organiser)
    page, projector = _pages(client, tournament)
    assert "Final standings: the tournament is finished." in page
    assert "Final standings" in projector and "All tables finished" not in projector
