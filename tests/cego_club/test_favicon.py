"""Every page names the app's icon (SVG, a 32 px PNG, the phones' touch icon), and
/favicon.ico leads to the ICO; in venue mode the collected, hashed files are served."""

import re
import urllib.request
from io import BytesIO
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from PIL import Image

from tests.factories import TournamentFactory
from tests.servers import clean_env, http_get, start_venue

ICONS = re.compile(r'<link rel="(icon|apple-touch-icon)" href="([^"]+)"')


def icon_links(page: str) -> list[tuple[str, str]]:
    return ICONS.findall(page)


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["home", "projector"])
def test_pages_link_the_icons(client, page):
    url = (
        reverse("tournaments:home")
        if page == "home"
        else reverse("tournaments:projector", args=[TournamentFactory().pk])
    )
    links = icon_links(client.get(url).content.decode())
    assert [href.rsplit("/", 1)[-1] for _rel, href in links] == [
        "favicon.svg",
        "favicon-32.png",
        "apple-touch-icon.png",
    ]


def test_the_icon_files():
    svg = Path(finders.find("img/favicon.svg")).read_text(encoding="utf-8")
    assert svg.startswith("<svg") and 'viewBox="0 0 64 64"' in svg
    assert Image.open(finders.find("img/favicon-32.png")).size == (32, 32)
    assert Image.open(finders.find("img/apple-touch-icon.png")).size == (180, 180)
    ico = Image.open(finders.find("img/favicon.ico"))
    assert ico.format == "ICO" and {(16, 16), (32, 32)} <= set(ico.info["sizes"])


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith("favicon.ico")


@pytest.mark.servers
def test_venue_mode_serves_the_hashed_icons(tmp_path):
    server = start_venue(
        tmp_path / "day",
        log=tmp_path / "venue.log",
        env=clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings"),
    )
    try:
        status, page = http_get(server.url + "/")
        assert status == 200
        links = icon_links(page)
        assert len(links) == 3
        for _rel, href in links:  # collected with a hash in the name (manifest storage)
            assert re.search(r"\.[0-9a-f]{12}\.(svg|png)$", href), href
            with urllib.request.urlopen(server.url + href, timeout=30) as response:
                body = response.read()
                kind = response.headers["Content-Type"]
            assert kind.startswith("image/svg+xml" if href.endswith(".svg") else "image/png")
            if href.endswith(".png"):
                Image.open(BytesIO(body)).verify()
        with urllib.request.urlopen(server.url + "/favicon.ico", timeout=30) as response:
            assert re.search(r"/static/img/favicon\.[0-9a-f]{12}\.ico$", response.url)
            assert Image.open(BytesIO(response.read())).format == "ICO"
    finally:
        server.stop()
