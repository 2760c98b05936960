"""Issue 28: the fees workbook printed on six portrait pages of four columns. Every sheet of
the treasurer's workbook (and of the player list, the other club workbook) prints landscape
on A4 with its columns fitted to the page's width, the header line on every page."""

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.services.admin import charge_season_fees
from tests.treasury.test_fees import members  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def assert_prints_one_page_wide(sheet):
    setup = sheet.page_setup
    assert setup.orientation == "landscape", sheet.title
    assert setup.paperSize in ("9", 9), sheet.title  # A4
    assert setup.fitToWidth in (1, None) and setup.fitToHeight == 0, sheet.title
    assert sheet.sheet_properties.pageSetUpPr.fitToPage, sheet.title
    assert sheet.print_title_rows == "$1:$1", sheet.title


def test_the_fees_workbook_prints_landscape_one_page_wide(staff_client, members):  # noqa: F811
    club, season = members
    import datetime as dt

    charge_season_fees(
        club=club,
        season=season,
        active_cents=3000,
        passive_cents=1000,
        due_on=dt.date(2026, 12, 31),
    )
    response = staff_client.get(reverse("exports:treasurer_xlsx", args=[club.pk, season.pk]))
    book = load_workbook(io.BytesIO(response.content))
    assert len(book.worksheets) == 2
    for sheet in book.worksheets:
        assert_prints_one_page_wide(sheet)


def test_the_player_list_workbook_prints_landscape_one_page_wide(staff_client, members):  # noqa: F811
    response = staff_client.get(reverse("exports:player_export_xlsx"))
    assert response.status_code == 200
    assert_prints_one_page_wide(load_workbook(io.BytesIO(response.content)).active)
