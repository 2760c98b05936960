"""Youth who play free (``Tournament.youth_entry_free``): the desk offers no fee for them and
the services record none."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry
from tournaments.selectors.standings import tournament_standings
from tournaments.services import checkin, setup
from treasury.selectors import tournament_money

pytestmark = pytest.mark.django_db


def _tournament(free=True):
    tournament = TournamentFactory(entry_fee_cents=1000, youth_entry_free=free)
    youth = EntryFactory(tournament=tournament, number=1, category="youth")
    adult = EntryFactory(tournament=tournament, number=2, category="open")
    return tournament, youth, adult


def _actions(page, entry):
    """The quick-action buttons of one row of the registration list."""
    html = page.content.decode()
    url = reverse("tournaments:checkin_entry_action", args=[entry.tournament_id, entry.pk])
    start = html.index(f'action="{url}"')
    return html[start : html.index("</form>", start)]


def test_the_desk_shows_free_instead_of_the_paid_button_for_youth(staff_client):
    tournament, youth, adult = _tournament()
    staff_client.cookies["django_language"] = "de"
    page = staff_client.get(reverse("tournaments:checkin", args=[tournament.pk]))
    assert 'value="pay"' not in _actions(page, youth)
    assert "frei" in _actions(page, youth)
    assert 'value="pay"' in _actions(page, adult)
    # "not paid" lists only those who have something to pay
    page = staff_client.get(
        reverse("tournaments:checkin", args=[tournament.pk]), {"show": "not_paid"}
    )
    assert [row.record for row in page.context["table"].rows] == [adult]


def test_without_youth_entry_free_youth_pay_like_everyone(staff_client):
    tournament, youth, _adult = _tournament(free=False)
    page = staff_client.get(reverse("tournaments:checkin", args=[tournament.pk]))
    assert 'value="pay"' in _actions(page, youth)
    checkin.set_fee_paid(entry=youth, paid=True)
    youth.refresh_from_db()
    assert youth.fee_paid


def test_the_service_refuses_a_fee_for_a_youth_who_plays_free(staff_client):
    tournament, youth, _adult = _tournament()
    with pytest.raises(ValidationError):
        checkin.set_fee_paid(entry=youth, paid=True)
    youth.refresh_from_db()
    assert not youth.fee_paid
    # through the desk: a clear message, nothing changed
    response = staff_client.post(
        reverse("tournaments:checkin_entry_action", args=[tournament.pk, youth.pk]),
        {"action": "pay"},
        follow=True,
    )
    assert any("no entry fee" in str(m) for m in response.context["messages"])
    youth.refresh_from_db()
    assert not youth.fee_paid


def test_registration_records_no_fee_for_a_youth_who_plays_free(staff_client):
    tournament, _youth, _adult = _tournament()
    kid = PlayerFactory(first_name="Mia", last_name="Klein", category="youth")
    entry = setup.register_player(tournament=tournament, player=kid, fee_paid=True)
    assert entry.category == "youth" and not entry.fee_paid
    Entry.objects.get(pk=entry.pk)  # stored as such
    assert not Entry.objects.get(pk=entry.pk).fee_paid
    # the late-entry page offers no "paid" tick for a youth, and a new youth is stored unpaid
    other = PlayerFactory(first_name="Ben", last_name="Kleinert", category="youth")
    url = reverse("tournaments:late_entry", args=[tournament.pk])
    staff_client.cookies["django_language"] = "de"
    page = staff_client.get(url, {"q": "Kleinert"}).content.decode()
    row = page[page.index("<span>Kleinert, Ben") :]
    row = row[: row.index("</form>")]
    assert "existing-fee_paid" not in row and "frei" in row
    staff_client.post(
        url,
        {
            "new-first_name": "Lea",
            "new-last_name": "Jung",
            "new-category": "youth",
            "new-fee_paid": "on",
        },
    )
    assert not Entry.objects.get(tournament=tournament, player__last_name="Jung").fee_paid
    staff_client.post(url, {"existing-player": other.pk, "existing-fee_paid": "on"})
    assert not Entry.objects.get(tournament=tournament, player=other).fee_paid
    money = tournament_money(
        tournament=tournament, standings=tournament_standings(tournament=tournament)
    )
    assert money.entries_free == 4 and money.fees_taken_cents == 0
