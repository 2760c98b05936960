"""The check-in desk at 150 players: one click "present + paid", back at the player's row
(not the top of the list) with the search emptied for the next arrival."""

import pytest
from django.urls import reverse

from tests.tournaments.setup.factories import tournament_with_players
from tournaments.models import TournamentChange

pytestmark = pytest.mark.django_db


def test_present_and_paid_in_one_click_back_at_the_row(staff_client):
    tournament, entries = tournament_with_players(3, checked_in=False)
    entry = entries[1]
    listing = reverse("tournaments:checkin", args=[tournament.pk])
    page = staff_client.get(listing, {"q": entry.player.last_name, "show": "not_checked_in"})
    html = page.content.decode()
    assert f'id="entry-{entry.pk}"' in html and 'value="check_in_pay"' in html
    url = reverse("tournaments:checkin_entry_action", args=[tournament.pk, entry.pk])
    next_url = f"{listing}?q={entry.player.last_name}&show=not_checked_in"
    response = staff_client.post(url, {"action": "check_in_pay", "next": next_url})
    assert response.status_code == 302
    # the same filter, the search emptied for the next arrival, the page at the player's row
    assert response["Location"] == f"{listing}?show=not_checked_in#entry-{entry.pk}"
    entry.refresh_from_db()
    assert entry.checked_in and entry.fee_paid
    assert TournamentChange.objects.filter(tournament=tournament).count() == 2
    # checked in and paid: the combined button is gone from the row
    html = staff_client.get(listing).content.decode()
    row = html[html.index(f'id="entry-{entry.pk}"') :]
    row = row[: row.index("</tr>")]
    assert 'value="check_in_pay"' not in row


def test_present_and_paid_is_refused_whole_for_a_free_entry(staff_client):
    tournament, entries = tournament_with_players(1, checked_in=False)
    entry = entries[0]
    entry.fill_in = True  # plays free: no fee to take
    entry.save()
    url = reverse("tournaments:checkin_entry_action", args=[tournament.pk, entry.pk])
    staff_client.post(url, {"action": "check_in_pay"})
    entry.refresh_from_db()
    assert not entry.checked_in and not entry.fee_paid  # nothing written
