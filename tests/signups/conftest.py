import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from clubs.models import Club, ClubRole
from signups.services import signups as services
from tests.factories import TournamentFactory


@pytest.fixture(autouse=True)
def in_german():
    """The services' messages are asserted in German, as the site's visitors read them: not
    left to whichever language an earlier test in the same process last activated."""
    with translation.override("de"):
        yield


@pytest.fixture
def host(db):
    return Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")


@pytest.fixture
def guest_club(db):
    return Club.objects.create(name="Cego-Club Triberg", short_name="CC Tr", town="Triberg")


@pytest.fixture
def organiser(host):
    user = get_user_model().objects.create_user("orga", "", "pw")
    ClubRole.objects.create(user=user, club=host)
    return user


@pytest.fixture
def tournament(host):
    return TournamentFactory(
        host_club=host, name="Frühjahrsturnier", date=timezone.localdate() + dt.timedelta(days=14)
    )


@pytest.fixture
def open_sheet(tournament, organiser):
    services.set_sheet(
        tournament=tournament, user=organiser, is_open=True, capacity=2, closes_at=None
    )
    return tournament.signup_sheet


def sign(tournament, first, last, **kwargs):
    kwargs.setdefault("consent", True)
    return services.sign_up(tournament=tournament, first_name=first, last_name=last, **kwargs)
