"""Members and fees, the treasurer's view and its export; prize money and a tournament's
balance; clubs and seasons edited in the app's pages."""

import datetime as dt
import io
import subprocess

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import AnnualFee, Club, Membership, Player
from clubs.services.admin import charge_season_fees, set_annual_fee
from seasons.models import Season
from tests.factories import ClubFactory, EntryFactory, SeasonFactory, TournamentFactory
from tournaments.money import share_prizes
from tournaments.selectors.standings import tournament_standings
from treasury.selectors import tournament_money, treasurer_view

pytestmark = pytest.mark.django_db


@pytest.fixture
def members():
    club = ClubFactory(short_name="CFB")
    season = SeasonFactory(starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30))
    rows = [
        ("Aktiv", "active", None, None),
        ("Passiv", "passive", None, None),
        ("Gegangen", "active", None, dt.date(2026, 6, 30)),  # left before the season
        ("Neu", "active", dt.date(2027, 5, 1), None),  # joins after it
        ("=HYPERLINK(1)", "active", None, None),
    ]
    for name, status, since, left in rows:
        Membership.objects.create(
            player=Player.objects.create(first_name="X", last_name=name),
            club=club,
            status=status,
            since=since,
            left_on=left,
        )
    return club, season


def test_the_season_charge_gives_each_member_one_fee_by_status(members):
    club, season = members
    assert (
        charge_season_fees(
            club=club,
            season=season,
            active_cents=3000,
            passive_cents=1000,
            due_on=dt.date(2026, 12, 31),
        )
        == 3
    )
    assert (
        charge_season_fees(
            club=club,
            season=season,
            active_cents=3000,
            passive_cents=1000,
            due_on=dt.date(2026, 12, 31),
        )
        == 0
    )
    amounts = dict(AnnualFee.objects.values_list("membership__player__last_name", "amount_cents"))
    assert amounts == {"Aktiv": 3000, "Passiv": 1000, "=HYPERLINK(1)": 3000}


def test_paying_needs_date_and_way_and_the_view_says_who_owes(members, django_assert_num_queries):
    club, season = members
    charge_season_fees(
        club=club,
        season=season,
        active_cents=3000,
        passive_cents=1000,
        due_on=dt.date(2026, 12, 31),
    )
    active = Membership.objects.get(player__last_name="Aktiv")
    with pytest.raises(ValidationError):
        set_annual_fee(
            membership=active,
            season=season,
            amount_cents=3000,
            due_on=season.starts_on,
            status="active",
            paid_on=dt.date(2026, 12, 1),
        )
    set_annual_fee(
        membership=active,
        season=season,
        amount_cents=3000,
        due_on=season.starts_on,
        status="active",
        paid_on=dt.date(2026, 12, 1),
        method="cash",
    )
    tournament = TournamentFactory(season=season, entry_fee_cents=800)
    EntryFactory(tournament=tournament, player=active.player, fee_paid=True)
    with django_assert_num_queries(3):
        view = treasurer_view(club=club, season=season)
    owes = {line.membership.player.last_name: line.owes_cents for line in view.lines}
    assert owes == {"Aktiv": 0, "Passiv": 1000, "=HYPERLINK(1)": 3000}
    assert (view.due_cents, view.paid_cents, view.owed_cents, view.entry_fees_cents) == (
        7000,
        3000,
        4000,
        800,
    )


def test_the_database_refuses_a_half_recorded_payment(members):
    club, season = members
    membership = Membership.objects.filter(club=club).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        AnnualFee.objects.create(
            membership=membership,
            season=season,
            amount_cents=1,
            due_on=season.starts_on,
            paid_on=season.starts_on,
        )


def test_treasurer_page_and_excel_export(staff_client, members):
    club, season = members
    charge_season_fees(
        club=club,
        season=season,
        active_cents=3000,
        passive_cents=1000,
        due_on=dt.date(2026, 12, 31),
    )
    page = staff_client.get(reverse("treasury:treasurer", args=[club.pk, season.pk]))
    assert page.status_code == 200 and "Passiv" in page.content.decode()
    assert "Gegangen" not in page.content.decode()
    response = staff_client.get(reverse("exports:treasurer_xlsx", args=[club.pk, season.pk]))
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][0] == "last name" and len(rows) == 4
    injected = next(cell for cell in sheet["A"] if cell.value == "=HYPERLINK(1)")
    assert injected.data_type == "s" and injected.quotePrefix  # text, even after editing
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["Passiv"][10] == 10.0  # owes 10 €


def test_treasurer_export_lists_the_hosted_tournaments_money(staff_client, members):
    club, season = members
    hosted = TournamentFactory(
        season=season,
        host_club=club,
        entry_mode="totals",
        entry_fee_cents=800,
        prize_shares_cents=[1000],
    )
    TournamentFactory(season=season)  # another club's: not listed
    for number, total in enumerate([30, -30], start=1):
        EntryFactory(tournament=hosted, number=number, paper_total=total, fee_paid=True)
    response = staff_client.get(reverse("exports:treasurer_xlsx", args=[club.pk, season.pk]))
    book = load_workbook(io.BytesIO(response.content))
    rows = list(book.worksheets[1].iter_rows(values_only=True))
    assert len(rows) == 2
    assert rows[1][1:] == (hosted.name, 16.0, 0, 10.0, 6.0)


def test_fee_page_records_a_payment(staff_client, members):
    club, season = members
    membership = Membership.objects.get(player__last_name="Aktiv")
    url = reverse("treasury:fee_edit", args=[club.pk, season.pk, membership.pk])
    data = {
        "form": "fee",
        "status": "active",
        "amount": "30,00",
        "due_on": "2026-12-31",
        "paid_on": "2027-01-05",
        "method": "transfer",
    }
    staff_client.cookies["django_language"] = "de"
    assert staff_client.post(url, data).status_code == 302
    fee = AnnualFee.objects.get(membership=membership)
    assert (fee.amount_cents, fee.method, fee.paid_on) == (3000, "transfer", dt.date(2027, 1, 5))
    bad = staff_client.post(url, {**data, "method": ""})
    assert (
        bad.status_code == 200 and AnnualFee.objects.get(membership=membership).method == "transfer"
    )


class Row:
    def __init__(self, rank, name):
        self.rank, self.entry_id, self.name, self.club, self.total = rank, rank, name, "", 0


def test_prizes_by_place_are_shared_between_tied_players():
    rows = [Row(1, "A"), Row(2, "B"), Row(2, "C"), Row(4, "D"), Row(5, "E")]
    lines = share_prizes(rows, [5000, 3000, 2001, 1000])
    assert [(line.name, line.amount_cents, line.tied) for line in lines] == [
        ("A", 5000, False),
        ("B", 2500, True),  # places 2 and 3: (3000 + 2001) // 2, a cent stays in the pot
        ("C", 2500, True),
        ("D", 1000, False),
    ]
    assert share_prizes(rows, []) == []


def test_a_tournaments_money_balances_and_youth_play_free():
    tournament = TournamentFactory(
        entry_mode="totals", entry_fee_cents=1000, prize_shares_cents=[2000, 1000]
    )
    totals = [50, 20, -30, -40]
    for number, total in enumerate(totals, start=1):
        EntryFactory(
            tournament=tournament,
            number=number,
            paper_total=total,
            fee_paid=number != 4,
            category="youth" if number == 3 else "open",
        )
    money = tournament_money(
        tournament=tournament, standings=tournament_standings(tournament=tournament)
    )
    assert (money.fees_taken_cents, money.entries_free, money.entries_unpaid) == (2000, 1, 1)
    assert (money.prizes_cents, money.remainder_cents, money.balances) == (3000, -1000, False)
    assert money.fees_taken_cents - money.prizes_cents == money.remainder_cents


@pytest.mark.pdf
def test_the_prize_list_pdf_shows_the_money(staff_client, pdftotext, tmp_path):
    tournament = TournamentFactory(
        entry_mode="totals", entry_fee_cents=800, prize_shares_cents=[1200]
    )
    for number, total in enumerate([30, -30], start=1):
        EntryFactory(tournament=tournament, number=number, paper_total=total, fee_paid=True)
    staff_client.cookies["django_language"] = "de"
    response = staff_client.get(reverse("printing:print_prizes", args=[tournament.pk]))
    path = tmp_path / "prizes.pdf"
    path.write_bytes(response.content)
    text = subprocess.run(
        [pdftotext, "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "16,00 €" in text and "12,00 €" in text and "4,00 €" in text


def test_prize_money_page_parses_amounts(staff_client):
    tournament = TournamentFactory()
    url = reverse("treasury:prize_money", args=[tournament.pk])
    staff_client.post(url, {"shares": "30; 20,50 10", "youth_entry_free": "on"})
    tournament.refresh_from_db()
    assert tournament.prize_shares_cents == [3000, 2050, 1000] and tournament.youth_entry_free
    page = staff_client.post(url, {"shares": "30; zwanzig"})
    assert page.status_code == 200
    tournament.refresh_from_db()
    assert tournament.prize_shares_cents == [3000, 2050, 1000]


def test_clubs_and_seasons_are_created_and_edited_in_the_app(staff_client):
    staff_client.post(
        reverse("clubs:club_create"),
        {"name": "Cego Hüfingen", "short_name": "CH", "town": "Hüfingen"},
    )
    club = Club.objects.get(short_name="CH")
    same = staff_client.post(
        reverse("clubs:club_create"), {"name": "cego hüfingen", "short_name": "X", "town": "Y"}
    )
    assert same.status_code == 200 and Club.objects.count() == 1
    staff_client.post(
        reverse("clubs:club_edit", args=[club.pk]),
        {"name": "Cegofreunde Hüfingen", "short_name": "CH", "town": "Hüfingen"},
    )
    assert Club.objects.get(pk=club.pk).name == "Cegofreunde Hüfingen"
    data = {
        "name": "Saison 2027/28",
        "starts_on": "2027-11-01",
        "ends_on": "2028-04-30",
        "youth_born_from": "2009",
    }
    staff_client.post(reverse("seasons:season_create"), data)
    season = Season.objects.get(name="Saison 2027/28")
    assert season.youth_born_from == 2009
    backwards = staff_client.post(
        reverse("seasons:season_edit", args=[season.pk]), {**data, "ends_on": "2027-01-01"}
    )
    assert backwards.status_code == 200
    assert Season.objects.get(pk=season.pk).ends_on == dt.date(2028, 4, 30)


def test_demo_has_members_with_fees_paid_and_due():
    from django.core.management import call_command

    from tournaments import demo

    call_command("load_demo", stdout=io.StringIO())
    first = sorted(AnnualFee.objects.values_list("membership_id", "amount_cents", "paid_on"))
    call_command("load_demo", stdout=io.StringIO())
    assert (
        sorted(AnnualFee.objects.values_list("membership_id", "amount_cents", "paid_on")) == first
    )
    fees = AnnualFee.objects.all()
    assert fees.filter(paid_on__isnull=True).exists() and fees.filter(method="cash").exists()
    assert fees.filter(status="passive", amount_cents=1200).exists()
    assert Membership.objects.filter(left_on__isnull=False).count() == 1
    # The home club's finished tournament (the season has others, at other host clubs).
    finished = Season.objects.get().tournaments.get(name=demo.DEMO_FINISHED_NAME)
    money = tournament_money(
        tournament=finished, standings=tournament_standings(tournament=finished)
    )
    assert money.prizes_cents == 16000 and money.balances
