"""A finished tournament whose places are hidden until the prize ceremony is not rated yet:
the public rating list would tell who is ahead. "Siegerehrung starten" rates it (the ratings
hear it as a copy changed in place, after the commit)."""

from __future__ import annotations

import datetime as dt

import pytest

from ceremony import services
from ratings.models import RatedTournament
from ratings.selectors import finished_tournaments
from tests.ratings.conftest import a_tournament, people  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_hidden_tournament_is_rated_from_the_ceremony_on(
    people,  # noqa: F811
    settings,
    django_capture_on_commit_callbacks,
):
    settings.RATINGS_AHEAD = "inline"
    tournament = a_tournament(people, day=7)
    with django_capture_on_commit_callbacks(execute=True):
        services.set_hiding(tournament=tournament, user=None, from_round=1, top=3)
    assert tournament.pk not in [f.tournament_id for f in finished_tournaments()]
    assert not RatedTournament.objects.filter(pk=tournament.pk).exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.reveal(tournament=tournament, user=None)
    assert tournament.pk in [f.tournament_id for f in finished_tournaments()]
    assert RatedTournament.objects.filter(pk=tournament.pk).exists()
    assert tournament.date == dt.date(2026, 11, 7)
