"""A new installation's first half hour in a real browser, at phone width (390 px) and on a
laptop: an empty database → the home page points to the first-time setup → account and club
→ the next steps → "Neues Turnier" with the club chosen already.

Screenshots go to ``$SCREENSHOT_DIR`` when set (for a person to look at), else to a
temporary directory."""

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, ClubRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}


def shots_dir(tmp_path) -> Path:
    target = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", SIZES)
def test_first_run_from_an_empty_database_to_a_new_tournament(browser, live_server, tmp_path, size):
    out = shots_dir(tmp_path)
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    hint = page.locator(".first-run-hint")
    assert "Erste Einrichtung" in hint.inner_text()
    assert fits(page)
    page.screenshot(path=str(out / f"first-run-home-{size}.png"), full_page=True)
    with page.expect_navigation():
        hint.locator("a").click()
    assert page.url.endswith("/setup/")
    assert page.locator("#id_code").count() == 0  # the live server is this machine
    page.fill("#id_username", "anna")
    page.fill("#id_password", "Kartenspiel-2026")
    page.fill("#id_password_again", "Kartenspiel-2027")  # a slip first
    page.fill("#id_club_name", "Cegofreunde Bräunlingen")
    page.fill("#id_club_short_name", "CF Bräunlingen")
    page.fill("#id_club_town", "Bräunlingen")
    with page.expect_navigation():
        page.click("form.first-run-form button[type=submit]")
    assert "Passwörter sind verschieden" in page.locator(".has-error").inner_text()
    assert not get_user_model().objects.exists()
    assert fits(page)
    page.screenshot(path=str(out / f"first-run-form-{size}.png"), full_page=True)
    page.fill("#id_password", "Kartenspiel-2026")
    page.fill("#id_password_again", "Kartenspiel-2026")
    with page.expect_navigation():
        page.click("form.first-run-form button[type=submit]")

    steps = page.locator(".next-steps")
    assert "Mitgliederliste importieren" in steps.inner_text()
    assert "Neues Turnier" in steps.inner_text()
    assert "anna" in page.locator(".site-header .who").inner_text()  # signed in
    assert fits(page)
    page.screenshot(path=str(out / f"first-run-next-steps-{size}.png"), full_page=True)
    club = Club.objects.get()
    assert ClubRole.objects.filter(user__username="anna", club=club).exists()

    with page.expect_navigation():
        steps.get_by_role("link", name="Neues Turnier").click()
    chosen = page.locator("#id_host_club option:checked")
    assert chosen.inner_text() == "Cegofreunde Bräunlingen"
    assert fits(page)
    page.screenshot(path=str(out / f"first-run-new-tournament-{size}.png"), full_page=True)
    # The setup is gone now.
    page.goto(f"{live_server.url}/setup/")
    assert not page.url.endswith("/setup/")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_from_another_device_the_code_is_asked(browser, live_server, tmp_path, size, settings):
    from clubs.services.setup import issue_setup_code

    # Another device: the live server believes one proxy, which names the device.
    settings.TRUSTED_PROXY_COUNT = 1
    code = issue_setup_code(renew=True)
    out = shots_dir(tmp_path)
    context = browser.new_context(
        locale="de-DE",
        viewport=SIZES[size],
        extra_http_headers={"X-Forwarded-For": "192.168.1.50"},
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/setup/")
    assert "Sitzen Sie am Laptop?" in page.locator("form.first-run-form").inner_text()
    page.fill("#id_code", "AAAA-AAAA" if code != "AAAA-AAAA" else "BBBB-BBBB")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "Kartenspiel-2026")
    page.fill("#id_password_again", "Kartenspiel-2026")
    page.fill("#id_club_name", "Cegofreunde Bräunlingen")
    page.fill("#id_club_short_name", "CF Bräunlingen")
    page.fill("#id_club_town", "Bräunlingen")
    with page.expect_navigation():
        page.click("form.first-run-form button[type=submit]")
    assert "nicht der Code" in page.locator(".has-error").inner_text()
    assert not get_user_model().objects.exists()
    assert fits(page)
    page.screenshot(path=str(out / f"first-run-code-{size}.png"), full_page=True)
    page.fill("#id_code", code.lower())
    page.fill("#id_password", "Kartenspiel-2026")  # password fields come back empty
    page.fill("#id_password_again", "Kartenspiel-2026")
    with page.expect_navigation():
        page.click("form.first-run-form button[type=submit]")
    assert "Mitgliederliste importieren" in page.locator(".next-steps").inner_text()
    assert get_user_model().objects.get().username == "anna"
    context.close()
