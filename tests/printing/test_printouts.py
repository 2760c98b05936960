import os
import re
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from tests.printing.conftest import page_texts, pdf_pages, pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]

PREVIEW_DIR = os.environ.get("PRINTOUT_PREVIEW_DIR")  # set it to keep the PNGs for a look


def get_pdf(client, name, *args):
    response = client.get(reverse(f"printing:{name}", args=args))
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    return response.content


def deal_rows(layout_page: str) -> dict[int, str]:
    """deal number -> dealer ("seat · name") from a score sheet's ``pdftotext -layout``."""
    rows = {}
    for line in layout_page.splitlines():
        match = re.match(r"^\s*(\d+)\s+(\d · \S+)", line)
        if match:
            rows[int(match.group(1))] = match.group(2)
    return rows


def render_png(pdftoppm, content, tmp_path, stem):
    out_dir = Path(PREVIEW_DIR) if PREVIEW_DIR else tmp_path
    out_dir.mkdir(parents=True, exist_ok=True)
    pdf = out_dir / f"{stem}.pdf"
    pdf.write_bytes(content)
    subprocess.run([pdftoppm, "-png", "-r", "50", str(pdf), str(out_dir / stem)], check=True)
    pngs = sorted(out_dir.glob(f"{stem}*.png"))
    assert pngs and all(p.stat().st_size > 1000 for p in pngs)
    return pngs


@pytest.mark.parametrize("name", ["print_seat_plan", "print_table_cards", "print_score_sheets"])
def test_round_printouts_are_for_organisers_only(client, django_user_model, cego_round, name):
    url = reverse(f"printing:{name}", args=[cego_round["tournament"].pk, 1])
    assert client.get(url).status_code == 302  # to the login
    user = django_user_model.objects.create_user("player", password="pw")
    client.force_login(user)
    assert client.get(url).status_code == 403  # signed in, but no role


def test_unknown_round_is_404(staff_client, cego_round):
    url = reverse("printing:print_score_sheets", args=[cego_round["tournament"].pk, 9])
    assert staff_client.get(url).status_code == 404


def test_seat_plan_lists_every_player_alphabetically(
    staff_client, cego_round, pdftotext, pdftoppm, tmp_path
):
    content = get_pdf(staff_client, "print_seat_plan", cego_round["tournament"].pk, 1)
    render_png(pdftoppm, content, tmp_path, "seat_plan")
    assert pdf_pages(content) == 1
    text = pdf_text(pdftotext, content, layout=True)
    lines = [line.split() for line in text.splitlines()]
    # "Ackermann, Jörg  2  3": table and seat follow the name
    assert ["Ackermann,", "Jörg", "2", "3"] in lines
    assert ["Öhler,", "Eva", "1", "4"] in lines
    names = ["Ackermann", "Baumann", "Blümle", "Duffner", "Ersatzmann", "Faller", "Gißler"]
    positions = [text.index(n) for n in names]
    assert positions == sorted(positions)
    # umlauts sort with their base letter: Öhler between Maier and Schwarzwälder
    assert text.index("Maier") < text.index("Öhler") < text.index("Schwarzwälder")
    # an unambiguous date in English (the German printouts say 28.11.2026)
    assert "Bräunlinger Cego-Turnier" in text and "28 Nov 2026" in text


def test_table_cards_show_number_and_playing_order(
    staff_client, cego_round, pdftotext, pdftoppm, tmp_path
):
    content = get_pdf(staff_client, "print_table_cards", cego_round["tournament"].pk, 1)
    render_png(pdftoppm, content, tmp_path, "table_cards")
    assert pdf_pages(content) == 2  # two cards per A4 page
    text = pdf_text(pdftotext, content)
    for name in ("Faller", "Kuner", "Gißler", "Ersatzmann"):
        assert name in text
    # table 1 in playing order
    order = [text.index(n) for n in ("Faller", "Blümle", "Schwarzwälder", "Öhler")]
    assert order == sorted(order)


def test_score_sheets_one_page_per_table(staff_client, cego_round, pdftotext, pdftoppm, tmp_path):
    content = get_pdf(staff_client, "print_score_sheets", cego_round["tournament"].pk, 1)
    render_png(pdftoppm, content, tmp_path, "score_sheets")
    assert pdf_pages(content) == 3
    pages = page_texts(pdftotext, content)
    assert len(pages) == 3
    for number, page in enumerate(pages, start=1):
        assert f"Table {number}" in page
        assert "Round 1" in page
    table_1, _table_2, table_3 = pages
    for name in ("Faller", "Blümle", "Schwarzwälder-Kirschbaum", "Öhler"):
        assert name in table_1
    layout = pdf_text(pdftotext, content, layout=True).split("\f")
    # deal rows 1..24 with their dealer: seat 1 deals first, then in playing order
    rows_1 = deal_rows(layout[0])
    assert list(rows_1) == list(range(1, 25))
    assert rows_1[1] == "1 · Faller" and rows_1[4] == "4 · Öhler" and rows_1[5] == "1 · Faller"
    assert "sits out" not in table_1
    # at the table of 5 the dealer sits out, marked in his column, 24 times
    rows_3 = deal_rows(layout[2])
    assert list(rows_3) == list(range(1, 25))
    assert rows_3[2] == "2 · Duffner" and rows_3[5] == "5 · Gißler"
    assert table_3.count("sits out") == 24  # one cell per deal
    assert "scores as a defender" in table_3  # the Schwärzehof rule, in the legend
    # the substitute plays seat 2 from deal 13 on: named in the header and as dealer
    assert "from deal 13" in table_3 and "Ersatzmann" in table_3
    assert rows_3[12] == "2 · Duffner" and rows_3[17] == "2 · Ersatzmann"
    assert "Sum" in table_1 and "Contract" in table_1 and "Dealer" in table_1
    # the rule source's contracts are listed by Cego's own names, in English too
    assert "Kleiner Mann" in table_1 and "Little Man" not in table_1


def test_score_sheet_fits_one_page_for_many_deals(staff_client, cego_round):
    tournament = cego_round["tournament"]
    tournament.deals_per_round = 30
    tournament.save()
    content = get_pdf(staff_client, "print_score_sheets", tournament.pk, 1)
    assert pdf_pages(content) == 3  # 30 deals at tables of 4 and of 5, one page each


def test_totals_only_sheet_has_a_single_total_line(staff_client, cego_round, pdftotext):
    tournament = cego_round["tournament"]
    tournament.entry_mode = "totals"
    tournament.save()
    content = get_pdf(staff_client, "print_score_sheets", tournament.pk, 1)
    assert pdf_pages(content) == 3
    text = pdf_text(pdftotext, content)
    assert "Round total" in text
    assert "Dealer" not in text and "sits out" not in text


def test_printouts_follow_the_request_language(client, django_user_model, cego_round, pdftotext):
    user = django_user_model.objects.create_superuser("chef", "", "pw")
    client.force_login(user)
    url = reverse("printing:print_score_sheets", args=[cego_round["tournament"].pk, 1])
    client.cookies["django_language"] = "en"  # the language switch's choice
    english = client.get(url).content
    assert "Schwärzehof house rules" in pdf_text(pdftotext, english)
    client.cookies["django_language"] = "de"
    german = client.get(url).content
    assert "Schwärzehof-Hausregeln" in pdf_text(pdftotext, german)


def test_weasyprint_renders_lists_with_the_lean_stylesheet(weasyprint):
    """The documents still made with WeasyPrint (season, player list, tariff cards) use a
    user-agent stylesheet without the styles for pseudo-elements they never show; list items
    keep their markers, the text comes out the same."""
    import io

    from pypdf import PdfReader
    from weasyprint import HTML

    from printing import pdf

    assert pdf._html_class() is not HTML  # this WeasyPrint's stylesheet was trimmed
    html = "<ol><li>Eins</li><li>Zwei</li></ol><ul><li>Drei</li></ul><p>Tisch 1</p>"

    def text(content: bytes) -> str:
        return PdfReader(io.BytesIO(content)).pages[0].extract_text()

    lean = text(pdf.html_to_pdf(html, "."))
    assert lean == text(HTML(string=html, base_url=".").write_pdf())
    assert "Eins" in lean and "Tisch 1" in lean
    assert "1." in lean and "2." in lean and "•" in lean  # the markers
