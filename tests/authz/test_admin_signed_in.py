"""Issue 28: ``/admin/`` for a signed-in organiser who is no superuser looped between the
admin's login and the app's (ERR_TOO_MANY_REDIRECTS). It answers 403 with a German page that
says the administration is for administrators only; a visitor is sent to the login page, a
superuser enters."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from clubs.models import ClubRole
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def test_a_signed_in_organiser_is_told_and_not_sent_round_in_circles():
    user = get_user_model().objects.create_user("orga", password="pw")
    ClubRole.objects.create(user=user, club=ClubFactory(), role=ClubRole.Role.ORGANISER)
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "de"
    for url in ("/admin/", "/admin/tournaments/deal/", "/admin/login/?next=/admin/"):
        response = client.get(url, follow=True)
        assert len(response.redirect_chain) <= 2, response.redirect_chain
        assert response.status_code == 403, url
        html = response.content.decode()
        assert "Kein Zugriff" in html and "nur für Administratoren" in html


def test_visitors_go_to_the_login_and_superusers_enter():
    assert Client().get("/admin/")["Location"].startswith("/admin/login/")
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "", "pw"))
    assert client.get("/admin/").status_code == 200
