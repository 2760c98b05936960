"""Entering, confirming and correcting deals through the service layer."""

import uuid

import pytest
from django.utils import translation

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, DealChange, Round
from tournaments.services.desk_entry import annul_deal, restore_deal
from tournaments.services.paper_sheets import enter_totals
from tournaments.services.phone_entry import confirm_deal, enter_deal, revise_deal
from tournaments.services.results_common import DealConflict, ResultError
from tournaments.services.round_state import set_round_state, void_table

pytestmark = pytest.mark.django_db

EINE_WON = {"contract": "eine", "declarer": 2, "declarer_points": 41}


def test_desk_entry_scores_and_counts_at_once(table):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    assert deal.status == Deal.Status.CONFIRMED
    assert deal.scores[:4] == [-20, -20, 60, -20]
    assert deal.dealer_position == 0
    assert [c.action for c in deal.changes.all()] == ["created"]
    table.round.refresh_from_db()
    assert table.round.state == Round.State.PLAYING


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"contract": "eine", "declarer": 2, "declarer_points": 80}, "declarer_points"),
        ({"contract": "dreier", "declarer": 2, "declarer_points": 40}, "contract"),
        ({"contract": "eine", "declarer": 4, "declarer_points": 40}, "declarer"),
        ({"contract": "ultimo", "declarer": 1}, "won"),
    ],
)
def test_bad_input_names_the_field_and_stores_nothing(table, inputs, field):
    with pytest.raises(ResultError) as caught:
        enter_deal(table=table, number=1, inputs=inputs)
    assert caught.value.field == field
    assert Deal.objects.count() == 0
    assert DealChange.objects.count() == 0


def test_deal_number_outside_the_round_is_refused(table):
    with pytest.raises(ResultError) as caught:
        enter_deal(table=table, number=25, inputs=EINE_WON)
    assert caught.value.code == "deal_number_range"
    assert caught.value.field == "number"


def test_same_number_twice_is_a_conflict_not_an_overwrite(table):
    enter_deal(table=table, number=1, inputs=EINE_WON)
    with pytest.raises(DealConflict) as caught:
        enter_deal(table=table, number=1, inputs={**EINE_WON, "declarer_points": 20})
    assert caught.value.code == "deal_taken"
    assert Deal.objects.get().declarer_points == 41


def test_repeated_submission_key_stores_one_deal(table):
    key = uuid.uuid4()
    first = enter_deal(table=table, number=1, inputs=EINE_WON, submission_key=key)
    again = enter_deal(table=table, number=1, inputs=EINE_WON, submission_key=key)
    assert first.pk == again.pk
    assert Deal.objects.count() == 1
    assert DealChange.objects.count() == 1


def test_submission_key_reused_for_another_deal_is_refused(table):
    key = uuid.uuid4()
    enter_deal(table=table, number=1, inputs=EINE_WON, submission_key=key)
    with pytest.raises(DealConflict) as caught:
        enter_deal(table=table, number=2, inputs=EINE_WON, submission_key=key)
    assert caught.value.code == "form_reused"


def test_table_entry_needs_a_second_player(table):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON, via="table", entered_by_position=0)
    assert deal.status == Deal.Status.PENDING
    with pytest.raises(ResultError) as caught:
        confirm_deal(deal=deal, confirmer_position=0, expected_version=1)
    assert caught.value.code == "same_seat"
    confirmed = confirm_deal(deal=deal, confirmer_position=3, expected_version=1)
    assert confirmed.status == Deal.Status.CONFIRMED
    # A double tap (the same page sends version 1 again) changes nothing.
    assert confirm_deal(deal=deal, confirmer_position=3, expected_version=1).version == 2


def test_pending_deal_revised_at_table_then_confirmed_by_someone_else(table):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON, via="table", entered_by_position=0)
    revised = revise_deal(
        deal=deal,
        inputs={**EINE_WON, "declarer_points": 45},
        expected_version=deal.version,
        entered_by_position=1,
    )
    assert revised.status == Deal.Status.PENDING
    with pytest.raises(ResultError):
        confirm_deal(deal=revised, confirmer_position=1, expected_version=revised.version)
    confirmed = confirm_deal(deal=revised, confirmer_position=0, expected_version=revised.version)
    assert confirmed.status == Deal.Status.CONFIRMED


def test_stale_edit_is_a_conflict(table, organiser):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    revise_deal(
        deal=deal,
        inputs={**EINE_WON, "declarer_points": 50},
        expected_version=1,
        user=organiser,
        reason="Zählfehler",
    )
    with pytest.raises(DealConflict) as caught:
        revise_deal(
            deal=deal,
            inputs={**EINE_WON, "declarer_points": 60},
            expected_version=1,
            user=organiser,
            reason="zweite Korrektur",
        )
    assert caught.value.code == "version_changed"
    assert Deal.objects.get().declarer_points == 50


def test_correction_keeps_history_with_reason(table, organiser):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    with pytest.raises(ResultError) as caught:
        revise_deal(deal=deal, inputs=EINE_WON, expected_version=1, user=organiser, reason=" ")
    assert caught.value.code == "reason_required"
    corrected = revise_deal(
        deal=deal,
        inputs={"contract": "eine", "declarer": 2, "declarer_points": 34},
        expected_version=1,
        user=organiser,
        reason="Schiedsrichter: Augen neu gezählt",
    )
    assert corrected.scores[2] < 0
    history = list(corrected.changes.order_by("pk"))
    assert [c.action for c in history] == ["created", "corrected"]
    assert history[1].before["inputs"]["declarer_points"] == 41
    assert history[1].after["inputs"]["declarer_points"] == 34
    assert history[1].changed_by == organiser


def test_players_cannot_change_a_confirmed_deal(table):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    with pytest.raises(ResultError) as caught:
        revise_deal(deal=deal, inputs=EINE_WON, expected_version=1, entered_by_position=1)
    assert caught.value.code == "organiser_only"


def test_annul_and_restore(table, organiser):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    with pytest.raises(ResultError) as caught:
        annul_deal(deal=deal, reason="", user=organiser)
    assert caught.value.code == "reason_required"
    assert annul_deal(deal=deal, reason="falsch gegeben", user=organiser).status == "annulled"
    assert restore_deal(deal=deal, reason="doch gültig", user=organiser).status == "confirmed"


@translation.override("en")
def test_a_closed_round_is_a_lock_until_reopened_with_a_reason(table, organiser):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser, close_open=True)
    with pytest.raises(ResultError, match="reopen") as caught:
        enter_deal(table=table, number=2, inputs=EINE_WON)
    assert caught.value.code == "round_closed"
    # not even the organiser with a reason: the round must be reopened first
    with pytest.raises(ResultError, match="reopen"):
        enter_deal(
            table=table, number=2, inputs=EINE_WON, user=organiser, reason="nachgetragen vom Blatt"
        )
    with pytest.raises(ResultError, match="reopen") as caught:
        annul_deal(deal=deal, reason="Schreibfehler", user=organiser)
    assert caught.value.code == "round_closed"
    with pytest.raises(ResultError, match="reopen") as caught:
        void_table(table=table, reason="Blatt unleserlich", user=organiser)
    assert caught.value.code == "round_closed"
    assert Deal.objects.filter(table=table).count() == 1
    with pytest.raises(ResultError) as caught:
        set_round_state(round=table.round, state=Round.State.PLAYING, user=organiser)
    assert caught.value.code == "reason_required"
    reopened = set_round_state(
        round=table.round, state=Round.State.PLAYING, user=organiser, reason="Nachzählung"
    )
    assert reopened.state == Round.State.PLAYING
    deal = enter_deal(table=table, number=2, inputs=EINE_WON, user=organiser)
    assert deal.status == Deal.Status.CONFIRMED


def test_voided_table_takes_no_more_deals(table, organiser):
    with pytest.raises(ResultError) as caught:
        void_table(table=table, reason="", user=organiser)
    assert caught.value.code == "reason_required"
    void_table(table=table, reason="Schreibfehler, nicht rekonstruierbar", user=organiser)
    with pytest.raises(ResultError) as caught:
        enter_deal(table=table, number=1, inputs=EINE_WON)
    assert caught.value.code == "table_voided"


def test_table_of_five_dealer_sits_out_and_pays_like_a_defender(db):
    tournament = TournamentFactory(rules_slug="schwaerzehof", tables_of_5=True)
    table = seat_table(tournament=tournament, size=5)
    # Deal 3: seat 2 deals and sits out; declarer seat 0 wins Cego with 45 -> (45-35)*1 = 10.
    deal = enter_deal(
        table=table, number=3, inputs={"contract": "cego", "declarer": 0, "declarer_points": 45}
    )
    assert deal.dealer_position == 2
    assert deal.scores == [40, -10, -10, -10, -10]
    with pytest.raises(ResultError) as caught:
        enter_deal(
            table=table, number=4, inputs={"contract": "cego", "declarer": 3, "declarer_points": 45}
        )
    assert caught.value.field == "declarer"  # seat 3 deals deal 4 and sits out


def test_totals_only_round(db, organiser):
    tournament = TournamentFactory(entry_mode="totals")
    table = seat_table(tournament=tournament)
    with pytest.raises(ResultError) as caught:
        enter_totals(table=table, totals=[10, 20, -30, 5], user=organiser)
    assert caught.value.code == "totals_sum"
    deal = enter_totals(table=table, totals=[110, 20, -90, -40], user=organiser)
    assert deal.kind == Deal.Kind.TOTAL
    with pytest.raises(DealConflict) as caught:
        enter_totals(table=table, totals=[0, 0, 0, 0], user=organiser)
    assert caught.value.code == "totals_changed"
    corrected = enter_totals(
        table=table,
        totals=[100, 30, -90, -40],
        user=organiser,
        expected_version=1,
        reason="Übertragungsfehler",
    )
    assert corrected.scores[:4] == [100, 30, -90, -40]
    with pytest.raises(ResultError) as caught:
        enter_deal(table=table, number=1, inputs=EINE_WON)
    assert caught.value.code == "totals_only"


def test_rule_source_writing_only_the_declarer_is_refused_clearly(db):
    from rules.builtin_sources import builtin_data

    data = builtin_data("swm")
    data["distribution"] = "declarer_only"
    tournament = TournamentFactory(rules_slug="swm", rules_snapshot=data)
    table = seat_table(tournament=tournament)
    with translation.override("en"), pytest.raises(ResultError, match="add up to 0") as caught:
        enter_deal(table=table, number=1, inputs=EINE_WON)
    assert caught.value.code == "declarer_only_rules"
    assert Deal.objects.count() == 0


def test_round_and_table_changes_are_logged_with_reasons(table, organiser):
    from tournaments.models import RoundChange
    from tournaments.services.round_state import unvoid_table

    set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser, close_open=True)
    set_round_state(
        round=table.round, state=Round.State.PLAYING, user=organiser, reason="Nachzählung Tisch 1"
    )
    void_table(table=table, reason="Blatt unleserlich", user=organiser)
    with pytest.raises(ResultError) as caught:
        unvoid_table(table=table, reason="", user=organiser)
    assert caught.value.code == "reason_required"
    unvoid_table(table=table, reason="Blatt doch rekonstruiert", user=organiser)
    log = list(RoundChange.objects.order_by("pk").values_list("action", "reason", "table"))
    assert log == [
        ("closed", "", None),
        ("reopened", "Nachzählung Tisch 1", None),
        ("table_voided", "Blatt unleserlich", table.pk),
        ("table_restored", "Blatt doch rekonstruiert", table.pk),
    ]
    entry = RoundChange.objects.first()
    with pytest.raises(ValueError, match="append-only"):
        entry.save()


@pytest.mark.parametrize(
    ("option", "round_number", "each"), [(True, 2, 4), (True, 1, 2), (False, 2, 2)]
)
def test_dreierles_last_rounds_raeuber_is_worth_four_when_the_tournament_agrees(
    db, option, round_number, each
):
    # REFERENCE 4.5: "By agreement the last round's Räuber is worth 4 instead of 2"
    tournament = TournamentFactory(
        rules_slug="dreierles",
        rounds=2,
        tables_of_3=True,
        preferred_table_size=3,
        last_round_raeuber=option,
    )
    table = seat_table(tournament=tournament, round_number=round_number, size=3)
    inputs = {"contract": "raeuber", "declarer": 0, "points": [10, 30, 20]}
    deal = enter_deal(table=table, number=1, inputs=inputs)
    assert deal.scores[:3] == [each, -2 * each, each]
