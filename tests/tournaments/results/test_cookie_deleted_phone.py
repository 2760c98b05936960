"""A phone that deletes its device cookie is still the phone that entered the deal (issue 20):
the same address and the same browser cannot confirm it; another phone can."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Deal
from tournaments.services.phone_entry import confirm_deal, enter_deal
from tournaments.services.results_common import Device, ResultError

pytestmark = pytest.mark.django_db

PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 Chrome/130.0 Mobile"
OTHER_PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Safari/604.1"
EINE_WON = {"contract": "eine", "declarer": 1, "declarer_points": 41}


def phone(table, position, *, address, agent):
    """A fresh browser (no cookies) at ``address`` with User-Agent ``agent``, sitting down."""
    client = Client(REMOTE_ADDR=address, HTTP_USER_AGENT=agent)
    client.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": position})
    return client


def enter(table):
    client = phone(table, 0, address="10.0.0.21", agent=PHONE)
    client.post(
        reverse("tournaments:table_entry", args=[table.token]),
        {
            "number": 1,
            "contract": "eine",
            "declarer": 2,
            "declarer_points": 41,
            "submission_key": str(uuid.uuid4()),
        },
    )
    return Deal.objects.get()


def confirm(client, table, deal):
    return client.post(
        reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk]),
        {"version": deal.version},
        follow=True,
    )


def test_the_entering_phone_without_its_cookie_cannot_confirm(table):
    deal = enter(table)
    # the same phone, cookie deleted: a new device id, but the same address and browser
    again = phone(table, 2, address="10.0.0.21", agent=PHONE)
    response = confirm(again, table, deal)
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING
    assert "Ein anderes Handy am Tisch muss dieses Spiel bestätigen" in response.content.decode()
    assert deal.changes.count() == 1  # nothing written


@pytest.mark.parametrize(
    ("address", "agent"),
    [("10.0.0.22", PHONE), ("10.0.0.21", OTHER_PHONE)],
    ids=["another-address-same-model", "same-address-another-browser"],
)
def test_another_phone_confirms(table, address, agent):
    deal = enter(table)
    response = confirm(phone(table, 3, address=address, agent=agent), table, deal)
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED, response.content.decode()[:2000]


def test_the_service_compares_address_and_browser(table):
    entering = Device(id="a" * 32, ip_address="10.0.0.5", user_agent=PHONE)
    deal = enter_deal(
        table=table, number=1, inputs=EINE_WON, via="table", entered_by_position=0, device=entering
    )
    assert deal.entered_client == entering.client != ""
    cookie_gone = Device(id="b" * 32, ip_address="10.0.0.5", user_agent=PHONE)
    with pytest.raises(ResultError):
        confirm_deal(
            deal=deal, confirmer_position=2, expected_version=deal.version, device=cookie_gone
        )
    # without a User-Agent nothing is compared (no browser sends none)
    assert Device(id="c" * 32, ip_address="10.0.0.5").client == ""
    other = Device(id="d" * 32, ip_address="10.0.0.6", user_agent=PHONE)
    confirmed = confirm_deal(
        deal=deal, confirmer_position=2, expected_version=deal.version, device=other
    )
    assert confirmed.status == Deal.Status.CONFIRMED
