"""The handbook (/hilfe/) in a real browser on a 390-px phone and a 1280-px laptop: German,
nothing runs off the side, every picture loads (HTTP 200 from the test server), the table of
contents and the pages' "Hilfe zu …" links land on their chapter.

Screenshots go to ``$SCREENSHOT_DIR`` when set, else to a temporary directory."""

from __future__ import annotations

import pytest

from handbook.views import CHAPTERS, SCREENS
from tests.browser.test_first_run import SIZES, fits, shots_dir
from tests.browser.waiting import wait_for_js

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_view(page, selector: str) -> bool:
    """The element's top is on the screen (an anchor jump put it there)."""
    return page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                    return r.top >= -1 && r.top < window.innerHeight / 2; }""",
        selector,
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_handbook_reads_on_a_phone_and_a_laptop(browser, live_server, tmp_path, size):
    out = shots_dir(tmp_path)
    page = browser.new_context(locale="de-DE", viewport=SIZES[size]).new_page()
    page.goto(f"{live_server.url}/")
    with page.expect_navigation():
        page.locator(".site-header a.help-link").click()
    assert page.url == f"{live_server.url}/hilfe/"
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("h1").inner_text() == "Hilfe: der Turniertag"
    assert page.locator(".hb-language-note").count() == 0

    # Every picture is there and loaded.
    images = page.locator(".handbook img")
    assert images.count() == len(SCREENS)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    for index in range(images.count()):
        image = images.nth(index)
        src = image.get_attribute("src")
        assert page.request.get(f"{live_server.url}{src}").status == 200, src
        image.scroll_into_view_if_needed()
        wait_for_js(page, "img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        box = image.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"] + 1, src
    assert fits(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out / f"handbook-top-{size}.png"))
    page.screenshot(path=str(out / f"handbook-{size}.png"), full_page=True)

    # The table of contents jumps to each chapter.
    for anchor, title in CHAPTERS:
        page.evaluate("window.scrollTo(0, 0)")
        page.locator(f".hb-toc a[href='#{anchor}']").click()
        wait_for_js(page, "a => location.hash === '#' + a", arg=anchor)
        assert in_view(page, f"#{anchor} h2"), anchor
        assert title in page.locator(f"#{anchor} h2").inner_text()
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_page_of_the_day_links_to_its_chapter(browser, live_server, size):
    page = browser.new_context(locale="de-DE", viewport=SIZES[size]).new_page()
    page.goto(f"{live_server.url}/setup/")  # the first run: nobody has an account yet
    link = page.get_by_role("link", name="Hilfe zum ersten Start")
    with page.expect_navigation():
        link.click()
    assert page.url == f"{live_server.url}/hilfe/#erster-start"
    page.wait_for_load_state("load")
    assert in_view(page, "#erster-start h2")
    page.context.close()


def test_in_english_the_page_says_it_is_german(browser, live_server):
    page = browser.new_context(locale="en-GB", viewport=SIZES["phone"]).new_page()
    page.goto(f"{live_server.url}/hilfe/")
    with page.expect_navigation():
        page.click(".language-switch button[value=en]")
    assert page.locator(".hb-language-note").inner_text() == "This handbook is written in German."
    assert page.locator(".site-header a.help-link").inner_text() == "Help"
    assert page.locator("article.handbook").get_attribute("lang") == "de"
    assert fits(page)
    page.context.close()


def test_the_handbook_prints_without_the_sites_controls(browser, live_server, tmp_path, pdftoppm):
    import subprocess

    out = shots_dir(tmp_path)
    page = browser.new_context(locale="de-DE", viewport=SIZES["laptop"]).new_page()
    page.goto(f"{live_server.url}/hilfe/")
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator(".hb-top").first.is_visible()
    assert page.locator("#auslosung h2").is_visible()
    # browsers print no backgrounds by default: the terminal's text is dark on paper
    colour = page.locator(".hb-terminal").first.evaluate("el => getComputedStyle(el).color")
    assert colour == "rgb(0, 0, 0)"
    pdf = out / "handbook.pdf"
    page.pdf(path=str(pdf), format="A4", margin={"top": "15mm", "bottom": "15mm"})
    subprocess.run(
        [pdftoppm, "-png", "-r", "40", str(pdf), str(out / "handbook-print")], check=True
    )
    pages = sorted(out.glob("handbook-print-*.png"))
    assert 8 <= len(pages) <= 30, len(pages)
    page.context.close()
