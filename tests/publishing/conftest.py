"""The publishing tests' host club and the laptop's tournament (one table, three deals)."""

import pytest

from clubs.models import Club
from tests.factories import EntryFactory, TournamentFactory
from tests.seasons.conftest import play


@pytest.fixture
def host():
    return Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")


@pytest.fixture
def laptop(host):
    """The laptop's tournament: one table, three deals."""
    tournament = TournamentFactory(host_club=host, rules_slug="swm", deals_per_round=24)
    entries = [EntryFactory(tournament=tournament, number=n + 1) for n in range(4)]
    table = play(tournament, entries, [(0, 45), (1, 34), (2, 45)])
    return tournament, table
