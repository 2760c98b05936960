from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from clubs.models import AssociationRole
from simultaneous import services
from tests.factories import ClubFactory, TournamentFactory

DAY = dt.date(2026, 11, 28)


@pytest.fixture
def scorer(db):
    user = User.objects.create_user("sportwart", password="pw")
    AssociationRole.objects.create(user=user, role=AssociationRole.Role.SEASON_SCORER)
    return user


@pytest.fixture
def simday(scorer):
    return services.create_day(
        name="Simultan-Cego 2026",
        date=DAY,
        rules_slug="swm",
        rounds=2,
        deals_per_round=24,
        by=scorer,
    )


def hall_tournament(town: str, **fields):
    club = ClubFactory(name=f"Cego-Club {town}", short_name=town[:10], town=town)
    values = {"name": f"Cego-Tag {town}", "date": DAY, "rounds": 2, "deals_per_round": 24}
    return TournamentFactory(host_club=club, **{**values, **fields})
