"""The score sheets drawn with ReportLab (printing.score_sheets): what a table gets on paper,
read back (pdftotext), looked at (pdftoppm, pixels) and scanned (zbarimg, as a phone would)."""

import io
import re
import subprocess

import pytest
from PIL import Image
from pypdf import PdfReader

from printing import drawing, printouts, score_sheets
from tests.conftest import require_tool
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.printing.conftest import page_texts, pdf_pages, pdf_text, seat_round
from tests.printing.test_printouts import deal_rows, get_pdf
from tournaments.models import Table

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]


def png_of_page(pdftoppm, content: bytes, page: int, tmp_path, dpi: int = 150) -> Image.Image:
    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(content)
    stem = tmp_path / f"page{page}"
    subprocess.run(
        [pdftoppm, "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile"]
        + [str(pdf), str(stem)],
        check=True,
    )
    return Image.open(f"{stem}.png")


def test_the_qr_code_on_each_sheet_opens_its_table(staff_client, cego_round, pdftoppm, tmp_path):
    zbarimg = require_tool("zbarimg", "the QR codes are scanned with zbar-tools")
    content = get_pdf(staff_client, "print_score_sheets", cego_round["tournament"].pk, 1)
    for page, table in enumerate(cego_round["tables"], start=1):
        png_of_page(pdftoppm, content, page, tmp_path).save(tmp_path / "scan.png")
        scanned = subprocess.run(
            [zbarimg, "--quiet", "--raw", str(tmp_path / "scan.png")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert scanned == [f"http://testserver/t/{table.token}/"]


def test_many_deals_continue_on_a_second_page_with_the_head_repeated(
    staff_client, cego_round, pdftotext
):
    tournament = cego_round["tournament"]
    tournament.deals_per_round = 60  # more than fit on one page at a writable height
    tournament.save()
    content = get_pdf(staff_client, "print_score_sheets", tournament.pk, 1)
    assert pdf_pages(content) == 6  # two pages for each of the three tables
    texts = page_texts(pdftotext, content)
    layouts = pdf_text(pdftotext, content, layout=True).split("\f")
    for table in range(3):
        first, second = texts[2 * table], texts[2 * table + 1]
        for text in (first, second):
            assert f"Table {table + 1}" in text and "Dealer" in text  # head and columns again
        assert "Sum" not in first and "Signatures" not in first
        assert "Sum" in second and "Signatures" in second
        rows = {**deal_rows(layouts[2 * table]), **deal_rows(layouts[2 * table + 1])}
        assert sorted(rows) == list(range(1, 61))
        counted = len(deal_rows(layouts[2 * table])) + len(deal_rows(layouts[2 * table + 1]))
        assert counted == 60  # every deal once


def test_a_voided_table_says_so(staff_client, cego_round, pdftotext):
    Table.objects.filter(pk=cego_round["tables"][1].pk).update(voided=True, void_reason="x")
    content = get_pdf(staff_client, "print_score_sheets", cego_round["tournament"].pk, 1)
    texts = page_texts(pdftotext, content)
    assert ["voided" in text for text in texts] == [False, True, False]


def _cell_pixels_below(pdftotext, pdftoppm, content, tmp_path, word: str, dpi=150):
    """Grey values along a line just below the first ``word`` on page 1, across its cell."""
    bbox = subprocess.run(
        [pdftotext, "-bbox", "-f", "1", "-l", "1", "-", "-"],
        input=content,
        capture_output=True,
        check=True,
    ).stdout.decode()
    match = re.search(
        rf'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">{word}<', bbox
    )
    assert match, f"{word!r} not on the page"
    x_min, _y_min, _x_max, y_max = (float(v) for v in match.groups())
    image = png_of_page(pdftoppm, content, 1, tmp_path, dpi).convert("L")
    scale = dpi / 72
    y = int((y_max + 4) * scale)  # 4 pt below the label, inside the cell
    return [image.getpixel((int((x_min + dx) * scale), y)) for dx in range(0, 50)]


def test_a_seat_that_scores_nothing_is_hatched_one_that_defends_is_grey(
    staff_client, pdftotext, pdftoppm, tmp_path
):
    def sheet(rules_slug):
        tournament = TournamentFactory(rules_slug=rules_slug, deals_per_round=12)
        entries = [EntryFactory(tournament=tournament, number=i + 1) for i in range(4)]
        seat_round(tournament, entries, [4])
        return get_pdf(staff_client, "print_score_sheets", tournament.pk, 1)

    dreierles = sheet("dreierles")  # the dealer of four sits out and scores nothing
    assert "scores nothing" in pdf_text(pdftotext, dreierles)
    stripes = _cell_pixels_below(pdftotext, pdftoppm, dreierles, tmp_path, "sits")
    assert min(stripes) < 200 and max(stripes) > 240  # grey stripes on white

    schwaerzehof_five = TournamentFactory(rules_slug="schwaerzehof", tables_of_5=True)
    entries = [EntryFactory(tournament=schwaerzehof_five, number=i + 1) for i in range(5)]
    seat_round(schwaerzehof_five, entries, [5])
    defender = get_pdf(staff_client, "print_score_sheets", schwaerzehof_five.pk, 1)
    plain = _cell_pixels_below(pdftotext, pdftoppm, defender, tmp_path, "sits")
    assert max(plain) - min(plain) < 12 and 200 < sum(plain) / len(plain) < 235  # even grey


def test_without_dejavu_the_sheets_use_the_font_reportlab_ships(monkeypatch, cego_round, pdftotext):
    monkeypatch.setattr(drawing, "FONT_DIRS", ())  # the toolkit looks there
    score_sheets.fonts.cache_clear()
    try:
        assert score_sheets.fonts().missing_glyphs
        content = printouts.score_sheets_pdf(
            tournament=cego_round["tournament"], round_number=1, base_url="http://192.0.2.1"
        )
    finally:
        score_sheets.fonts.cache_clear()
        monkeypatch.undo()
        score_sheets.fonts()  # DejaVu registered again for the tests that follow
    page = PdfReader(io.BytesIO(content)).pages[0]
    fonts = {str(font["/BaseFont"]) for font in page["/Resources"]["/Font"].values()}
    assert fonts and all("Vera" in name for name in fonts)
    text = pdf_text(pdftotext, content)
    assert "Blümle" in text and "Öhler" in text and "Gißler" in text
    assert "(−)" not in text and "(-)" in text  # a minus Vera has


def test_a_long_name_wraps_within_its_column(staff_client, db, pdftotext):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    long_name = "Schwarzwälder-Kirschbaum-Oberndorfer"
    entries = [
        EntryFactory(
            tournament=tournament,
            number=i + 1,
            player=PlayerFactory(last_name=long_name if i == 0 else f"Kurz{i}", first_name="Al"),
        )
        for i in range(4)
    ]
    seat_round(tournament, entries, [4])
    content = get_pdf(staff_client, "print_score_sheets", tournament.pk, 1)
    layout = pdf_text(pdftotext, content, layout=True)
    # broken after its hyphens, each piece in seat 1's column (left of seat 2's name)
    lines = [line for line in layout.splitlines() if "Schwarzwälder" in line or "Kirsch" in line]
    assert lines and all("Kurz1" not in line[: line.find("Kirsch") + 1] for line in lines)
    assert "Oberndorfer" in layout


def test_every_player_signs_under_the_whole_name(staff_client, cego_round, pdftotext):
    content = get_pdf(staff_client, "print_score_sheets", cego_round["tournament"].pk, 1)
    table_1 = page_texts(pdftotext, content)[0]
    # the longest name is set smaller to fit its line, not cut
    assert "Schwarzwälder-Kirschbaum, Maximilian" in table_1
    assert "Faller, Hans-Peter" in table_1 and "Öhler, Eva" in table_1
