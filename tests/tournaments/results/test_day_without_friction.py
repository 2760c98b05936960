"""Issue 11: paper sheets typed as written, per-table totals, the close-round guard and lock,
the draw guard, the finished step and the round clock (services and desk views)."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, DealChange, Round, RoundChange
from tournaments.selectors.round_status import round_status
from tournaments.selectors.standings import tournament_standings
from tournaments.services import finish
from tournaments.services.paper_sheets import (
    WrittenRow,
    enter_totals,
    enter_written_deals,
    revise_written_deal,
)
from tournaments.services.phone_entry import enter_deal
from tournaments.services.results_common import DealConflict, ResultError
from tournaments.services.round_state import RoundStillOpen, set_round_clock, set_round_state

EINE_WON = {"contract": "eine", "declarer": 0, "declarer_points": 50}


@pytest.fixture(autouse=True)
def english(client):
    """The service messages and pages are read in English here (German is the default)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        yield


def row(number, contract, declarer, *amounts):
    return WrittenRow(number, contract, declarer, tuple(amounts))


# --------------------------------------------------------------------------- as written


def test_written_lines_are_stored_as_written_and_count(table, organiser):
    deals = enter_written_deals(
        table=table,
        rows=[
            row(1, "halbe", 1, None, 60, None, None),
            row(2, "raeuber", 1, 80, -240, 80, 80),
        ],
        user=organiser,
    )
    first, second = deals
    assert first.as_written and first.declarer_points is None
    assert first.scores[:4] == [-20, 60, -20, -20] and first.won is True
    assert second.scores[:4] == [80, -240, 80, 80]
    assert first.status == Deal.Status.CONFIRMED
    assert DealChange.objects.filter(deal=first, action="created").exists()
    standings = tournament_standings(tournament=table.round.tournament)
    totals = {row.number: row.total for row in standings.rows}
    seat_numbers = [seat.entry.number for seat in table.seats.order_by("position")]
    assert [totals[n] for n in seat_numbers] == [60, -180, 60, 60]


def test_a_line_the_rules_cannot_produce_stores_nothing(table, organiser):
    with pytest.raises(ResultError) as caught:
        enter_written_deals(
            table=table,
            rows=[
                row(1, "halbe", 1, None, 60, None, None),
                row(2, "halbe", 1, -25, 75, -25, -25),
            ],
            user=organiser,
        )
    assert caught.value.message.startswith("Deal 2: Halbe, won: 10, 20, 30, 40")
    assert "25 is not possible" in caught.value.message
    assert not Deal.objects.filter(table=table).exists()


def test_a_written_row_must_add_up_to_zero(table, organiser):
    with pytest.raises(ResultError, match="adds up to -10"):
        enter_written_deals(
            table=table, rows=[row(1, "halbe", 1, -20, 60, -20, -30)], user=organiser
        )


def test_written_numbers_already_taken_conflict(table, organiser):
    enter_deal(table=table, number=1, inputs=EINE_WON)
    with pytest.raises(DealConflict):
        enter_written_deals(
            table=table, rows=[row(1, "halbe", 1, None, 60, None, None)], user=organiser
        )


def test_a_written_deal_is_corrected_as_written_with_a_reason(table, organiser):
    (deal,) = enter_written_deals(
        table=table, rows=[row(1, "halbe", 1, None, 60, None, None)], user=organiser
    )
    with pytest.raises(ResultError):
        revise_written_deal(
            deal=deal,
            row=row(1, "halbe", 1, None, -60, None, None),
            expected_version=deal.version,
            user=organiser,
            reason="",
        )
    deal = revise_written_deal(
        deal=deal,
        row=row(1, "halbe", 1, None, -60, None, None),
        expected_version=deal.version,
        user=organiser,
        reason="Vorzeichen verwechselt",
    )
    assert deal.scores[:4] == [20, -60, 20, 20] and deal.won is False and deal.version == 2


# --------------------------------------------------------------------------- totals per table


def test_a_table_with_only_round_sums_in_a_deals_tournament(swm_tournament, organiser):
    sums_only = seat_table(tournament=swm_tournament, table_number=1)
    every_deal = seat_table(tournament=swm_tournament, table_number=2)
    enter_deal(table=every_deal, number=1, inputs=EINE_WON)
    enter_totals(table=sums_only, totals=[120, -40, -40, -40], user=organiser)
    with pytest.raises(ResultError, match="round totals"):
        enter_deal(table=sums_only, number=2, inputs=EINE_WON)
    with pytest.raises(ResultError, match="have been entered"):
        enter_totals(table=every_deal, totals=[0, 0, 0, 0], user=organiser)
    status = {t.number: t for t in round_status(round=sums_only.round).tables}
    assert not status[1].is_open and status[1].expected == 1
    assert status[2].is_open and status[2].done == 1
    open_tables = tournament_standings(tournament=swm_tournament).open_tables
    assert [t.table_number for t in open_tables] == [2]


# --------------------------------------------------------------------------- close guard


def test_closing_with_open_tables_needs_confirmation(table, organiser):
    enter_deal(table=table, number=1, inputs=EINE_WON)
    enter_deal(table=table, number=2, inputs=EINE_WON, via="table", entered_by_position=0)
    with pytest.raises(RoundStillOpen) as caught:
        set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser)
    (still_open,) = caught.value.open_tables
    assert (still_open.number, still_open.done, still_open.pending) == (1, 1, 1)
    table.round.refresh_from_db()
    assert table.round.state == Round.State.PLAYING
    set_round_state(
        round=table.round,
        state=Round.State.CLOSED,
        user=organiser,
        reason="Zeit abgelaufen",
        close_open=True,
    )
    table.round.refresh_from_db()
    assert table.round.state == Round.State.CLOSED
    assert RoundChange.objects.get(action="closed").reason == "Zeit abgelaufen"


def test_a_finished_round_closes_without_a_question(organiser):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=2)
    table = seat_table(tournament=tournament)
    enter_deal(table=table, number=1, inputs=EINE_WON)
    enter_deal(table=table, number=2, inputs=EINE_WON)
    closed = set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser)
    assert closed.state == Round.State.CLOSED


def test_close_view_lists_what_is_open_and_asks(client, table, organiser):
    client.force_login(organiser)
    enter_deal(table=table, number=1, inputs=EINE_WON, via="table", entered_by_position=0)
    tournament = table.round.tournament
    url = reverse("tournaments:round_state", args=[tournament.pk, 1])
    response = client.post(url, {"state": "closed"})
    assert response.status_code == 409
    page = response.content.decode()
    assert "Round 1 is not finished yet." in page
    assert "0 of 24 deals" in page and "1 deal waiting for confirmation" in page
    assert 'name="close_open"' in page
    table.round.refresh_from_db()
    assert table.round.state != Round.State.CLOSED
    response = client.post(url, {"state": "closed", "close_open": "1", "reason": "Zeit um"})
    assert response.status_code == 302
    table.round.refresh_from_db()
    assert table.round.state == Round.State.CLOSED


# --------------------------------------------------------------------------- draw guard


def test_next_round_waits_for_the_current_one_unless_the_organiser_says_so(db):
    from tests.factories import EntryFactory
    from tournaments.services.draws import draw_next_round

    tournament = TournamentFactory(rules_slug="swm", rounds=2)
    for _ in range(8):
        EntryFactory(tournament=tournament, checked_in=True)
    draw_next_round(tournament=tournament, number=1)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="still being played"):
        draw_next_round(tournament=tournament, number=2)
    assert draw_next_round(tournament=tournament, number=2, while_previous_open=True).number == 2


# --------------------------------------------------------------------------- finished step


def test_finishing_needs_every_round_closed_and_then_locks(organiser):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=1, rounds=1)
    table = seat_table(tournament=tournament)
    assert not finish.finish_state(tournament=tournament).can_finish
    enter_deal(table=table, number=1, inputs=EINE_WON)
    with pytest.raises(ResultError, match="Close round 1"):
        finish.finish_tournament(tournament=tournament, user=organiser)
    set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser)
    tournament = finish.finish_tournament(tournament=tournament, user=organiser)
    assert tournament.finished_at is not None
    with pytest.raises(ResultError, match="finished"):
        set_round_state(
            round=table.round, state=Round.State.PLAYING, user=organiser, reason="Nachzählung"
        )
    with pytest.raises(ResultError):
        finish.reopen_tournament(tournament=tournament, user=organiser, reason=" ")
    tournament = finish.reopen_tournament(
        tournament=tournament, user=organiser, reason="Einspruch Tisch 1"
    )
    assert tournament.finished_at is None
    assert RoundChange.objects.filter(reason__contains="Einspruch Tisch 1").exists()


def test_finish_view_and_detail_page(client, organiser):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=1, rounds=1)
    table = seat_table(tournament=tournament)
    enter_deal(table=table, number=1, inputs=EINE_WON)
    set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser)
    client.force_login(organiser)
    detail = reverse("tournaments:tournament_detail", args=[tournament.pk])
    assert "Finish tournament" in client.get(detail).content.decode()
    url = reverse("tournaments:tournament_finish", args=[tournament.pk])
    # the button asks first, saying what finishing fixes; nothing is locked yet
    question = client.post(url, {"action": "finish"})
    assert question.status_code == 200
    html = question.content.decode()
    assert "cannot be changed afterwards" in html and "prize money" in html
    assert 'name="confirm" value="1"' in html
    tournament.refresh_from_db()
    assert tournament.finished_at is None
    response = client.post(url, {"action": "finish", "confirm": "1"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.finished_at is not None
    page = client.get(detail).content.decode()
    assert "Final standings" in page and "Prize list" in page


# --------------------------------------------------------------------------- round clock


def test_round_clock_and_time_up_list(client, table, organiser):
    with pytest.raises(ResultError):
        set_round_clock(round=table.round, minutes=0, user=organiser)
    round_ = set_round_clock(round=table.round, minutes=90, user=organiser)
    assert round_.time_limit_minutes == 90
    assert abs(round_.ends_at - timezone.now() - datetime.timedelta(minutes=90)).seconds < 60
    client.force_login(organiser)
    url = reverse("tournaments:desk_round", args=[table.round.tournament.pk, 1])
    page = client.get(url).content.decode()
    assert "data-round-clock" in page and 'id="time-up"' not in page
    Round.objects.filter(pk=table.round.pk).update(ends_at=timezone.now())
    page = client.get(url).content.decode()
    assert 'id="time-up"' in page and "These tables have not finished" in page


# --------------------------------------------------------------------------- the desk page


def test_written_sheet_page_checks_then_saves(client, table, organiser):
    client.force_login(organiser)
    tournament = table.round.tournament
    url = reverse("tournaments:desk_written", args=[tournament.pk, 1, 1])
    page = client.get(url)
    assert page.status_code == 200
    assert "Check this sheet" in page.content.decode()
    data = {
        "contract_1": "halbe",
        "declarer_1": "1",
        "amount_1_1": "+60",
        "contract_2": "halbe",
        "declarer_2": "2",
        "amount_2_0": "-25",
        "amount_2_1": "-25",
        "amount_2_2": "75",
        "amount_2_3": "-25",
        "action": "check",
    }
    checked = client.post(url, data).content.decode()
    assert "-20 · +60 · -20 · -20" in checked
    assert "25 is not possible" in checked
    assert not Deal.objects.filter(table=table).exists()
    # saving with a wrong line saves nothing either
    client.post(url, {**data, "action": "save"})
    assert not Deal.objects.filter(table=table).exists()
    data.update({"amount_2_0": "-20", "amount_2_1": "-20", "amount_2_2": "60", "amount_2_3": "-20"})
    response = client.post(url, {**data, "action": "save"})
    assert response.status_code == 302
    assert list(
        Deal.objects.filter(table=table, as_written=True).values_list("number", flat=True)
    ) == [1, 2]
    # the correction link of a written deal opens the written form
    deal = Deal.objects.get(table=table, number=1)
    response = client.get(reverse("tournaments:deal_correct", args=[deal.pk]))
    assert response.url == reverse("tournaments:deal_correct_written", args=[deal.pk])
    assert client.get(response.url).status_code == 200


def test_written_page_needs_an_organiser(client, table, django_user_model):
    tournament = table.round.tournament
    url = reverse("tournaments:desk_written", args=[tournament.pk, 1, 1])
    assert client.get(url).status_code == 302  # to the login page
    player = django_user_model.objects.create_user("spieler", password="pw")
    client.force_login(player)
    assert client.get(url).status_code == 403  # signed in, but no role


def test_projector_and_table_page_show_the_clock(client, table, organiser):
    tournament = table.round.tournament
    projector = reverse("tournaments:projector", args=[tournament.pk])
    phone = reverse("tournaments:table_entry", args=[table.token])
    assert "data-round-clock" not in client.get(projector).content.decode()
    set_round_clock(round=table.round, minutes=45, user=organiser)
    page = client.get(projector).content.decode()
    assert "data-round-clock" in page and "js/round-clock.js" in page
    session = client.session
    session[f"table-seat:{table.token}"] = 0
    session.save()
    assert "data-round-clock" in client.get(phone).content.decode()


def test_engine_messages_name_the_rule_source_not_its_slug(table):
    with pytest.raises(ResultError) as caught:
        enter_deal(table=table, number=1, inputs={"contract": "trio", "declarer": 0})
    assert "Black Forest Cego Championship" in caught.value.message
    assert " swm " not in caught.value.message


def test_new_tournament_form_preselects_the_only_club_and_season(client, organiser):
    from seasons.models import Season
    from tests.factories import ClubFactory

    club = ClubFactory()
    season = Season.objects.create(
        name="2026/27", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2027, 6, 30)
    )
    client.force_login(organiser)
    response = client.get(reverse("tournaments:tournament_create"))
    form = response.context["form"]
    assert form.initial["host_club"] == club.pk and form.initial["season"] == season.pk
    page = response.content.decode()
    # labels start with a capital; rule sources by name with a line of description
    assert ">Host club:</label>" in page and ">Rule source:</" in page
    assert "Black Forest Cego Championship" in page
    assert "Die 16 einheitlichen Regeln der Cego-Schwarzwaldmeisterschaft" in page
    ClubFactory()
    form = client.get(reverse("tournaments:tournament_create")).context["form"]
    assert "host_club" not in form.initial


def test_draw_page_asks_before_drawing_while_a_round_is_played(client, organiser):
    from tests.factories import EntryFactory
    from tournaments.services.draws import draw_next_round

    tournament = TournamentFactory(rules_slug="swm", rounds=2)
    for _ in range(8):
        EntryFactory(tournament=tournament, checked_in=True)
    draw_next_round(tournament=tournament, number=1)
    client.force_login(organiser)
    url = reverse("tournaments:round_draw", args=[tournament.pk, 2])
    page = client.get(url).content.decode()
    assert "Round 1 is still being played." in page and 'name="while_previous_open"' in page
    client.post(url, {"action": "draw"})
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    client.post(url, {"action": "draw", "while_previous_open": "1"})
    assert Round.objects.filter(tournament=tournament, number=2).exists()


def test_written_sheet_takes_typographic_minus_and_reports_every_line(client, table, organiser):
    client.force_login(organiser)
    tournament = table.round.tournament
    url = reverse("tournaments:desk_written", args=[tournament.pk, 1, 1])
    data = {
        "contract_1": "halbe",
        "declarer_1": "1",
        "amount_1_1": "\u2212120",  # the minus of phones and Word: lost, 40 to each defender
        "contract_2": "halbe",
        "declarer_2": "2",
        "amount_2_2": "+ 30",  # with a space
        "contract_3": "halbe",
        "declarer_3": "0",
        "amount_3_0": "zwölf",  # no number: its own error, the other lines are checked
        "contract_4": "halbe",
        "declarer_4": "3",
        "amount_4_3": "\u2013 25",  # an impossible amount is reported too
        "action": "check",
    }
    page = client.post(url, data)
    html = page.content.decode()
    assert "+40 · -120 · +40 · +40" in html
    assert "-10 · -10 · +30 · -10" in html
    assert "Enter a whole number." in html
    summary = html[html.index('class="check-summary"') :]
    summary = summary[: summary.index("</ul>")]
    assert "Deal 3</a>: Enter a whole number." in summary  # every line's error, at once
    assert "25 is not possible" in summary
    assert not Deal.objects.filter(table=table).exists()
    # without the bad cell and the impossible line, the typographic minus is saved
    del data["amount_3_0"], data["contract_3"], data["declarer_3"]
    del data["amount_4_3"], data["contract_4"], data["declarer_4"]
    response = client.post(url, {**data, "action": "save"})
    assert response.status_code == 302
    assert Deal.objects.get(table=table, number=1).scores[:4] == [40, -120, 40, 40]


def test_written_sheet_heads_its_columns_like_the_printed_sheet(client, table, organiser):
    client.force_login(organiser)
    tournament = table.round.tournament
    url = reverse("tournaments:desk_written", args=[tournament.pk, 1, 1])
    page = client.get(url)
    seats = page.context["sheet"].seats
    html = page.content.decode()
    for seat in seats:
        assert f"Seat {seat.position + 1} · No. {seat.number}" in html
        assert f'<strong class="seat-last">{seat.last_name}</strong>' in html
