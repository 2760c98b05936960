"""Issue 28 in a real browser, on a 390-px phone and a 1280-px laptop: the error pages are
German in the site's look and fit the screen; ``/admin/`` for a signed-in organiser who is
no superuser is such a page (403) instead of a redirect loop; the policy refuses nothing."""

from __future__ import annotations

import pytest

from clubs.models import ClubRole
from tests.browser.test_day_without_friction import SIZES, page_does_not_scroll_sideways
from tests.factories import ClubFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.urls("tests.cego_club.error_urls"),
]

WATCH_CSP = """window.__cspRefused = [];
document.addEventListener("securitypolicyviolation", e => window.__cspRefused.push(
  e.effectiveDirective + " " + (e.blockedURI || "inline")));"""

PAGES = [
    ("/test-errors/400/", 400, "Ungültige Anfrage"),
    ("/test-errors/403/", 403, "Kein Zugriff"),
    ("/gibt-es-nicht/", 404, "Nicht gefunden"),
    ("/test-errors/500/", 500, "Fehler auf dem Server"),
]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_error_pages_in_german_and_the_admin_refuses_without_a_loop(
    browser, live_server, django_user_model, settings, size
):
    settings.DEBUG = False
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    for address, status, heading in PAGES:
        response = page.goto(f"{live_server.url}{address}")
        assert response.status == status, address
        assert page.locator("h1").inner_text() == heading
        assert page.locator("header.site-header").is_visible()
        assert page.get_by_role("link", name="Zu den Turnieren").is_visible()
        assert page_does_not_scroll_sideways(page), address
        assert page.evaluate("window.__cspRefused") == [], address

    user = django_user_model.objects.create_user("orga", password="geheim")
    ClubRole.objects.create(user=user, club=ClubFactory(), role=ClubRole.Role.ORGANISER)
    page.goto(f"{live_server.url}/login/?next=/admin/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    # it used to loop (ERR_TOO_MANY_REDIRECTS): a clear page instead
    response = page.goto(f"{live_server.url}/admin/")
    assert response.status == 403
    assert page.locator("h1").inner_text() == "Kein Zugriff"
    assert "nur für Administratoren" in page.locator("main").inner_text()
    assert page_does_not_scroll_sideways(page)
    assert page.evaluate("window.__cspRefused") == []
    context.close()
