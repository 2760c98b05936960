"""Tariff cards: the page (German by default, English on request) and the one-page A4 PDF."""

import io
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin
from rules.tariff import tariff_card

pytestmark = pytest.mark.django_db


def page(client, slug: str, language: str = "de") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("rules:tariff_card", args=[slug]))
    assert response.status_code == 200
    return response.content.decode()


def pdf_text(
    client, slug: str, pdftotext: str, tmp_path: Path, language: str = "de", layout: bool = True
) -> str:
    """The PDF's text: in its layout (a table row on one line), or in reading order with
    whitespace collapsed (a name wrapped in a narrow column in one piece)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("printing:tariff_card_pdf", args=[slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pdf = tmp_path / f"{slug}.pdf"
    pdf.write_bytes(response.content)
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1, f"{slug}: {len(reader.pages)} pages"
    box = reader.pages[0].mediabox
    assert (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)) == (210, 297)
    options = ["-layout"] if layout else []
    out = subprocess.run(
        [pdftotext, *options, str(pdf), "-"], capture_output=True, check=True, text=True
    )
    if layout:
        return out.stdout
    return " ".join(out.stdout.split())


# ---------------------------------------------------------------- the card's content


@pytest.mark.parametrize("slug", BUILTIN_SLUGS)
def test_every_assumption_is_on_the_card_in_both_languages(slug):
    source = load_builtin(slug)
    for language in ("de", "en"):
        card = tariff_card(source, language)
        texts = [note.text for note in card.assumptions]
        assert texts == [getattr(a, language) for a in source.assumptions]
        attached = [
            note.number
            for row in card.facts + [r for s in card.sections for r in (*s.rules, *s.rows)]
            for note in row.notes
        ]
        assert sorted(attached) == list(range(1, len(source.assumptions) + 1))


def test_assumptions_sit_next_to_the_value_they_concern():
    card = tariff_card(load_builtin("bb2013"), "en")
    normal = next(s for s in card.sections if s.key == "normal")
    eine = next(r for r in normal.rows if r.cells[0] == "Eine (One-er)")
    assert [n.param for n in eine.notes] == ["contracts.eine.value"]
    one_pip = next(r for r in normal.rows if r.cells[0] == "Eine Leere (One Pip)")
    assert one_pip.notes == []  # the one printed value, not an assumption
    tables = next(s for s in card.sections if s.key == "counting")
    five = next(r for r in tables.rows if r.cells[0] == "Table of 5")
    assert [n.param for n in five.notes] == ["tables.5.sitting_out_scores", "tables.5.tricks"]


def test_swm_fach_table():
    card = tariff_card(load_builtin("swm"), "en")
    amounts = next(s for s in card.sections if s.key == "amounts")
    assert amounts.headers[:3] == ["W (winning side)", "Fach", "×1: Cego, Solo"]
    assert amounts.headers[-1] == "Solo won (1×2)"
    assert [r.cells[0] for r in amounts.rows] == [
        "40–44", "45–49", "50–54", "55–59", "60–64", "65–69", "70–74", "75–79"
    ]  # fmt: skip
    # printed: Halbe lost 34:45 -> 2 Fach -> 20; Eine won 41:38 -> 1 Fach -> 15 -> 20
    assert amounts.rows[1].cells[1:4] == ["2", "10", "20"]
    assert amounts.rows[0].cells[4] == "20"
    assert amounts.rows[0].cells[-1] == "20"  # Solo won, 1 Fach: 10, doubled
    assert amounts.rows[-1].cells[1:] == ["8", "40", "80", "120", "160", "200", "240", "280", "80"]


def test_dreierles_steps_table_and_bb2013_bands():
    card = tariff_card(load_builtin("dreierles"), "de")
    amounts = next(s for s in card.sections if s.key == "amounts")
    assert "×2: Zweier" in amounts.headers
    assert amounts.rows[0].cells == ["35–40", "1", "1", "2", "3", "4"]
    assert amounts.rows[2].cells == ["46–50", "3", "3", "6", "9", "12"]  # Zweier 46 -> 6
    bands = next(
        s for s in tariff_card(load_builtin("bb2013"), "en").sections if s.key == "amounts"
    )
    assert bands.rows[1].cells[1:] == [
        "−8", "−7", "−6", "−5", "−4", "−3", "−2", "−1", "1", "2", "3", "4", "5", "6", "7", "8"
    ]  # fmt: skip


# ---------------------------------------------------------------- pages


def test_rule_sources_page_links_every_card(client, house_rules):
    response = client.get(reverse("rules:rule_sources"))
    assert response.status_code == 200
    html = response.content.decode()
    for slug in (*BUILTIN_SLUGS, house_rules.slug):
        assert reverse("rules:tariff_card", args=[slug]) in html
        assert reverse("printing:tariff_card_pdf", args=[slug]) in html
    # the two-hand games are listed, marked as practice games (issue 13)
    rows = {row.split("</tr>")[0] for row in html.split("<tr>")}
    marked = {
        slug
        for slug in BUILTIN_SLUGS
        for row in rows
        if f'href="{reverse("rules:tariff_card", args=[slug])}"' in row and "practice-only" in row
    }
    assert marked == {"officers_cego", "dorset_cego"}


@pytest.mark.parametrize("slug", BUILTIN_SLUGS)
def test_every_builtin_card_page_renders(client, slug):
    html = page(client, slug)
    source = load_builtin(slug)
    assert source.names.de in html.replace("&amp;", "&")
    assert 'lang="de"' in html
    assert html.count('class="tc-assumption"') == 2 * len(source.assumptions)


def test_german_by_default_english_on_request(client):
    german = page(client, "swm")
    assert "Zwei Verschiedene" in german and "Schwarzwaldmeisterschaft" in german
    assert "Alleinspieler ohne Stich" in german  # the assumption text in German
    english = page(client, "swm", "en")
    assert 'lang="en"' in english
    # Cego's game names are proper names: German, with the English gloss beside them
    assert "Zwei Verschiedene (Two Odds)" in english
    assert "Declarer without a trick: the defenders hold all 79 points" in english
    assert "assumption 3" in english
    assert f"{translated('assumption', 'de')} 3" in german


def test_unknown_slug_is_404(client):
    assert client.get(reverse("rules:tariff_card", args=["nope"])).status_code == 404
    assert client.get(reverse("printing:tariff_card_pdf", args=["nope"])).status_code == 404


def test_house_card_shows_the_added_contract(client, house_rules):
    html = page(client, house_rules.slug, "en")
    assert "House rules of Cegoclub Bräunlingen" in html
    assert re.search(r"<th>Trio</th><td>20</td>", html)


def test_house_card_of_invalid_stored_rules_lists_the_problems(client, house_rules):
    type(house_rules).objects.filter(pk=house_rules.pk).update(
        data={**house_rules.data, "unit": "dollars"}
    )
    response = client.get(reverse("rules:tariff_card", args=[house_rules.slug]))
    assert response.status_code == 409
    assert "unit: must be one of" in response.content.decode()


# ---------------------------------------------------------------- PDFs

KEY_VALUES = {
    "swm": ["Ultimo", "80", "Fach", "⌈(W − 39) ÷ 5⌉", "75–79", "280"],
    "bb2013": ["−8", "66–69", "Drescher", "Gegensolo"],
    "dreierles": ["×2: Zweier", "Klopfen", "Zehn Trümpfe"],
}


def translated(text: str, language: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


@pytest.mark.pdf
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("slug", BUILTIN_SLUGS)
def test_every_builtin_pdf_is_one_a4_page(client, slug, language, pdftotext, tmp_path, weasyprint):
    text = pdf_text(client, slug, pdftotext, tmp_path, language, layout=False)
    source = load_builtin(slug)
    assert getattr(source.names, language).split(":")[0] in text
    for contract in source.contracts.values():
        assert getattr(contract.names, language) in text
    unhyphenated = text.replace("-", "")  # pdftotext joins "mittel-|sicher" at a line end
    for assumption in source.assumptions:
        assert " ".join(getattr(assumption, language).replace("-", "").split()) in unhyphenated
    badge = translated("assumption", language)
    assert text.count(f"{badge} ") == 2 * len(source.assumptions)  # at the value, in the list


@pytest.mark.pdf
@pytest.mark.parametrize("language", ["de", "en"])
def test_pdf_key_values(client, pdftotext, tmp_path, language, weasyprint):
    swm = pdf_text(client, "swm", pdftotext, tmp_path, language)
    assert re.search(r"Ultimo\s+80", swm)
    assert "⌈(W − 39) ÷ 5⌉" in swm  # the Fach rule
    assert re.search(r"75–79\s+8\s+40\s+80\s+120\s+160\s+200\s+240\s+280\s+80", swm)
    bb = pdf_text(client, "bb2013", pdftotext, tmp_path, language)
    factor = translated("factor", language)
    assert re.search(rf"{factor}\s+−8\s+−7\s+−6.*\s6\s+7\s+8\s*$", bb, re.M)
    dreierles = pdf_text(client, "dreierles", pdftotext, tmp_path, language)
    two = "Zweier" if language == "de" else "Zweier (Two-er)"
    assert f"×2: {two}" in dreierles
    assert re.search(r"46–50\s+3\s+3\s+6\s+9\s+12", dreierles)


@pytest.mark.pdf
def test_pdf_in_english_and_for_house_rules(client, house_rules, pdftotext, tmp_path, weasyprint):
    english = pdf_text(client, "swm", pdftotext, tmp_path, "en")
    assert "Two Odds" in english and "Little Man" in english
    house = pdf_text(client, house_rules.slug, pdftotext, tmp_path, "en")
    assert re.search(r"Trio\s+20", house)


@pytest.mark.pdf
@pytest.mark.parametrize("slug", ["swm", "bb2013", "dreierles"])
def test_pdf_renders_to_png(client, slug, pdftoppm, tmp_path, weasyprint):
    response = client.get(reverse("printing:tariff_card_pdf", args=[slug]))
    pdf = tmp_path / f"{slug}.pdf"
    pdf.write_bytes(response.content)
    subprocess.run(
        [pdftoppm, "-png", "-r", "60", "-singlefile", str(pdf), str(tmp_path / slug)], check=True
    )
    png = (tmp_path / f"{slug}.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


@pytest.mark.pdf
def test_pdf_is_rendered_once_per_card_and_language_and_again_after_an_edit(
    client, house_rules, pdftotext, tmp_path, monkeypatch, weasyprint
):
    runs = []
    real = weasyprint.HTML.write_pdf

    def counting(self, *args, **kwargs):
        runs.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", counting)
    url = reverse("printing:tariff_card_pdf", args=[house_rules.slug])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    first = client.get(url).content
    assert client.get(url).content == first
    assert len(runs) == 1
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.get(url)
    assert len(runs) == 2  # German is a card of its own
    data = house_rules.data
    data["contracts"]["trio"]["amount"] = 30  # the club changes Trio from 20 to 30
    house_rules.data = data
    house_rules.save()
    text = pdf_text(client, house_rules.slug, pdftotext, tmp_path, "en")
    assert len(runs) == 3
    assert re.search(r"Trio\s+30", text)
