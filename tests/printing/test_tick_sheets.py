"""The tick-box score sheet (printing.tick_sheets, issue 42): the second layout of a round's
score sheets, chosen with ?layout=ticks, read back as text, looked at and scanned."""

import subprocess

import pytest
from django.urls import reverse

from tests.conftest import require_tool
from tests.printing.conftest import page_texts, pdf_pages
from tests.printing.test_sheet_drawing import png_of_page

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]


def tick_pdf(client, tournament, round_number=1):
    url = reverse("printing:print_score_sheets", args=[tournament.pk, round_number])
    response = client.get(url + "?layout=ticks")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


def test_the_tick_box_layout_is_chosen_at_print_time(staff_client, cego_round, pdftotext):
    tournament = cego_round["tournament"]
    ticks = tick_pdf(staff_client, tournament)
    usual = staff_client.get(
        reverse("printing:print_score_sheets", args=[tournament.pk, 1])
    ).content
    assert ticks != usual
    assert pdf_pages(ticks) == 3  # one landscape page per table, 24 deals fit
    texts = page_texts(pdftotext, ticks)
    for number, text in enumerate(texts, start=1):
        assert f"Table {number} · Round 1" in text
        assert "Points: tens" in text and "Declarer" in text
        # the rule source's contracts (Schwärzehof) and the players by seat
        for contract in ("Cego", "Eine", "1 Leere", "Solo", "Bettel", "Räuber"):
            assert contract in text
    assert "Faller, Hans-Peter" in texts[0] and "Kuner, Theresia" in texts[2]
    assert "from deal 13: Ersatzmann, Otto" in texts[2]


def test_the_page_is_landscape_a4_with_four_markers_and_the_tables_qr_code(
    staff_client, cego_round, pdftoppm, tmp_path
):
    import cv2
    import numpy as np

    from sheetreading.reader import find_page, read_qr

    zbarimg = require_tool("zbarimg", "the QR codes are scanned with zbar-tools")
    # A code OpenCV's detector alone misses on a clean 150 dpi page (CI drew it at random and
    # the test failed): a phone's scanner (zbar) and the reader, with its own fallbacks, read it.
    first = cego_round["tables"][0]
    first.short_code = "U9UBCJ"
    first.save(update_fields=["short_code"])
    content = tick_pdf(staff_client, cego_round["tournament"])
    for page, table in enumerate(cego_round["tables"], start=1):
        image = png_of_page(pdftoppm, content, page, tmp_path, dpi=150)
        assert abs(image.width / image.height - 297 / 210) < 0.01
        gray = np.asarray(image.convert("L"))
        detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
        _corners, ids, _rejected = detector.detectMarkers(gray)
        assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
        expected = f"http://testserver/t/{table.short_code}"
        scanned = subprocess.run(
            [zbarimg, "-q", "--raw", str(tmp_path / f"page{page}.png")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert scanned == [expected]
        homography, _page_number = find_page(gray)
        assert read_qr(gray, homography) == expected


def test_a_zbar_scan_of_the_tick_sheet_opens_its_table(
    staff_client, cego_round, pdftoppm, tmp_path
):
    zbarimg = require_tool("zbarimg", "the QR codes are scanned with zbar-tools")
    content = tick_pdf(staff_client, cego_round["tournament"])
    png_of_page(pdftoppm, content, 2, tmp_path).save(tmp_path / "scan.png")
    scanned = subprocess.run(
        [zbarimg, "--quiet", "--raw", str(tmp_path / "scan.png")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert scanned == [f"http://testserver/t/{cego_round['tables'][1].short_code}"]


def test_many_deals_go_on_more_pages_told_apart_by_their_markers(
    staff_client, cego_round, pdftoppm, tmp_path
):
    import cv2
    import numpy as np

    tournament = cego_round["tournament"]
    tournament.deals_per_round = 48
    tournament.save()
    content = tick_pdf(staff_client, tournament)
    assert pdf_pages(content) == 6
    image = png_of_page(pdftoppm, content, 2, tmp_path, dpi=100)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _corners, ids, _rejected = detector.detectMarkers(np.asarray(image.convert("L")))
    assert sorted(ids.ravel().tolist()) == [4, 5, 6, 7]


def test_the_tournament_page_offers_both_layouts_per_round(staff_client, cego_round):
    tournament = cego_round["tournament"]
    page = staff_client.get(reverse("tournaments:tournament_detail", args=[tournament.pk]))
    sheets = reverse("printing:print_score_sheets", args=[tournament.pk, 1])
    html = page.content.decode()
    assert f'href="{sheets}"' in html
    assert f'href="{sheets}?layout=ticks"' in html and "tick-box sheets" in html


def test_the_qr_code_of_the_tick_sheet_opens_the_tables_page(staff_client, cego_round, client):
    table = cego_round["tables"][0]
    response = client.get(f"/t/{table.short_code}")  # what the tick sheet's code says
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:table_entry", args=[table.token])
