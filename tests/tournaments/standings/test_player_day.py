"""A player's own phone page ("Mein Platz"): found by name (umlauts either way) or start number,
it shows the table and seat of the latest released round, the round's state and clock, the
place and running total, refreshes its live part, and runs a constant number of queries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.printing.conftest import seat_round
from tournaments.models import Deal, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    tournament = TournamentFactory(name="Bräunlinger Cego-Turnier")
    names = [("Schäfer", "Öle"), ("Müller", "Hans"), ("Blümle", "Anna"), ("Faller", "Ute")]
    names += [(f"Spieler{i}", "Eva") for i in range(4)]
    entries = [
        EntryFactory(
            tournament=tournament,
            number=i + 1,
            player=PlayerFactory(last_name=last, first_name=first),
        )
        for i, (last, first) in enumerate(names)
    ]
    round_, tables = seat_round(tournament, entries, [4, 4])
    deal = Deal(table=tables[0], number=1, status=Deal.Status.CONFIRMED, dealer_position=0)
    deal.contract = "cego"
    deal.set_scores([90, -30, -30, -30])
    deal.save()
    return tournament, entries, round_


def search(client, tournament, q: str) -> str:
    url = reverse("tournaments:my_seat_search", args=[tournament.pk])
    return client.get(url, {"q": q}).content.decode()


def page(client, tournament, number: int, **params) -> str:
    url = reverse("tournaments:my_seat", args=[tournament.pk, number])
    response = client.get(url, params)
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    return response.content.decode()


def test_found_by_name_with_or_without_umlauts_and_by_number(client, day):
    tournament = day[0]
    target = reverse("tournaments:my_seat", args=[tournament.pk, 1])
    for q in ("Schaefer", "schäfer", "Oele schae", "1"):
        assert target in search(client, tournament, q), q
    assert target not in search(client, tournament, "Müller")
    assert "Nobody of this tournament" in search(client, tournament, "Zähringer")


def test_table_seat_place_and_total(client, day):
    tournament, entries, round_ = day
    html = page(client, tournament, 1)
    assert 'class="me-table">1<' in html and 'class="me-position">1<' in html
    assert "Müller Hans" not in html and "Hans Müller" in html  # who else sits there
    assert 'class="me-rank">1.' in html and "+90" in html and "of 8" in html
    assert "starting soon" in html
    assert 'hx-get="?partial=1"' in html and "htmx" in html
    # The round over: said so, the place and the link to the standings with my row marked.
    Round.objects.filter(pk=round_.pk).update(state="closed")
    html = page(client, tournament, 1, partial="1")
    assert "<html" not in html and "round over" in html
    assert f"/standings/#entry-{entries[0].pk}" in html


def test_the_round_clock_shows(client, day):
    tournament, _, round_ = day
    Round.objects.filter(pk=round_.pk).update(
        state="playing", ends_at=timezone.now() + timedelta(minutes=30)
    )
    html = page(client, tournament, 5)
    assert "data-round-clock" in html and "being played" in html
    assert 'class="me-table">2<' in html


def test_unknown_number_is_not_found(client, day):
    url = reverse("tournaments:my_seat", args=[day[0].pk, 99])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("players", [8, 60])
def test_queries_do_not_grow_with_the_field(client, django_assert_max_num_queries, players):
    tournament = TournamentFactory()
    entries = [EntryFactory(tournament=tournament, number=i + 1) for i in range(players)]
    seat_round(tournament, entries, [4] * (players // 4))
    url = reverse("tournaments:my_seat", args=[tournament.pk, 3])
    client.get(url)  # the standings are cached by revision after the first reader
    with django_assert_max_num_queries(7):
        assert client.get(url).status_code == 200
