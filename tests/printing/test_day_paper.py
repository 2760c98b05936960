"""The prize list with the money first; the standings saying which tables' rounds were closed
with deals missing."""

import pytest
from django.urls import reverse

from tests.printing.conftest import pdf_text
from tests.printing.test_german_printouts import german_client  # noqa: F401 (fixture)
from tests.printing.test_printouts import get_pdf, render_png
from tests.printing.test_standings_printouts import deal
from tournaments.models import Deal, Round, RoundChange
from tournaments.selectors.round_status import closed_short_tables
from tournaments.services.round_state import set_round_state

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]


@pytest.fixture
def short_round(cego_round, django_user_model):
    """Round 1 of 2 deals a table: table 1 complete, table 2 one deal and one unconfirmed,
    table 3 none; closed anyway by the organiser."""
    tournament = cego_round["tournament"]
    tournament.deals_per_round = 2
    tournament.save(update_fields=["deals_per_round"])
    t1, t2, _t3 = cego_round["tables"]
    deal(t1, 1, [30, -10, -10, -10])
    deal(t1, 2, [-6, 2, 2, 2])
    deal(t2, 1, [-6, 2, 2, 2])
    deal(t2, 2, [9, -3, -3, -3], status=Deal.Status.PENDING)
    user = django_user_model.objects.create_user("leitung")
    set_round_state(round=cego_round["round"], state=Round.State.PLAYING, user=user)
    set_round_state(
        round=cego_round["round"],
        state=Round.State.CLOSED,
        user=user,
        reason="Saal muss geräumt werden",
        close_open=True,
    )
    return cego_round


def test_closed_short_tables_lists_the_unfinished_tables(short_round, django_assert_num_queries):
    assert RoundChange.objects.filter(action=RoundChange.Action.CLOSED).count() == 1
    with django_assert_num_queries(2):
        short = closed_short_tables(tournament=short_round["tournament"])
    assert [(s.round_number, s.status.number, s.status.done, s.status.pending) for s in short] == [
        (1, 2, 1, 1),
        (1, 3, 0, 0),
    ]
    assert [s.missing for s in short] == [1, 2]


def test_an_open_round_or_a_voided_table_is_no_short_table(short_round):
    table = short_round["tables"][2]
    table.voided, table.void_reason = True, "Blatt verloren"
    table.save()
    assert [s.status.number for s in closed_short_tables(tournament=short_round["tournament"])] == [
        2
    ]
    Round.objects.filter(pk=short_round["round"].pk).update(state=Round.State.PLAYING)
    assert closed_short_tables(tournament=short_round["tournament"]) == ()


def test_standings_say_which_tables_were_closed_short(staff_client, short_round, pdftotext):
    tournament = short_round["tournament"]
    text = " ".join(
        pdf_text(pdftotext, get_pdf(staff_client, "print_standings", tournament.pk)).split()
    )
    assert "Round 1, table 2: closed with 1 of 2 deals (1 unconfirmed deal counts nothing)." in text
    assert "Round 1, table 3: closed with 0 of 2 deals." in text
    assert "table 1:" not in text


def test_standings_note_is_german(german_client, short_round, pdftotext):  # noqa: F811
    url = reverse("printing:print_standings", args=[short_round["tournament"].pk])
    text = " ".join(pdf_text(pdftotext, german_client.get(url).content).split())
    assert (
        "Runde 1, Tisch 2: abgeschlossen mit 1 von 2 Spielen (1 unbestätigtes Spiel zählt nicht)."
        in text
    )


def test_complete_round_has_no_note(staff_client, cego_round, pdftotext, django_user_model):
    tournament = cego_round["tournament"]
    tournament.deals_per_round = 1
    tournament.save(update_fields=["deals_per_round"])
    t1, t2, t3 = cego_round["tables"]
    deal(t1, 1, [30, -10, -10, -10])
    deal(t2, 1, [-6, 2, 2, 2])
    deal(t3, 1, [8, -2, -2, -2, -2])
    user = django_user_model.objects.create_user("leitung")
    set_round_state(round=cego_round["round"], state=Round.State.CLOSED, user=user)
    text = pdf_text(pdftotext, get_pdf(staff_client, "print_standings", tournament.pk))
    assert "closed with" not in text


def test_prize_list_puts_the_money_first(staff_client, short_round, pdftotext, pdftoppm, tmp_path):
    tournament = short_round["tournament"]
    tournament.entry_fee_cents = 1000
    tournament.prize_shares_cents = [3000, 2000]
    tournament.save(update_fields=["entry_fee_cents", "prize_shares_cents"])
    content = get_pdf(staff_client, "print_prizes", tournament.pk)
    render_png(pdftoppm, content, tmp_path, "prizes-money-first")
    text = pdf_text(pdftotext, content)
    order = [
        text.index(heading)
        for heading in (
            "Prize money by place",
            "The tournament's money",
            "Everyone on plus",
            "Best woman",
            "Best youth",
            "Last place (Mauskönig)",
        )
    ]
    assert order == sorted(order)
