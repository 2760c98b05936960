"""Issue 28 (security audit, low): a phone's second browser (another User-Agent, the same
address) could confirm the deal that phone entered, unmarked. Such a confirmation counts (two
phones behind one home router share an address on the club server) but is marked in the
deal's history: "Vom selben Gerät bestätigt?", shown in the log and on the correction page."""

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.models import Deal, DealChange
from tournaments.selectors.changelog import tournament_log
from tournaments.services.phone_entry import confirm_deal, enter_deal
from tournaments.services.results_common import Device

pytestmark = pytest.mark.django_db

EINE = {"contract": "eine", "declarer": 1, "declarer_points": 41}
PHONE = Device(id="a" * 32, ip_address="192.168.1.57", user_agent="Chrome/130 Android")
SECOND_BROWSER = Device(id="b" * 32, ip_address="192.168.1.57", user_agent="Firefox/128 Android")
OTHER_PHONE = Device(id="c" * 32, ip_address="192.168.1.58", user_agent="Chrome/130 Android")
MARK = "Vom selben Gerät bestätigt?"


def entered(table):
    return enter_deal(
        table=table, number=1, inputs=EINE, via="table", entered_by_position=0, device=PHONE
    )


def test_a_second_browser_on_the_entering_address_is_marked(client, table, organiser):
    deal = entered(table)
    with translation.override("de"):
        confirm_deal(
            deal=deal, confirmer_position=2, expected_version=deal.version, device=SECOND_BROWSER
        )
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED  # counts, but marked
    change = deal.changes.get(action=DealChange.Action.CONFIRMED)
    assert change.reason.startswith(MARK)
    with translation.override("de"):
        line = next(
            line
            for line in tournament_log(tournament=table.round.tournament)
            if line.area == "deal" and line.reason
        )
    assert line.reason.startswith(MARK)
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    page = client.get(reverse("tournaments:deal_correct", args=[deal.pk])).content.decode()
    assert MARK in page


def test_another_phone_is_not_marked(table):
    deal = entered(table)
    confirm_deal(deal=deal, confirmer_position=2, expected_version=deal.version, device=OTHER_PHONE)
    assert deal.changes.get(action=DealChange.Action.CONFIRMED).reason == ""
