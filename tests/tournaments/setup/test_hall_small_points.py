"""Issue 28, the smaller points met on the tournament day: the check-in search spells umlauts
either way, the swap lists are in German alphabetical order, a five-player table's sheet
counts seats from 1."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.services.draws import draw_next_round

pytestmark = pytest.mark.django_db


def german(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    return client


@pytest.fixture
def checkin_list(staff_client):
    tournament = TournamentFactory()
    for first, last in [
        ("Karl", "Schäfer"),
        ("Ute", "Ölschläger"),
        ("Hans", "Schaefer"),
        ("Eva", "Maier"),
    ]:
        EntryFactory(tournament=tournament, player=PlayerFactory(first_name=first, last_name=last))
    return tournament


def found(client, tournament, query) -> set[str]:
    page = client.get(reverse("tournaments:checkin", args=[tournament.pk]), {"q": query})
    html = page.content.decode()
    return {last for last in ("Schäfer", "Ölschläger", "Schaefer", "Maier") if last in html}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("Schaefer", {"Schäfer", "Schaefer"}),
        ("schäfer", {"Schäfer", "Schaefer"}),
        ("oel", {"Ölschläger"}),
        ("Öl", {"Ölschläger"}),
        ("karl schaef", {"Schäfer"}),
        ("Maier", {"Maier"}),
    ],
)
def test_checkin_search_spells_umlauts_either_way(staff_client, checkin_list, query, expected):
    assert found(staff_client, checkin_list, query) == expected


def test_swap_lists_are_in_german_alphabetical_order(staff_client):
    tournament = TournamentFactory()
    names = ["Zeller", "Öhler", "Abele", "Obermeier", "Müller", "Muster", "Mai", "Ühlin"]
    for last in names:
        EntryFactory(
            tournament=tournament,
            checked_in=True,
            player=PlayerFactory(first_name="Anna", last_name=last),
        )
    draw_next_round(tournament=tournament, number=1, seed=3)
    page = staff_client.get(reverse("tournaments:round_draw", args=[tournament.pk, 1]))
    html = page.content.decode()
    select = html[html.index('name="first"') :].split("</select>", 1)[0]
    listed = [m for m in re.findall(r">([^<,]+), Anna \(\d+\)<", select)]
    # DIN 5007 variant 1: Ö as O, Ü as U, Müller before Muster
    assert listed == [
        "Abele",
        "Mai",
        "Müller",
        "Muster",
        "Obermeier",
        "Öhler",
        "Ühlin",
        "Zeller",
    ], listed


def test_five_player_sheet_names_the_seat_sitting_out_from_one(staff_client):
    tournament = TournamentFactory(rules_slug="schwaerzehof", tables_of_5=True)
    table = seat_table(tournament=tournament, size=5)
    url = reverse("tournaments:desk_written", args=[tournament.pk, 1, table.number])
    # deal 1 is dealt by seat position 0 (Platz 1), who sits out at a table of five
    data = {"contract_1": "cego", "declarer_1": "0", "amount_1_0": "+40", "action": "check"}
    html = german(staff_client).post(url, data).content.decode()
    assert "Platz 1 setzt in diesem Spiel aus" in html
    assert "Platz 0" not in html
