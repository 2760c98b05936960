"""St. Georgen's Räuber on its tariff card (issue 20): doubled for each player without a trick
(REFERENCE §4.4: B&B's doublings), marked as an assumption beside the Räuber; doubling once
is a variant. Where an all-way tie pays nothing, the card says so."""

import pytest
from django.urls import reverse

from rules.builtin_sources import load_builtin
from rules.tariff import tariff_card

pytestmark = pytest.mark.django_db


def raeuber_row(slug: str, language: str = "de"):
    card = tariff_card(load_builtin(slug), language)
    specials = next(s for s in card.sections if s.key == "specials")
    return next(r for r in specials.rows if r.params == ("contracts.raeuber",))


def test_csg2012_doubles_for_each_player_without_a_trick_as_an_assumption():
    row = raeuber_row("csg2012")
    assert "verdoppelt für jeden Spieler ohne Stich" in row.cells[2]
    assert "einmal verdoppelt" not in row.cells[2]
    note = next(n for n in row.notes if n.param == "contracts.raeuber.no_trick_doubling")
    assert "§4.4" in note.text and "Variante" in note.text


def test_the_card_page_shows_the_assumption_and_the_variant(client):
    html = client.get(reverse("rules:tariff_card", args=["csg2012"])).content.decode()
    assert "Annahme" in html
    assert "wie bei Baumann &amp; Blümle (Regelbuch §4.4" in html
    assert "Räuber nur einmal verdoppelt" in html


@pytest.mark.parametrize(
    ("slug", "shown"),
    [("csg2012", True), ("dreierles", True), ("swm", False), ("bb2013", False)],
)
def test_the_card_says_where_an_all_way_tie_pays_nothing(slug, shown):
    assert ("alle gleichauf: niemand zahlt" in raeuber_row(slug).cells[2]) is shown
