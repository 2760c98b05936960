"""The registry's pages: list, search, create with the duplicate warning, edit, merge,
exports; organisers only."""

import io
import subprocess

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Membership, Player, PlayerMerge
from tests.factories import ClubFactory, EntryFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def registry():
    club = ClubFactory(short_name="CFB")
    for first, last, number in [
        ("Hans", "Müller", "1"),
        ("Anna", "Weißhaar", "2"),
        ("Eva", "=Formel", "3"),
    ]:
        Membership.objects.create(
            player=Player.objects.create(first_name=first, last_name=last),
            club=club,
            member_number=number,
        )
    return club


@pytest.mark.parametrize(
    "name",
    [
        "clubs:player_list",
        "clubs:player_create",
        "clubs:player_import",
        "treasury:club_list",
        "seasons:season_list",
    ],
)
def test_pages_send_visitors_to_the_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302 and "login" in response["Location"]


def test_list_search_is_spelling_tolerant(staff_client, registry):
    html = staff_client.get(reverse("clubs:player_list"), {"q": "weisshaar"}).content.decode()
    assert "Weißhaar" in html and "Müller" not in html
    html = staff_client.get(reverse("clubs:player_list"), {"club": registry.pk}).content.decode()
    assert "Müller" in html and "Weißhaar" in html


def test_create_warns_about_a_known_name_and_offers_it(staff_client, registry):
    url = reverse("clubs:player_create")
    data = {"first_name": "Hans", "last_name": "Mueller", "category": "open"}
    page = staff_client.post(url, data)
    existing = Player.objects.get(last_name="Müller")
    assert page.status_code == 200
    assert reverse("clubs:player_detail", args=[existing.pk]) in page.content.decode()
    assert Player.objects.count() == 3
    done = staff_client.post(
        url, {**data, "different_person": "1", "club": registry.pk, "member_number": "9"}
    )
    assert done.status_code == 302 and Player.objects.count() == 4


def test_edit_and_merge_through_the_pages(staff_client, registry):
    keep = Player.objects.get(last_name="Müller")
    twin = Player.objects.create(first_name="Hans", last_name="Mueller", birth_year=1955)
    entry = EntryFactory(tournament=TournamentFactory(), player=twin)
    detail = staff_client.get(reverse("clubs:player_detail", args=[keep.pk])).content.decode()
    assert "Mueller" in detail  # offered as a record with the same name
    staff_client.post(
        reverse("clubs:player_merge", args=[keep.pk]), {"remove": twin.pk, "confirm": "1"}
    )
    entry.refresh_from_db()
    assert entry.player == keep and not Player.objects.filter(pk=twin.pk).exists()
    detail = staff_client.get(reverse("clubs:player_detail", args=[keep.pk])).content.decode()
    assert "Mueller, Hans" in detail and PlayerMerge.objects.count() == 1
    staff_client.post(
        reverse("clubs:player_edit", args=[keep.pk]),
        {
            "first_name": "Hans",
            "last_name": "Müller",
            "birth_year": "1956",
            "category": "senior",
            "club": registry.pk,
            "member_number": "1",
        },
    )
    keep.refresh_from_db()
    assert (keep.birth_year, keep.category) == (1956, "senior")


def _ticked(form: str) -> bool:
    box = form.split('name="named_for_age"', 1)[1].split(">", 1)[0]
    return " checked" in box


def test_the_consent_to_be_named_as_youngest_or_oldest_in_the_player_form(staff_client, registry):
    """Off until the club ticks it (the player agreed), kept and withdrawn in the player's
    record, explained beside the box in German."""
    hans = Player.objects.get(last_name="Müller")
    assert hans.named_for_age is False
    url = reverse("clubs:player_edit", args=[hans.pk])
    staff_client.cookies["django_language"] = "de"
    form = staff_client.get(url).content.decode()
    assert 'name="named_for_age"' in form and not _ticked(form)
    assert "darf als Jüngste/r oder Älteste/r im Feld genannt werden" in form
    assert "Nur mit Einverständnis" in form and "jederzeit widerrufbar" in form
    data = {
        "first_name": "Hans",
        "last_name": "Müller",
        "birth_year": "1950",
        "category": "senior",
        "club": registry.pk,
        "member_number": "1",
    }
    staff_client.post(url, {**data, "named_for_age": "on"})
    hans.refresh_from_db()
    assert hans.named_for_age is True and hans.birth_year == 1950
    detail = staff_client.get(reverse("clubs:player_detail", args=[hans.pk])).content.decode()
    assert "darf als Jüngste/r oder Älteste/r im Feld genannt werden" in detail
    assert _ticked(staff_client.get(url).content.decode())
    staff_client.post(url, data)  # the box unticked: withdrawn
    hans.refresh_from_db()
    assert hans.named_for_age is False
    created = staff_client.post(
        reverse("clubs:player_create"),
        {"first_name": "Lea", "last_name": "Neu", "category": "youth", "named_for_age": "on"},
    )
    assert created.status_code == 302
    assert Player.objects.get(last_name="Neu").named_for_age is True


def test_excel_export_keeps_formulas_as_text(staff_client, registry):
    response = staff_client.get(reverse("exports:player_export_xlsx"), {"club": registry.pk})
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = [row for row in sheet.iter_rows(values_only=True)]
    assert [row[0] for row in values[1:]] == ["=Formel", "Müller", "Weißhaar"]
    assert sheet["A2"].data_type == "s"
    assert sheet["A2"].quotePrefix  # editing it in Excel keeps it text


@pytest.mark.pdf
def test_pdf_export(staff_client, registry, pdftotext, tmp_path, weasyprint):
    response = staff_client.get(reverse("printing:player_export_pdf"), {"q": "mueller"})
    path = tmp_path / "players.pdf"
    path.write_bytes(response.content)
    text = subprocess.run(
        [pdftotext, str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Müller" in text and "Weißhaar" not in text
