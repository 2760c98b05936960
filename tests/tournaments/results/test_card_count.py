import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def count(client, method, **counts):
    data = {"count-method": method, **{f"count-{k}": v for k, v in counts.items()}}
    return client.post(reverse("tournaments:count_cards"), data)


def test_three_kings_and_a_pip_in_threes_and_in_pairs(client):
    # Threes: (5+5+5) - 2 = 13, the leftover pip 1 - 1 = 0. Pairs: (5+5) - 1 + (5+1) - 1 = 14.
    assert count(client, "threes", fives=3, others=1).context["points"] == 13
    assert count(client, "pairs", fives=3, others=1).context["points"] == 14


def test_whole_pack_counts_70_in_threes_and_79_in_pairs(client):
    pack = {"fives": 7, "queens": 4, "cavaliers": 4, "jacks": 4, "others": 35}
    assert count(client, "threes", **pack).context["points"] == 70
    assert count(client, "pairs", **pack).context["points"] == 79


def test_more_cards_than_a_pack_is_an_error(client):
    # 55 cards: more plain cards than the pack has (35) is the field's error now.
    response = count(client, "threes", others=54, fives=1)
    assert "points" not in response.context and response.context["form"].errors["others"]


def test_the_deal_form_offers_the_counter(client, table, organiser):
    client.force_login(organiser)
    page = client.get(
        reverse("tournaments:desk_entry", args=[table.round.tournament_id, 1, table.number])
    )
    assert 'name="count-fives"' in page.content.decode()
    assert 'value="pairs"' in page.content.decode()  # swm counts in pairs


@pytest.mark.parametrize(
    ("face", "too_many"),
    [("fives", 8), ("queens", 5), ("cavaliers", 5), ("jacks", 5), ("others", 36)],
)
def test_more_cards_of_a_value_than_the_deck_has_is_an_error(client, face, too_many):
    """20 five-point cards counted 87 points before; the deck has seven (four kings, the
    Gstieß, the 21 and the 1)."""
    response = count(client, "threes", **{face: too_many})
    assert "points" not in response.context
    assert response.context["form"].errors[face]


def test_the_answer_says_which_kind_is_too_many(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = count(client, "threes", fives=20).content.decode()
    assert "Könige, Gstieß, 21 und 1" in html and "7" in html
