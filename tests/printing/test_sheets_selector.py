import pytest
from django.test import override_settings
from django.urls import reverse

from clubs.search import name_sort_key
from printing import score_sheets
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.printing.conftest import pdf_pages, pdf_text, seat_round
from tests.printing.test_printouts import render_png
from tournaments.addresses import qr_data_uri
from tournaments.models import Substitution
from tournaments.selectors.sheets import round_sheets, table_entry_path

pytestmark = pytest.mark.django_db


def big_field(players, *, substitutions=0):
    """A Cego tournament with ``players`` at tables of 4 (and 5 for the rest)."""
    tournament = TournamentFactory(rules_slug="bb2013", tables_of_5=True)
    entries = [
        EntryFactory(tournament=tournament, number=i + 1, player=PlayerFactory())
        for i in range(players)
    ]
    fives = players % 4
    sizes = [5] * fives + [4] * ((players - 5 * fives) // 4)
    round_, tables = seat_round(tournament, entries, sizes)
    extra = [
        EntryFactory(tournament=tournament, number=players + i + 1) for i in range(substitutions)
    ]
    for i, entry in enumerate(extra):
        seat = tables[i].seats.get(position=0)
        Substitution.objects.create(seat=seat, entry=entry, from_deal=10)
    return tournament


@pytest.mark.parametrize("players", [20, 100])
def test_selector_runs_in_constant_queries(players, django_assert_max_num_queries):
    tournament = big_field(players, substitutions=3)
    with django_assert_max_num_queries(4):
        sheets = round_sheets(tournament=tournament, round_number=1)
        plan = sheets.seat_plan()
        rows = [row.dealer for table in sheets.tables for row in table.deals]
    assert len(plan) == players + 3
    assert sheets.players_count == players
    assert len(rows) == len(sheets.tables) * tournament.deals_per_round


def test_dealer_rotation_and_sitting_out(cego_round):
    sheets = round_sheets(tournament=cego_round["tournament"], round_number=1)
    four, _, five = sheets.tables
    assert [row.dealer_position for row in four.deals[:6]] == [0, 1, 2, 3, 0, 1]
    assert not any(row.sits_out for row in four.deals)
    assert not four.dealer_sits_out
    assert [row.dealer_position for row in five.deals[:6]] == [0, 1, 2, 3, 4, 0]
    assert all(row.sits_out for row in five.deals)
    assert five.dealer_sits_out and five.sitting_out_scores == "defender"
    deal_7 = five.deals[6]
    assert [cell.sits_out for cell in deal_7.cells] == [False, True, False, False, False]
    assert [cell.dealer for cell in deal_7.cells] == [False, True, False, False, False]
    # the substitute deals for seat 2 from deal 13 on
    assert deal_7.dealer.last_name == "Duffner"
    assert five.deals[16].dealer.last_name == "Ersatzmann"
    assert [cell.new_occupant for cell in five.deals[12].cells] == [
        False,
        True,
        False,
        False,
        False,
    ]
    seat = five.seats[1]
    assert [(o.player.last_name, o.from_deal) for o in seat.occupants] == [
        ("Duffner", 1),
        ("Ersatzmann", 13),
    ]
    assert len(four.deals) == 24


def test_substitute_from_deal_one_replaces_the_drawn_player(cego_round):
    seat = cego_round["tables"][0].seats.get(position=0)
    Substitution.objects.create(seat=seat, entry=cego_round["entries"][12], from_deal=1)
    sheets = round_sheets(tournament=cego_round["tournament"], round_number=1)
    occupants = sheets.tables[0].seats[0].occupants
    assert [(o.player.last_name, o.from_deal) for o in occupants] == [("Gißler", 1)]


def test_totals_only_has_no_deal_rows(cego_round):
    tournament = cego_round["tournament"]
    tournament.entry_mode = "totals"
    tournament.save()
    sheets = round_sheets(tournament=tournament, round_number=1)
    assert sheets.totals_only
    assert all(table.deals == () for table in sheets.tables)


def test_seat_plan_sorts_like_a_phone_book():
    names = ["Zähringer", "Öhler", "Ober", "Maier", "Ärger", "Abt", "Straub", "Strauß"]
    ordered = sorted(names, key=lambda n: name_sort_key("", n))
    assert ordered == ["Abt", "Ärger", "Maier", "Ober", "Öhler", "Straub", "Strauß", "Zähringer"]


def test_contract_names_come_from_the_rule_source(cego_round):
    sheets = round_sheets(tournament=cego_round["tournament"], round_number=1)
    assert "Kleiner Mann" in sheets.contract_names("de")  # Schwärzehof's name for the Geiß
    assert "Räuber" in sheets.contract_names("de")
    assert len(sheets.contract_names("en")) == len(sheets.rules.contracts)


def test_table_entry_path_is_the_phone_page(cego_round):
    token = cego_round["tables"][0].token
    assert table_entry_path(token) == reverse("tournaments:table_entry", args=[token])
    assert table_entry_path(token) == f"/t/{token}/"


def capture_qr_input(monkeypatch):
    """What the sheets' QR codes encode (``printing.qr_codes``: segno's codes, level M with
    mask 0, see tests/printing/test_qr_codes.py)."""
    encoded = []
    real_matrix = score_sheets.qr_matrix

    def matrix(content):
        encoded.append(content)
        return real_matrix(content)

    monkeypatch.setattr(score_sheets, "qr_matrix", matrix)
    return encoded


def test_qr_codes_encode_each_tables_entry_url(staff_client, cego_round, monkeypatch):
    encoded = capture_qr_input(monkeypatch)
    url = reverse("printing:print_score_sheets", args=[cego_round["tournament"].pk, 1])
    assert staff_client.get(url).status_code == 200
    assert encoded == [f"http://testserver/t/{table.token}/" for table in cego_round["tables"]]


@override_settings(PUBLIC_BASE_URL="https://cego.example.org")
def test_qr_codes_use_the_public_address(staff_client, cego_round, monkeypatch):
    encoded = capture_qr_input(monkeypatch)
    url = reverse("printing:print_score_sheets", args=[cego_round["tournament"].pk, 1])
    assert staff_client.get(url).status_code == 200
    token = cego_round["tables"][1].token
    assert encoded[1] == f"https://cego.example.org/t/{token}/"


def test_qr_svg_is_embedded(staff_client, cego_round):
    url = reverse("printing:print_score_sheets", args=[cego_round["tournament"].pk, 1])
    assert qr_data_uri("https://x.example/t/abc/").startswith("data:image/svg+xml")
    assert staff_client.get(url)["Content-Type"] == "application/pdf"


@pytest.mark.pdf
def test_seat_plan_for_150_players_fits_on_two_pages(staff_client, pdftotext, pdftoppm, tmp_path):
    tournament = big_field(150)
    url = reverse("printing:print_seat_plan", args=[tournament.pk, 1])
    content = staff_client.get(url).content
    render_png(pdftoppm, content, tmp_path, "seat_plan_150")
    assert pdf_pages(content) == 2
    text = pdf_text(pdftotext, content)
    assert text.count("Nachname") == 150


@pytest.mark.pdf
@pytest.mark.parametrize(("players", "deals"), [(5, 24), (4, 30)])
def test_score_sheet_fits_one_page(staff_client, players, deals):
    tournament = TournamentFactory(rules_slug="bb2013", tables_of_5=True, deals_per_round=deals)
    entries = [
        EntryFactory(
            tournament=tournament,
            number=i + 1,
            player=PlayerFactory(last_name=f"Schwarzwälder-Kirschbaum{i}", first_name="Hans-Peter"),
        )
        for i in range(players)
    ]
    seat_round(tournament, entries, [players])
    url = reverse("printing:print_score_sheets", args=[tournament.pk, 1])
    assert pdf_pages(staff_client.get(url).content) == 1
