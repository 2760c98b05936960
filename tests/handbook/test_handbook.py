"""The handbook page (/hilfe/): public, German, every chapter an anchor, every picture one the
browser tests take; and the pages of the day link to anchors that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from handbook.views import CHAPTERS, SCREENS
from tests.authz.conftest import client_for, make_world
from tournaments.models import Round

SCREEN_DIR = Path(__file__).resolve().parents[2] / "handbook" / "static" / "handbook" / "screens"
HANDBOOK = "/hilfe/"


def ids_of(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def help_links(html: str) -> list[str]:
    """The anchors of the links to the handbook on a page."""
    return re.findall(rf'href="{HANDBOOK}#([^"]*)"', html)


@pytest.fixture
def handbook_html(client) -> str:
    response = client.get(HANDBOOK)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_handbook_is_public_and_german(handbook_html):
    assert reverse("handbook:handbook") == HANDBOOK
    assert '<html lang="de">' in handbook_html
    assert "<h1>Hilfe: der Turniertag</h1>" in handbook_html
    assert "This handbook is written in German" not in handbook_html
    ids = ids_of(handbook_html)
    for anchor, title in CHAPTERS:
        assert anchor in ids, anchor
        assert f'href="#{anchor}">{title}</a>' in handbook_html  # the table of contents


@pytest.mark.django_db
def test_in_english_a_note_says_the_handbook_is_german(client):
    client.post(reverse("set_language"), {"language": "en"})
    html = client.get(HANDBOOK).content.decode()
    assert "This handbook is written in German." in html
    assert '<article class="handbook" lang="de">' in html
    assert "<h1>Hilfe: der Turniertag</h1>" in html


@pytest.mark.django_db
def test_every_picture_is_one_the_browser_tests_take_and_exists(handbook_html):
    named = re.findall(r'src="/static/handbook/screens/([^"]+)\.png"', handbook_html)
    assert sorted(named) == sorted(SCREENS), "handbook pictures and SCREENS differ"
    for name in named:
        assert (SCREEN_DIR / f"{name}.png").stat().st_size > 1000, name
    # every picture has a German description
    for tag in re.findall(r"<img [^>]*>", handbook_html):
        alt = re.search(r'alt="([^"]*)"', tag)
        assert alt and len(alt.group(1)) > 15, tag
    # nothing from outside the app: the page reads at the venue without the internet
    assert not re.search(r'(src|href)="(https?:)?//', handbook_html)


@pytest.mark.django_db
def test_the_header_links_to_the_handbook(client):
    html = client.get(reverse("tournaments:home")).content.decode()
    assert f'<a class="help-link" href="{HANDBOOK}">Hilfe</a>' in html


@pytest.mark.django_db
def test_the_pages_of_the_day_link_to_existing_anchors(client, handbook_html):
    anchors = ids_of(handbook_html)
    # The first run, while nobody has an account.
    first_run = client.get(reverse("clubs:first_run")).content.decode()
    assert help_links(first_run) == ["erster-start"]

    world = make_world()
    organiser = client_for(world, "organiser")
    day = world.day
    round_number = Round.objects.filter(tournament=day).order_by("number").first().number
    pages = {
        reverse("clubs:player_import"): "import",
        reverse("tournaments:round_draw", kwargs={"pk": day.pk, "round": round_number}): (
            "auslosung"
        ),
        reverse(
            "tournaments:desk_round", kwargs={"pk": day.pk, "round_number": round_number}
        ): "runde",
        reverse("tournaments:checkin", kwargs={"pk": day.pk}): "anmeldung",
        reverse("treasury:prize_money", kwargs={"pk": day.pk}): "preise",
        reverse("tournaments:tournament_detail", kwargs={"pk": day.pk}): "turnier",
        reverse("seasons:season_rules", kwargs={"pk": world.season.pk}): "saison",
    }
    for url, anchor in pages.items():
        response = organiser.get(url)
        assert response.status_code == 200, url
        assert help_links(response.content.decode()) == [anchor], url
        assert anchor in anchors, anchor


@pytest.mark.django_db
def test_after_an_update_the_handbook_says_what_an_older_program_does(handbook_html):
    update = handbook_html.split('id="update"', 1)[1].split("</section>", 1)[0]
    assert "Sicherung" in update and "CHANGELOG.md" in update and "cego-club --version" in update
    assert "Diese Daten sind von Version" in update and "ändert nichts" in update


def test_who_can_still_win_and_the_press_report_are_explained(handbook_html, client):
    """Issue 41: what "the final" is, the rules' bounds, and that youngest and oldest are in
    the press report only with the player's consent; the press page links there."""
    chances = handbook_html.split('id="wer-kann-gewinnen"', 1)[1].split("<h3", 1)[0]
    for phrase in ("Spitzenreiter", "nicht mehr einholbar", "Cup-Punkte", "letzte Turnier"):
        assert phrase in chances
    press = handbook_html.split('id="pressebericht"', 1)[1].split("</section>", 1)[0]
    assert "Text kopieren" in press and "zugestimmt" in press and "Textdatei" in press
    assert 'href="#juengste-aelteste"' in press


def test_hiding_the_ceremony_its_remote_raffle_and_the_consent_are_explained(handbook_html):
    """Issue 41 item 2: hide and reveal, the ceremony step by step with its remote, the
    raffle's seed and log, and where the consent to name the youngest and oldest is set."""
    ceremony = handbook_html.split('id="siegerehrung"', 1)[1].split("<h3", 1)[0]
    for phrase in (
        "Siegerehrung starten",
        "ab Runde",
        "Fernbedienung (Handy)",
        "Pfeil rechts",
        "Startwert",
        "Protokoll",
        "Jüngste im Feld",
        "darf als Jüngste/r oder Älteste/r im Feld genannt werden",
        "nicht zugestimmt",
    ):
        assert phrase in ceremony, phrase


@pytest.mark.django_db
def test_installing_is_the_windows_download_checked_unpacked_and_double_clicked(handbook_html):
    setup = handbook_html.split('id="einrichten"', 1)[1].split("</section>", 1)[0]
    install = setup.split("Einmal zu Hause installieren", 1)[1].split("Andere Wege", 1)[0]
    steps = [
        "CegoClub-Windows-x64-",  # download
        "ssh-keygen -Y verify -f allowed_signers",  # check
        'Good "cego-club" signature',
        "Alle extrahieren",  # unpack
        "Cego Club starten",  # double-click
        "Zugriff zulassen",  # firewall
        "Neue Version",  # update
    ]
    for step in steps:
        assert step in install, step
    positions = [install.index(step) for step in steps]
    assert positions == sorted(positions)  # in the order a secretary goes
    # python.org and the starter script of a source copy only among the other ways
    assert "start_cego_club.py" not in install and "python.org" not in setup
    assert "start_cego_club.py" in setup.split("Andere Wege", 1)[1]
    backups = handbook_html.split('id="sicherung"', 1)[1].split("</section>", 1)[0]
    assert "start_cego_club.py" not in backups and r".\cego-club.cmd backup" in backups
