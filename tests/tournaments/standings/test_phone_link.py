"""The phone's table page links to the standings with the player's row marked by a fragment, so
the standings stay the one page every spectator shares; the search is in that page for all."""

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def standings_link(html: str) -> str:
    match = re.search(r'<p class="standings-link"><a href="([^"]+)"', html)
    assert match, "no link to the standings"
    return match.group(1)


def test_each_seat_links_to_its_own_row(tournament, one_table):
    standings = reverse("tournaments:standings", kwargs={"pk": tournament.pk})
    entry_page = reverse("tournaments:table_entry", args=[one_table.token])
    seats = {seat.position: seat.entry_id for seat in one_table.seats.all()}
    for position in (0, 2):
        phone = Client()
        phone.post(
            reverse("tournaments:table_entry_seat", args=[one_table.token]), {"position": position}
        )
        link = standings_link(phone.get(entry_page).content.decode())
        # a fragment, no query string: the shared cached page serves it
        assert link == f"{standings}#entry-{seats[position]}"


def test_the_seat_choice_links_to_the_standings_unmarked(client, tournament, one_table):
    html = client.get(reverse("tournaments:table_entry", args=[one_table.token])).content.decode()
    assert standings_link(html) == reverse("tournaments:standings", kwargs={"pk": tournament.pk})


def test_the_marked_row_and_the_search_are_in_everyones_page(client, tournament, one_table):
    html = client.get(reverse("tournaments:standings", kwargs={"pk": tournament.pk})).content
    html = html.decode()
    for seat in one_table.seats.all():
        assert f'id="entry-{seat.entry_id}"' in html
    # the search form is there for the script to show, hidden without it
    form = re.search(r"<form class=\"ranking-search[^>]*>", html).group(0)
    assert " hidden" in form and 'data-ranking-search="#live-standings"' in form
    assert '<label for="ranking-search">Name or start number</label>' in html
    assert "js/standings-search.js" in html
