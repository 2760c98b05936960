"""Issue 28: the open-Wi-Fi warning is for browsers on the hall's Wi-Fi; the laptop's own
browser (``localhost``: its traffic never leaves the laptop) is not warned. A loopback
address reached through a proxy the settings do not name is not taken for the laptop."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.venue.test_hall_sessions import PASSWORD, WARNING, hall  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

AGENT = "Mozilla/5.0 (X11; Linux) Firefox/128.0"


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_no_warning_on_the_laptop_itself(hall, address):  # noqa: F811
    get_user_model().objects.create_superuser("orga", "", PASSWORD)
    laptop = Client(REMOTE_ADDR=address, HTTP_USER_AGENT=AGENT)
    assert WARNING not in laptop.get(reverse("login")).content.decode()
    assert WARNING not in laptop.get(reverse("clubs:first_run")).content.decode()
    response = laptop.post(reverse("login"), {"username": "orga", "password": PASSWORD})
    assert response.status_code == 302
    page = laptop.get(reverse("tournaments:tournament_create"))
    assert page.status_code == 200 and WARNING not in page.content.decode()


def test_the_wifi_and_an_unknown_proxy_are_warned(hall):  # noqa: F811
    phone = Client(REMOTE_ADDR="192.168.1.57", HTTP_USER_AGENT=AGENT)
    assert WARNING in phone.get(reverse("login")).content.decode()
    proxied = Client(
        REMOTE_ADDR="127.0.0.1", HTTP_USER_AGENT=AGENT, HTTP_X_FORWARDED_FOR="192.168.1.57"
    )
    assert WARNING in proxied.get(reverse("login")).content.decode()
