"""Printouts are cached by tournament revision: a second click is served from the cache, a
change in between (swap, substitution, deal) gives the next click a new PDF, the draw page
renders the sheets in advance, and a larger round has each table on its own page."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from printing import (
    printouts,
    prize_list,
    score_sheets,
    seat_plan,
    standings_list,
    table_cards,
)
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, approved_swap
from tests.printing.conftest import numbered_entries, pdf_pages, pdf_text, seat_round
from tournaments.caching import revision_cached, revision_key
from tournaments.models import Seat, Tournament
from tournaments.services import draws, phone_entry


def sheets_url(tournament, number=1):
    return reverse("printing:print_score_sheets", args=[tournament.pk, number])


def first_table_names(pdftotext, content) -> str:
    return pdf_text(pdftotext, content).split("\f")[0]


@pytest.fixture
def renders(monkeypatch):
    """Counts PDFs built: each document drawn (score sheets, seat plan, table cards,
    standings, prize list)."""
    calls = []
    documents = [
        (score_sheets, "score_sheets_pdf"),
        (seat_plan, "seat_plan_pdf"),
        (table_cards, "table_cards_pdf"),
        (standings_list, "standings_pdf"),
        (prize_list, "prize_list_pdf"),
    ]

    def counting(real, name):
        def build(**kwargs):
            calls.append(name)
            return real(**kwargs)

        return build

    for module, name in documents:
        monkeypatch.setattr(module, name, counting(getattr(module, name), name))
    return calls


@pytest.mark.pdf
def test_a_second_click_is_served_from_the_cache(staff_client, cego_round, renders):
    url = sheets_url(cego_round["tournament"])
    first = staff_client.get(url)
    second = staff_client.get(url)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert len(renders) == 1


@pytest.mark.pdf
def test_a_swap_after_the_draw_changes_the_next_score_sheets(staff_client, pdftotext, db):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    for i in range(8):
        EntryFactory(
            tournament=tournament,
            checked_in=True,
            player=PlayerFactory(last_name=f"Spieler{i + 1:02d}", first_name="Eva"),
        )
    round_ = draws.draw_next_round(tournament=tournament, number=1, seed=5)
    at = {n: [s.entry for s in Seat.objects.filter(table__number=n)] for n in (1, 2)}
    stays, moves = at[1][0].player.last_name, at[2][0].player.last_name
    before = first_table_names(pdftotext, staff_client.get(sheets_url(tournament)).content)
    assert stays in before and moves not in before
    approved_swap(round=round_, first=at[1][0], second=at[2][0])
    after = first_table_names(pdftotext, staff_client.get(sheets_url(tournament)).content)
    assert moves in after and stays not in after


@pytest.mark.pdf
def test_a_new_deal_changes_the_next_standings_pdf(staff_client, cego_round, pdftotext):
    tournament = cego_round["tournament"]
    url = reverse("printing:print_standings", args=[tournament.pk])
    before = pdf_text(pdftotext, staff_client.get(url).content)
    deal = phone_entry.enter_deal(
        table=cego_round["tables"][0],
        number=1,
        inputs={"contract": "cego", "declarer": 0, "declarer_points": 60},
    )
    after = pdf_text(pdftotext, staff_client.get(url).content)
    total = str(abs(deal.score_0))
    faller_before = next(line for line in before.splitlines() if "Faller" in line)
    assert total not in before.replace(faller_before, "")
    assert after != before
    assert total in after


@pytest.mark.pdf
def test_the_draw_page_renders_the_sheets_in_advance(
    staff_client, settings, renders, django_capture_on_commit_callbacks
):
    settings.PRINT_PRERENDER = "inline"
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    for _ in range(8):
        EntryFactory(tournament=tournament, checked_in=True)
    url = reverse("tournaments:round_draw", args=[tournament.pk, 1])
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(url, {"action": "draw"})
    assert response.status_code == 302
    assert len(renders) == 3  # score sheets, seat plan, table cards
    sheets = staff_client.get(sheets_url(tournament))
    assert sheets.status_code == 200 and pdf_pages(sheets.content) == 2
    assert len(renders) == 3  # the click found them ready


def test_output_built_while_the_revision_moved_is_not_kept(swm_round):
    tournament = Tournament.objects.get(pk=swm_round.tournament_id)
    table = swm_round.tables.first()

    def build_while_a_deal_arrives():
        phone_entry.enter_deal(
            table=table, number=1, inputs={"contract": "cego", "declarer": 0, "declarer_points": 60}
        )
        return "built"

    assert revision_cached(tournament, "x", build=build_while_a_deal_arrives) == "built"
    assert cache.get(revision_key(tournament, "x")) is None
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert revision_cached(fresh, "x", build=lambda: "again") == "again"
    assert cache.get(revision_key(fresh, "x")) == "again"


@pytest.fixture
def swm_round(db):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    for _ in range(8):
        EntryFactory(tournament=tournament, checked_in=True)
    return draws.draw_next_round(tournament=tournament, number=1, seed=3)


@pytest.mark.pdf
def test_a_larger_round_has_each_table_on_its_own_page_in_order(pdftotext, db):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    entries = numbered_entries(tournament, 36, first_name="Hans", digits=2)
    seat_round(tournament, entries, [4] * 9)
    content = printouts.score_sheets_pdf(
        tournament=tournament, round_number=1, base_url="http://192.0.2.1:8000"
    )
    pages = pdf_text(pdftotext, content).split("\f")
    assert pdf_pages(content) == 9
    for number in range(1, 10):
        # Each page is its table's, in order; the footer names the table.
        seated = Seat.objects.filter(table__number=number).select_related("entry__player")
        for seat in seated:
            assert seat.entry.player.last_name in pages[number - 1]
        assert f"Table {number} · Round 1" in pages[number - 1] or (
            f"Tisch {number} · Runde 1" in pages[number - 1]
        )
