"""Issue 28: the demo as a new user meets it. No fee is paid on a future date, and its
tournament before any draw does not say "Alle Tische sind fertig" (nor does any tournament
before its first draw)."""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from clubs.demo import paid_on
from clubs.models import AnnualFee
from tests.factories import SeasonFactory, TournamentFactory
from tournaments import demo
from tournaments.models import Tournament
from tournaments.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db


def test_the_demo_pays_no_fee_in_the_future_and_its_undrawn_tournament_is_not_finished(client):
    call_command("load_demo", stdout=io.StringIO())  # slow: one load for both points
    today = dt.date.today()
    paid = AnnualFee.objects.filter(paid_on__isnull=False)
    assert paid.exists()
    future = list(paid.filter(paid_on__gt=today).values_list("paid_on", flat=True))
    assert not future, future

    upcoming = Tournament.objects.get(name=demo.DEMO_TOURNAMENT_NAME)
    assert not upcoming.round_set.exists()
    standings = tournament_standings(tournament=upcoming)
    assert not standings.started and not standings.finished
    client.cookies["django_language"] = "de"
    page = client.get(reverse("tournaments:standings", args=[upcoming.pk])).content.decode()
    assert "Alle Tische sind fertig" not in page
    assert "Noch ist keine Runde ausgelost" in page
    finished = Tournament.objects.get(name=demo.DEMO_FINISHED_NAME)
    assert tournament_standings(tournament=finished).finished


def test_a_payment_date_is_a_day_into_the_season_but_never_after_today():
    season = SeasonFactory(starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30))
    today = dt.date(2026, 11, 26)
    assert paid_on(season, 3, today=today) == dt.date(2026, 11, 4)
    assert paid_on(season, 40, today=today) == today
    later = SeasonFactory(starts_on=dt.date(2027, 11, 1), ends_on=dt.date(2028, 4, 30))
    assert paid_on(later, 0, today=today) == today


def test_a_tournament_without_a_draw_is_not_finished():
    assert not tournament_standings(tournament=TournamentFactory()).finished
