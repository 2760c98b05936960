"""The handbook's pictures, taken by walking the organiser's day in a real browser on a fresh
database: the first run, the member list, a new tournament, registration and check-in, a draw
with a player count that does not fit, a score sheet, two phones at a table, closing a round,
the prize money and the tournament's end.

A run writes the pictures to a temporary folder, so that the suite leaves the checkout as it
found it (the tables' QR codes and the finishing time differ from run to run). After a change
to a page the handbook shows, take them again into ``handbook/static/handbook/screens/`` and
commit them: ``CEGO_HANDBOOK_SCREENS=write .venv/bin/python -m pytest
tests/browser/test_handbook_screens.py``. They are cut to the part the handbook talks
about and stored with a small palette to keep the repository light."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from clubs.models import Club, Player
from handbook.views import SCREENS
from tests.browser.phones import PHONE_AGENTS
from tests.browser.test_first_run import fits
from tournaments.models import Deal, Round, Table, Tournament
from tournaments.services.paper_sheets import enter_totals
from tournaments.services.phone_entry import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN_DIR = Path(__file__).resolve().parents[2] / "handbook" / "static" / "handbook" / "screens"
# Where this run writes its pictures: the handbook's folder only when asked to.
target_dir = SCREEN_DIR
LAPTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
# The laptop's address in the hall, as the venue command sets it (the test server itself is
# localhost, which the overview would warn about).
HALL_ADDRESS = "http://192.168.1.20:8000"

MEMBERS = [
    ("Kaltenbach", "Anna"),
    ("Faller", "Bernd"),
    ("Schwär", "Lena"),
    ("Kienzler", "Rosa"),
    ("Weißhaar", "Albert"),
    ("Fehrenbach", "Hubert"),
    ("Dilger", "Lioba"),
    ("Hettich", "Margarete"),
    ("Ketterer", "Franz"),
    ("Dold", "Ursula"),
    ("Furtwängler", "Klaus"),
    ("Scherzinger", "Paul"),
    ("Wehrle", "Erika"),
    ("Löffler", "Josef"),
]
# Two members written with the club's old name, two of a club the registry does not know.
OLD_SPELLING = [("Straub", "Maria"), ("Heizmann", "Georg")]
OTHER_CLUB = [("Kuttruff", "Helga"), ("Benitz", "Theo")]


def member_list() -> bytes:
    lines = ["Name;Vorname;Verein;Jahrgang"]
    lines += [f"{last};{first};Cegofreunde Bräunlingen;1961" for last, first in MEMBERS]
    lines += [f"{last};{first};Cego-Club Bräunlingen;1958" for last, first in OLD_SPELLING]
    lines += [f"{last};{first};Cegofreunde Hüfingen;1970" for last, first in OTHER_CLUB]
    return ("\n".join(lines) + "\n").encode("utf-8")


def save(png: bytes, name: str) -> None:
    """Store a screenshot small: a palette of 64 colours (a screen of text and a few colours
    needs no more), no dithering, optimised."""
    assert name in SCREENS, f"{name} is not in handbook.views.SCREENS"
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image = image.quantize(colors=64, dither=Image.Dither.NONE)
    image.save(target_dir / f"{name}.png", optimize=True)


# The right edge of the text and controls inside the first element a selector names, down to
# a height on the page.
CONTENT_RIGHT = """([selector, bottom]) => {
  const root = document.querySelector(selector);
  let right = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    if (!walker.currentNode.textContent.trim()) continue;
    range.selectNodeContents(walker.currentNode);
    for (const r of range.getClientRects()) {
      if (r.top < bottom && r.width > 0) right = Math.max(right, r.right);
    }
  }
  for (const el of root.querySelectorAll("input, select, textarea, button, img, .button")) {
    const r = el.getBoundingClientRect();
    if (r.top < bottom && r.width > 0) right = Math.max(right, r.right);
  }
  return right;
}"""


def shoot(page, name: str, selector: str = "main", *, max_height: int = 760) -> None:
    """The part of the page ``selector`` names (at most ``max_height`` pixels of it)."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on the page for {name}"
    width = page.viewport_size["width"]
    x = max(box["x"] - 8, 0)
    height = min(box["height"] + 16, max_height)
    # As wide as what is written there (text, fields, buttons, pictures), not the whole
    # column: the handbook shows the picture at a phone's width too.
    right = page.evaluate(CONTENT_RIGHT, [selector, box["y"] + height])
    clip = {
        "x": x,
        "y": max(box["y"] - 8, 0),
        "width": min(max(right + 16 - x, 320), box["width"] + 16, width - x),
        "height": height,
    }
    save(page.screenshot(clip=clip, full_page=True, animations="disabled", caret="hide"), name)


def click_and_wait(page, selector: str) -> None:
    with page.expect_navigation():
        page.locator(selector).first.click()


def test_the_organisers_day_for_the_handbook(
    browser, live_server, settings, pdftoppm, tmp_path, django_user_model, monkeypatch
):
    from clubs.services.setup import issue_setup_code

    # Fixed draw seeds, so a run changes the committed pictures only where the app changed
    # (the tables' QR codes and the finishing time still differ from run to run).
    seeds = iter(range(2026, 2100))
    monkeypatch.setattr("tournaments.draw.new_seed", lambda: next(seeds))
    if os.environ.get("CEGO_HANDBOOK_SCREENS") != "write":
        monkeypatch.setattr(f"{__name__}.target_dir", tmp_path / "screens")
    target_dir.mkdir(parents=True, exist_ok=True)
    settings.PUBLIC_BASE_URL = HALL_ADDRESS
    url = live_server.url

    # Erster Start, from another device: the one-time code is asked.
    settings.TRUSTED_PROXY_COUNT = 1
    issue_setup_code(renew=True)
    other = browser.new_context(
        locale="de-DE", viewport=PHONE, extra_http_headers={"X-Forwarded-For": "192.168.1.50"}
    )
    phone_setup = other.new_page()
    phone_setup.goto(f"{url}/setup/")
    assert phone_setup.locator("#id_code").count() == 1
    shoot(phone_setup, "erster-start-code", "form.first-run-form fieldset", max_height=600)
    other.close()
    settings.TRUSTED_PROXY_COUNT = 0

    # Erster Start on the laptop itself: the home page points to the setup, no code.
    laptop = browser.new_context(locale="de-DE", viewport=LAPTOP)
    page = laptop.new_page()
    page.goto(f"{url}/")
    shoot(page, "start-hinweis", ".first-run-hint")
    click_and_wait(page, ".first-run-hint a")
    assert page.locator("#id_code").count() == 0
    page.fill("#id_username", "anna")
    page.fill("#id_password", "Kartenspiel-2026")
    page.fill("#id_password_again", "Kartenspiel-2026")
    page.fill("#id_club_name", "Cegofreunde Bräunlingen")
    page.fill("#id_club_short_name", "CF Bräunlingen")
    page.fill("#id_club_town", "Bräunlingen")
    shoot(page, "erster-start", "form.first-run-form")
    click_and_wait(page, "form.first-run-form button[type=submit]")
    assert "Mitgliederliste importieren" in page.locator(".next-steps").inner_text()
    shoot(page, "naechste-schritte", "ol.next-steps")
    home = Club.objects.get()

    # Mitgliederliste: the two unknown spellings are answered in the preview.
    click_and_wait(page, ".next-steps a[href$='/players/import/']")
    page.set_input_files(
        "input[type=file]",
        {"name": "mitglieder.csv", "mimeType": "text/csv", "buffer": member_list()},
    )
    click_and_wait(page, "form.stacked-form button[type=submit]")
    assert page.locator(".unknown-club").count() == 2
    old = page.locator(".unknown-club", has_text="Cego-Club Bräunlingen")
    assert "(Vorschlag)" in old.locator("select option:checked").inner_text()
    hufingen = page.locator(".unknown-club", has_text="Cegofreunde Hüfingen")
    hufingen.locator("select").select_option("create")
    shoot(page, "import-vereine", ".unknown-clubs")
    click_and_wait(page, ".unknown-clubs button[type=submit]")
    click_and_wait(page, ".confirm-import button[name=commit][value='1']")
    assert "Import fertig: 18 neu" in page.content()
    assert home.memberships.count() == 16
    shoot(page, "import-fertig", max_height=420)

    # Neues Turnier, from the championship's format.
    page.goto(f"{url}/")
    click_and_wait(page, ".next-steps a[href$='/tournaments/new/']")
    click_and_wait(page, ".preset-list a[href='?preset=schwarzwaldmeisterschaft']")
    page.select_option("#id_host_club", label="Cegofreunde Bräunlingen")
    page.fill("#id_name", "Herbstturnier")
    page.fill("#id_date", "2026-11-28")
    page.fill("#id_venue", "Gasthaus Krone")
    page.fill("#id_entry_fee", "10")
    shoot(page, "turnier-anlegen", max_height=820)
    click_and_wait(page, "form.stacked-form button[type=submit].primary")
    tournament = Tournament.objects.get()
    base = f"{url}/tournaments/{tournament.pk}"

    # Anmeldung: all of the club's members, three of whom cancel.
    page.goto(f"{base}/registration/")
    click_and_wait(page, "form.register-source button")
    assert tournament.entries.count() == 16
    for _ in range(3):
        click_and_wait(page, "form[action$='/remove/'] button")
    assert tournament.entries.count() == 13
    shoot(page, "anmeldung")

    # Einlass: everyone arrives and pays.
    page.goto(f"{base}/checkin/")
    for done in range(13):
        click_and_wait(page, "button[name=action][value=check_in]")
        click_and_wait(page, "button[name=action][value=pay]")
        if done == 8:
            shoot(page, "einlass")
    assert tournament.entries.filter(checked_in=True, fee_paid=True).count() == 13

    # Auslosung: 13 players do not fit tables of four.
    page.goto(f"{base}/")
    click_and_wait(page, "main a.button[href$='/rounds/1/draw/']")
    assert page.locator("#option-fives").count() == 1
    assert page.locator("#option-fill-ins input[name=fill_in]").count() == 3
    shoot(page, "auslosung-spielerzahl", max_height=900)
    click_and_wait(page, "#option-fives button")
    assert page.locator(".seat-table").count() == 3
    # checked, then released: only now do phones and the players' pages show the seats
    assert page.locator("#release button").count() == 1
    shoot(page, "auslosung", max_height=700)
    click_and_wait(page, "#release button")
    assert page.locator("#release button").count() == 0

    # The overview with the round's printouts.
    page.goto(f"{base}/")
    assert page.locator("#qr-loopback").count() == 0
    shoot(page, "uebersicht", max_height=820)

    # Spielblätter: the first page of the round's sheets, as printed.
    response = page.request.get(f"{base}/rounds/1/print/score-sheets.pdf")
    assert response.ok and response.body().startswith(b"%PDF")
    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(response.body())
    subprocess.run(
        [
            pdftoppm,
            "-png",
            "-r",
            "90",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(tmp_path / "sheet"),
        ],
        check=True,
    )
    sheet = Image.open(tmp_path / "sheet.png")
    top = sheet.crop((0, 0, sheet.width, int(sheet.height * 0.36)))
    buffer = io.BytesIO()
    top.save(buffer, format="PNG")
    save(buffer.getvalue(), "spielblatt")

    # Handys: table 1 by its short address; one player enters, another confirms.
    round_1 = Round.objects.get(tournament=tournament, number=1)
    tables = list(Table.objects.filter(round=round_1).order_by("number"))
    first = next(t for t in tables if t.seats.count() == 4)
    # two phones, both on 127.0.0.1 here: told apart by their browsers
    phone_a = browser.new_context(locale="de-DE", viewport=PHONE, user_agent=PHONE_AGENTS[0])
    a = phone_a.new_page()
    a.goto(f"{url}/t/{first.short_code}")
    assert f"/t/{first.token}/" in a.url
    assert fits(a)
    save(a.screenshot(animations="disabled"), "handy-platz")
    click_and_wait(a, "button[name=position][value='0']")
    a.select_option("[name=contract]", "eine")
    a.select_option("[name=declarer]", "2")
    a.fill("[name=declarer_points]", "41")
    a.wait_for_selector("#preview .preview-scores")
    assert fits(a)
    # the form from its heading down, with the line naming the player above it
    a.locator("[name=contract]").evaluate(
        "el => { el.closest('form').scrollIntoView({block: 'start'}); window.scrollBy(0, -90); }"
    )
    save(a.screenshot(animations="disabled", caret="hide"), "handy-spiel")
    click_and_wait(a, "button[type=submit].primary")
    assert Deal.objects.get(table=first, number=1).status == Deal.Status.PENDING
    phone_b = browser.new_context(locale="de-DE", viewport=PHONE, user_agent=PHONE_AGENTS[1])
    b = phone_b.new_page()
    b.goto(f"{url}/t/{first.token}/")
    click_and_wait(b, "button[name=position][value='1']")
    b.evaluate("document.querySelector('#pending-1').scrollIntoView({block: 'center'})")
    assert fits(b)
    save(b.screenshot(animations="disabled"), "handy-bestaetigen")
    click_and_wait(b, "#pending-1 button[type=submit]")
    assert Deal.objects.get(table=first, number=1).status == Deal.Status.CONFIRMED
    phone_a.close()
    phone_b.close()

    # The rest of round 1 comes in at the desk (not the handbook's subject): table 1 deal by
    # deal, the second table as round sums; the third stays open for now.
    user = django_user_model.objects.get(username="anna")
    for number in range(2, tournament.deals_per_round + 1):
        enter_deal(
            table=first,
            number=number,
            inputs={"contract": "eine", "declarer": number % 4, "declarer_points": 41},
            user=user,
        )
    others = [t for t in tables if t != first]
    for table in others[:1]:
        size = table.seats.count()
        enter_totals(table=table, totals=[30 * (size - 1)] + [-30] * (size - 1), user=user)

    # Runde abschließen: refused while a table is open, then closed.
    page.goto(f"{base}/rounds/1/entry/")
    click_and_wait(page, "form[action$='/state/'] button.primary")
    assert Round.objects.get(pk=round_1.pk).state != Round.State.CLOSED
    shoot(page, "runde-offen", max_height=900)
    for table in others[1:]:
        size = table.seats.count()
        enter_totals(table=table, totals=[20 * (size - 1)] + [-20] * (size - 1), user=user)
    page.goto(f"{base}/rounds/1/entry/")
    shoot(page, "runde", max_height=900)
    click_and_wait(page, "form[action$='/state/'] button.primary")
    assert Round.objects.get(pk=round_1.pk).state == Round.State.CLOSED

    # Round 2: drawn and played (round sums), closed.
    page.goto(f"{base}/")
    click_and_wait(page, "main a.button[href$='/rounds/2/draw/']")
    click_and_wait(page, "button[name=action][value=draw]")
    click_and_wait(page, "#release button")
    round_2 = Round.objects.get(tournament=tournament, number=2)
    for index, table in enumerate(Table.objects.filter(round=round_2).order_by("number")):
        size = table.seats.count()
        amount = 10 * (index + 1)
        enter_totals(table=table, totals=[amount * (size - 1)] + [-amount] * (size - 1), user=user)
    page.goto(f"{base}/rounds/2/entry/")
    click_and_wait(page, "form[action$='/state/'] button.primary")
    assert Round.objects.get(pk=round_2.pk).state == Round.State.CLOSED

    # Preisgeld.
    page.goto(f"{base}/prize-money/")
    page.fill("[name=shares]", "40; 25; 15")
    click_and_wait(page, "form.stacked-form button.primary")
    assert Tournament.objects.get(pk=tournament.pk).prize_shares_cents == [4000, 2500, 1500]
    shoot(page, "preisgeld", max_height=900)

    # Turnier abschließen.
    page.goto(f"{base}/")
    click_and_wait(page, "#finish button.primary")
    assert Tournament.objects.get(pk=tournament.pk).finished_at is None  # asked first
    click_and_wait(page, ".finish-confirm button.primary")
    assert Tournament.objects.get(pk=tournament.pk).finished_at is not None
    shoot(page, "abschluss", "#finish")
    laptop.close()

    taken = {path.stem for path in target_dir.glob("*.png")}
    assert set(SCREENS) <= taken, f"not taken: {sorted(set(SCREENS) - taken)}"
    assert Player.objects.count() == 18
