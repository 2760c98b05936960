"""The app's own login page: German, throttled by django-axes, and the admin's login sends
people here."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return get_user_model().objects.create_user("orga", "", "richtig-geheim")


def login(client, password, username="orga", next_url=""):
    return client.post(
        reverse("login"), {"username": username, "password": password, "next": next_url}
    )


def test_login_page_is_the_apps_own_and_german(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Anmelden" in html and "Benutzername" in html
    assert "css/app.css" in html  # the app's look, not the admin's
    assert "Django" not in html


def test_login_and_logout(client, organiser):
    response = login(client, "richtig-geheim", next_url="/tournaments/new/")
    assert response.status_code == 302 and response["Location"] == "/tournaments/new/"
    assert client.session.get("_auth_user_id") == str(organiser.pk)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_refuses_foreign_next_addresses(client, organiser):
    response = login(client, "richtig-geheim", next_url="https://evil.example/")
    assert response.status_code == 302 and response["Location"] == "/"


def test_wrong_password_says_so_in_german(client, organiser):
    response = login(client, "falsch")
    assert response.status_code == 200
    assert "Benutzername oder Passwort ist falsch" in response.content.decode()


def test_a_run_of_wrong_passwords_blocks_even_the_right_one(client, organiser, settings):
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        assert login(client, "falsch").status_code == 200
    blocked = login(client, "falsch")
    assert blocked.status_code == 429
    assert "Zu viele falsche Passwörter" in blocked.content.decode()
    # Now the right password is refused too, with the same clear message.
    response = login(client, "richtig-geheim")
    assert response.status_code == 429
    assert "auch mit dem richtigen Passwort" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another user name from the same address is not blocked (lock by name and address).
    get_user_model().objects.create_user("schiri", "", "pfeife")
    assert login(client, "pfeife", username="schiri").status_code == 302


def test_the_block_ends_after_the_cool_off(client, organiser, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "falsch")
    assert login(client, "richtig-geheim").status_code == 429
    # What the cool-off does with time: the attempts expire (here: moved into the past).
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time.replace(year=2000)
    )
    assert login(client, "richtig-geheim").status_code == 302


def test_the_block_message_in_english(client, organiser, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "falsch")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = login(client, "richtig-geheim")
    assert response.status_code == 429
    assert "Too many wrong passwords." in response.content.decode()


def test_admin_login_goes_to_the_apps_login(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/admin/"
    response = client.get("/admin/")
    assert response.status_code == 302 and "login" in response["Location"]


def test_base_page_links_to_the_apps_login(client):
    html = client.get("/").content.decode()
    assert 'href="/login/?next=/"' in html
