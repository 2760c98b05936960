"""What the standings say of the day (issue 39, item 5): a draw not yet released is no round
begun, a released round without a counted deal has "no results yet" (never "all tables are
finished"), and a finished tournament says "final standings", on the page and the projector."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.models import Round
from tournaments.selectors.standings import tournament_standings
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import set_round_state

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


def _ranks(html: str) -> list[str]:
    """The rank cells' text, in order (page and projector)."""
    import re

    cells = re.findall(r'<td class="number rank">(.*?)</td>', html, flags=re.S)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in cells]


def test_before_the_first_result_nobody_has_a_rank(client, drawn):
    """Not "1.=" for every player on 0: no rank at all, and no tie to decide."""
    tournament, table = drawn
    page, projector = _pages(client, tournament)
    assert _ranks(page) == ["–"] * 4 and _ranks(projector) == ["–"] * 4
    assert 'class="tie-mark"' not in page.split('class="tie-rule"')[1].split("</p>", 1)[1]
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    page, projector = _pages(client, tournament)
    assert _ranks(page)[0] == "1." and "–" not in _ranks(page)
    assert _ranks(projector)[0] == "1."


def test_a_finished_tournament_ends_its_announcements(drawn, django_user_model):
    from tournaments.models import Announcement
    from tournaments.selectors.hall import shown_announcements
    from tournaments.services import finish
    from tournaments.services.hall import announce

    tournament, table = drawn
    organiser = django_user_model.objects.create_superuser("orga", "", "pw")
    announce(tournament=tournament, text="Pause bis 15 Uhr", user=organiser)
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser)
    assert len(shown_announcements(tournament=tournament)) == 1
    finish.finish_tournament(tournament=tournament, user=organiser)
    assert shown_announcements(tournament=tournament) == ()
    ended = Announcement.objects.get()
    assert ended.removed_at is not None and ended.removed_by == organiser
