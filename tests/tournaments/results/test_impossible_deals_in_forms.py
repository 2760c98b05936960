"""Deals no pack can produce: the desk and the phone show the engine's reason and store
nothing (issue 20)."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from tournaments.models import Deal

pytestmark = pytest.mark.django_db


def raeuber(points, tricks=None):
    data = {"number": 1, "contract": "raeuber", "declarer": 1, "submission_key": str(uuid.uuid4())}
    for seat, value in enumerate(points):
        data[f"points_{seat}"] = value
    for seat, value in enumerate(tricks or []):
        data[f"tricks_{seat}"] = value
    return data


def test_the_desk_refuses_raeuber_points_of_nobody(client, organiser, table):
    client.force_login(organiser)
    url = reverse("tournaments:desk_entry", args=[table.round.tournament_id, 1, table.number])
    response = client.post(url, raeuber([0, 0, 0, 0]))
    assert response.status_code == 200
    errors = response.context["form"].non_field_errors()
    assert any("So kann kein Spiel ausgehen" in error for error in errors)
    assert "So kann kein Spiel ausgehen" in response.content.decode()
    assert Deal.objects.count() == 0


def test_the_phone_shows_a_players_impossible_points_next_to_them(client, table):
    client.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": 0})
    url = reverse("tournaments:table_entry", args=[table.token])
    # eight tricks (32 cards, at least 16 points in pairs) with 2 points
    response = client.post(url, raeuber([2, 30, 20, 20], [8, 1, 1, 1]))
    assert response.status_code == 200
    form = response.context["form"]
    assert "mit 8 Stichen" in " ".join(form.errors["points_0"])
    assert Deal.objects.count() == 0
