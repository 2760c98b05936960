import pytest
from django.utils import translation

from tests.factories import EntryFactory, SeasonFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.services.phone_entry import enter_deal


@pytest.fixture(autouse=True)
def english(client, settings):
    """Pages and service messages in English, whatever the German catalogue says."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("orga", "", "pw")


@pytest.fixture
def visitor(django_user_model):
    return django_user_model.objects.create_user("visitor", password="pw")


def play(tournament, entries, deals, *, round_number=1, table_number=1):
    """Seat ``entries`` at one table and enter ``deals`` ((declarer, card points) under swm:
    won with 45 = +30 / -10 each, lost with 34 = -30 / +10 each)."""
    table = table_of(
        tournament=tournament, entries=entries, round_number=round_number, table_number=table_number
    )
    for number, (declarer, points) in enumerate(deals, start=1):
        enter_deal(table=table, number=number, inputs=cego(declarer, points))
    return table


@pytest.fixture
def season(db):
    return SeasonFactory(name="Saison 2026/27")


def tournament_in(season, name, day, **kwargs):
    return TournamentFactory(
        season=season,
        name=name,
        date=season.starts_on.replace(day=day),
        rules_slug="swm",
        deals_per_round=24,
        **kwargs,
    )


__all__ = ["EntryFactory", "play", "tournament_in"]
