"""Issue 28 (security audit, low): bad input gets a form error, never a server error. The
prize-money form answered 500 for NaN, Infinity and 1e309; the paper-sheet page (typed as
written) crashed on an empty POST. Both now answer the form again with the error, changing
nothing."""

import pytest
from django.urls import reverse

from tournaments.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, organiser):
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    client.raise_request_exception = False
    return client


@pytest.mark.parametrize(
    "typed", ["NaN", "nan", "Infinity", "-Infinity", "inf", "1e309", "sNaN", "1e6000000", "2000000"]
)
def test_prize_money_refuses_what_is_no_amount(desk, table, typed):
    tournament = table.round.tournament
    before = list(tournament.prize_shares_cents or [])
    url = reverse("treasury:prize_money", args=[tournament.pk])
    response = desk.post(url, {"shares": f"30; {typed}; 10"})
    assert response.status_code == 200
    assert f"„{typed}“ ist kein Eurobetrag." in response.content.decode()
    tournament.refresh_from_db()
    assert list(tournament.prize_shares_cents or []) == before
    assert desk.post(url, {"shares": "30; 20,50; 10"}).status_code == 302


@pytest.mark.parametrize("name", ["desk_written", "deal_correct_written"])
def test_the_paper_sheet_page_answers_an_empty_post_with_a_form_error(desk, table, name):
    tournament = table.round.tournament
    if name == "desk_written":
        url = reverse("tournaments:desk_written", args=[tournament.pk, 1, table.number])
    else:
        from tournaments.services.phone_entry import enter_deal

        deal = enter_deal(
            table=table, number=1, inputs={"contract": "eine", "declarer": 1, "declarer_points": 41}
        )
        url = reverse("tournaments:deal_correct_written", args=[deal.pk])
    count = Deal.objects.count()
    response = desk.post(url, {})
    assert response.status_code == 200
    assert "Bitte mindestens eine Zeile des Blatts eingeben." in response.content.decode()
    assert Deal.objects.count() == count
