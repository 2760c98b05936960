"""Logins on the hall's Wi-Fi (venue mode, plain HTTP): a session cookie copied to another
device does not work, a login lasts the day, and the organiser's pages say the Wi-Fi is
open (issue 20). On the club server (HTTPS) nothing changes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

import venue.sessions

pytestmark = pytest.mark.django_db

PASSWORD = "richtig-geheim-42"
LAPTOP = {
    "REMOTE_ADDR": "192.168.1.20",
    "HTTP_USER_AGENT": "Mozilla/5.0 (X11; Linux) Firefox/128.0",
}
PHONE = {
    "REMOTE_ADDR": "192.168.1.57",
    "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14) Chrome/130",
}
WARNING = "Das WLAN der Halle ist offen und unverschlüsselt"


@pytest.fixture
def hall(settings):
    """Venue mode as ``manage.py venue`` sets it."""
    settings.VENUE_MODE = True
    settings.SESSION_EXPIRE_AT_BROWSER_CLOSE = True
    settings.SESSION_COOKIE_AGE = 16 * 3600
    return settings


@pytest.fixture
def organiser():
    return get_user_model().objects.create_superuser("orga", "", PASSWORD)


def logged_in(device: dict[str, str]) -> Client:
    client = Client(**device)
    response = client.post(reverse("login"), {"username": "orga", "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


def organiser_page(client: Client):
    return client.get(reverse("tournaments:tournament_create"))


def copy_cookie(source: Client, device: dict[str, str]) -> Client:
    thief = Client(**device)
    name = django_settings.SESSION_COOKIE_NAME
    thief.cookies[name] = source.cookies[name].value
    return thief


def test_a_copied_session_cookie_does_not_work_on_another_device(hall, organiser):
    laptop = logged_in(LAPTOP)
    assert organiser_page(laptop).status_code == 200
    key = laptop.cookies[django_settings.SESSION_COOKIE_NAME].value
    thief = copy_cookie(laptop, PHONE)
    for _ in range(3):
        response = organiser_page(thief)
        assert response.status_code == 302 and response["Location"].startswith("/login/")
        # a POST with the copied cookie changes nothing either
        thief.post(reverse("tournaments:tournament_create"), {"name": "Gestohlen"})
    # issue 28: the organiser's own session is untouched (the copied cookie used to flush
    # it, so anyone on the Wi-Fi could log the organiser out)
    assert organiser_page(laptop).status_code == 200
    assert laptop.cookies[django_settings.SESSION_COOKIE_NAME].value == key
    assert "_auth_user_id" not in thief.session


@pytest.mark.parametrize("changed", ["REMOTE_ADDR", "HTTP_USER_AGENT"])
def test_another_address_or_browser_is_another_device(hall, organiser, changed):
    laptop = logged_in(LAPTOP)
    response = organiser_page(copy_cookie(laptop, {**LAPTOP, changed: PHONE[changed]}))
    assert response.status_code == 302


def test_the_logout_says_why(hall, organiser):
    thief = copy_cookie(logged_in(LAPTOP), PHONE)
    page = thief.get(reverse("login"))  # the login page itself is open to anyone
    assert "Bitte melden Sie sich erneut an" in page.content.decode()
    assert "_auth_user_id" not in thief.session


def test_a_login_lasts_the_day(hall, organiser, monkeypatch):
    laptop = logged_in(LAPTOP)
    cookie = laptop.cookies[django_settings.SESSION_COOKIE_NAME]
    assert not cookie["max-age"] and not cookie["expires"]  # gone when the browser closes
    now = venue.sessions.time.time()
    monkeypatch.setattr(venue.sessions.time, "time", lambda: now + 15.9 * 3600)
    assert organiser_page(laptop).status_code == 200
    monkeypatch.setattr(venue.sessions.time, "time", lambda: now + 16.1 * 3600)
    assert organiser_page(laptop).status_code == 302


def test_a_session_signed_in_without_the_binding_is_logged_out(hall, organiser):
    client = Client(**LAPTOP)
    client.force_login(organiser)  # no request of this device: nothing to hold it to
    assert organiser_page(client).status_code == 302


def test_the_club_server_keeps_its_two_week_sessions(settings, organiser):
    assert settings.VENUE_MODE is False
    laptop = logged_in(LAPTOP)
    cookie = laptop.cookies[django_settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == 14 * 24 * 3600
    assert organiser_page(copy_cookie(laptop, PHONE)).status_code == 200
    assert WARNING not in organiser_page(laptop).content.decode()
    assert WARNING not in laptop.get(reverse("login")).content.decode()


def test_the_organisers_pages_warn_about_the_open_wifi_once(hall, organiser):
    assert Client(**PHONE).get(reverse("login")).content.decode().count(WARNING) == 1
    laptop = logged_in(LAPTOP)
    for url in (reverse("tournaments:tournament_create"), reverse("tournaments:home")):
        assert laptop.get(url).content.decode().count(WARNING) == 1
    # spectators' pages stay as they are (and shared: the standings are cached per revision)
    assert WARNING not in Client(**PHONE).get(reverse("tournaments:home")).content.decode()


def test_venue_mode_sets_a_browser_session_of_sixteen_hours():
    code = (
        "from django.conf import settings; import django; django.setup(); "
        "print(settings.VENUE_MODE, settings.SESSION_EXPIRE_AT_BROWSER_CLOSE, "
        "settings.SESSION_COOKIE_AGE)"
    )
    root = Path(__file__).resolve().parents[2]

    def run(**env: str) -> str:
        environment = {
            k: v for k, v in os.environ.items() if k not in {"VENUE_MODE", "DJANGO_SETTINGS_MODULE"}
        }
        environment.update(DEBUG="1", DJANGO_SETTINGS_MODULE="cego_club.settings", **env)
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=root,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return result.stdout.split()

    assert run(VENUE_MODE="1") == ["True", "True", str(16 * 3600)]
    assert run() == ["False", "False", str(14 * 24 * 3600)]
