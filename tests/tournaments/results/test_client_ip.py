"""The client's address behind a reverse proxy: one helper for the login throttling and the
deal history; X-Forwarded-For counts only when TRUSTED_PROXY_COUNT says how many proxies
stand in front of the app."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from tournaments.models import Deal
from venue.client_ip import client_ip

PROXY = "127.0.0.1"


def request(remote=PROXY, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_without_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request(forwarded="203.0.113.9")) == PROXY
    assert client_ip(request(remote="198.51.100.4")) == "198.51.100.4"


def test_behind_proxies_the_address_is_counted_from_the_right(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request(forwarded="203.0.113.9")) == "203.0.113.9"
    # whatever the client put in front is not believed
    assert client_ip(request(forwarded="10.9.9.9, 203.0.113.9")) == "203.0.113.9"
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request(forwarded="10.9.9.9, 203.0.113.9, 192.0.2.1")) == "203.0.113.9"
    assert client_ip(request(forwarded=" 2001:db8::1 , 192.0.2.1")) == "2001:db8::1"


def test_a_missing_short_or_garbled_header_falls_back_to_the_peer(settings):
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request()) == PROXY
    assert client_ip(request(forwarded="203.0.113.9")) == PROXY
    assert client_ip(request(forwarded="not-an-address, 192.0.2.1")) == PROXY
    assert client_ip(request(remote="")) is None


def _fail(client, address):
    return _log_in(client, address, password="falsch")


def _log_in(client, address, *, password="richtig-geheim"):
    """A login through the proxy from the client at ``address``."""
    return client.post(
        reverse("login"),
        {"username": "orga", "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=address,
    )


@pytest.mark.django_db
def test_login_throttling_locks_the_forwarded_client_only(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    get_user_model().objects.create_user("orga", "", "richtig-geheim")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        last = _fail(client, "203.0.113.9")
    assert last.status_code == 429
    # Another client behind the same proxy is not locked out.
    response = _log_in(Client(), "198.51.100.4")
    assert response.status_code == 302


@pytest.mark.django_db
def test_without_the_setting_every_client_behind_the_proxy_shares_one_lock(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    get_user_model().objects.create_user("orga", "", "richtig-geheim")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _fail(Client(), "203.0.113.9")
    response = _log_in(Client(), "198.51.100.4")
    assert response.status_code == 429


@pytest.mark.django_db
def test_the_deal_history_keeps_the_forwarded_address(settings, table):
    settings.TRUSTED_PROXY_COUNT = 1
    client = Client()
    client.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": 0})
    client.post(
        reverse("tournaments:table_entry", args=[table.token]),
        {
            "number": 1,
            "contract": "eine",
            "declarer": 2,
            "declarer_points": 41,
            "submission_key": str(uuid.uuid4()),
        },
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    change = Deal.objects.get().changes.get()
    assert change.ip_address == "203.0.113.9"
