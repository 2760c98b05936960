"""Issue 28 (security audit, low): the error pages were Django's bare English ones. 400, 403,
404 and 500 (and the CSRF failure) are German pages in the site's look, and every answer
carries a Content-Security-Policy that allows the site's own scripts and styles only."""

import pytest
from django.test import Client

from cego_club.platform.csp import DEFAULT_POLICY

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.cego_club.error_urls")]

PAGES = {
    "/test-errors/400/": (400, "Ungültige Anfrage"),
    "/test-errors/403/": (403, "Kein Zugriff"),
    "/gibt-es-nicht/": (404, "Nicht gefunden"),
    "/test-errors/500/": (500, "Fehler auf dem Server"),
}


@pytest.mark.parametrize("address", PAGES)
def test_error_pages_are_german_in_the_sites_look(address, settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    response = client.get(address)
    status, heading = PAGES[address]
    html = response.content.decode()
    assert response.status_code == status
    assert f"<h1>{heading}</h1>" in html
    assert '<html lang="de">' in html and "css/app.css" in html and 'class="site-header"' in html
    assert "Zu den Turnieren" in html
    for english in ("Bad Request", "Server Error", "Not Found", "Forbidden"):
        assert english not in html
    assert response["Content-Security-Policy"] == DEFAULT_POLICY


def test_a_form_without_its_csrf_token_gets_a_german_page():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/login/", {"username": "x", "password": "y"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "<h1>Formular abgelaufen</h1>" in html and "css/app.css" in html


def test_every_page_carries_the_policy(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert "frame-ancestors 'none'" in policy and "img-src 'self' data:" in policy
