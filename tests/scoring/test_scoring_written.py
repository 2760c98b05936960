"""A deal typed as written on a paper sheet: the engine says whether the amounts can be."""

from __future__ import annotations

import pytest

from rules.builtin_sources import load_builtin
from scoring import DealInput, ScoringError, score_deal
from scoring.written import check_written, written_outcomes

SWM = load_builtin("swm")


def check(amounts, contract="halbe", declarer=1, rules=SWM, seats=4, out=None):
    return check_written(
        rules, seats=seats, contract=contract, declarer=declarer, sitting_out=out, amounts=amounts
    )


def test_the_declarers_amount_fills_in_the_defenders():
    outcome = check([None, 60, None, None])
    assert outcome.scores == (-20, 60, -20, -20)
    assert outcome.won is True


def test_a_lost_game_as_written():
    outcome = check([20, -60, 20, 20])
    assert outcome.scores == (20, -60, 20, 20)
    assert outcome.won is False


def test_an_amount_the_rules_cannot_produce_says_what_it_could_be():
    with pytest.raises(ScoringError) as caught:
        check([-25, 75, -25, -25])
    assert caught.value.code == "written_impossible"
    assert caught.value.field == "amounts"
    message = caught.value.message
    assert message.startswith("Halbe, won: 10, 20, 30, 40 … 120 from each defender")
    assert "lost: 10, 20, 30, 40 … 120 to each defender" in message
    assert message.endswith("25 is not possible")


def test_the_row_must_add_up_to_zero():
    with pytest.raises(ScoringError) as caught:
        check([-20, 60, -20, -30])
    assert caught.value.code == "written_sum"
    assert caught.value.params == {"sum": -10}


def test_unequal_defenders_in_a_normal_game_are_refused():
    with pytest.raises(ScoringError) as caught:
        check([-10, 60, -20, -30])
    assert caught.value.code == "written_defenders_differ"


def test_raeuber_needs_every_amount_and_accepts_a_possible_row():
    with pytest.raises(ScoringError) as caught:
        check([None, 40, None, None], contract="raeuber", declarer=0)
    assert caught.value.code == "written_ambiguous"
    # the announcer (seat 0) took most points: pays double (40 x 2) to each other player
    row = check([-240, 80, 80, 80], contract="raeuber", declarer=0)
    assert row.scores == (-240, 80, 80, 80)
    with pytest.raises(ScoringError) as caught:
        check([-90, 30, 30, 30], contract="raeuber", declarer=0)
    assert caught.value.code == "written_impossible_loser"
    assert "30 is not possible" in caught.value.message


def test_every_engine_result_is_accepted_as_written():
    # property: whatever the engine scores for a contract, typed back in, is found
    for points in range(0, 80, 7):
        deal = DealInput(seats=4, contract="eine", declarer=2, declarer_points=points)
        scores = score_deal(SWM, deal).scores
        assert check(list(scores), contract="eine", declarer=2).scores == scores
        only_declarer = [None, None, scores[2], None]
        assert check(only_declarer, contract="eine", declarer=2).scores == scores


def test_a_seat_sitting_out_and_a_five_table():
    bb = load_builtin("bb2013")
    outcomes = written_outcomes(bb, seats=5, contract="eine", declarer=1, sitting_out=0)
    assert outcomes
    outcome = outcomes[0]
    assert check(list(outcome.scores), "eine", 1, bb, 5, 0).scores == (outcome.scores)


def test_bonuses_are_part_of_what_a_row_can_be():
    rules = load_builtin("dreierles")
    base = DealInput(seats=3, contract="dreier", declarer=0, declarer_points=40)
    with_trull = DealInput(
        seats=3,
        contract="dreier",
        declarer=0,
        declarer_points=40,
        bonuses=(__import__("scoring").Bonus("trull", 1),),
    )
    scores = score_deal(rules, with_trull).scores
    assert scores != score_deal(rules, base).scores
    assert check(list(scores), contract="dreier", declarer=0, rules=rules, seats=3).scores == (
        scores
    )


def test_a_contract_the_table_does_not_play_is_refused_with_its_field():
    with pytest.raises(ScoringError) as caught:
        check([None, 60, None, None], contract="no_such_game")
    assert caught.value.field == "contract"


def test_missing_amounts():
    with pytest.raises(ScoringError) as caught:
        check([None, None, None, None])
    assert caught.value.code == "required"
    with pytest.raises(ScoringError) as caught:
        check([1, 2])
    assert caught.value.code == "length"


@pytest.mark.parametrize(
    "slug", ["bb2013", "csg2012", "dreierles", "kf2005", "schwaerzehof", "swm"]
)
def test_every_row_a_source_can_produce_is_accepted_back(slug):
    rules = load_builtin(slug)
    for seats, table in rules.tables.items():
        out = 0 if table.active < seats else None
        for contract in rules.contracts:
            if contract in table.forbidden:
                continue
            for outcome in written_outcomes(
                rules, seats=seats, contract=contract, declarer=1, sitting_out=out
            ):
                if sum(outcome.scores) != 0:
                    continue  # not a balanced sheet row (cannot be typed in)
                found = check_written(
                    rules,
                    seats=seats,
                    contract=contract,
                    declarer=1,
                    sitting_out=out,
                    amounts=list(outcome.scores),
                )
                assert found.scores == outcome.scores


def test_an_impossible_declarer_amount_lists_the_declarers_amounts():
    # 40 for the declarer is 13⅓ from each of three defenders: impossible, although 40 from
    # each defender is possible; the message lists the declarer's amounts, not the defenders'
    with pytest.raises(ScoringError) as caught:
        check([None, 40, None, None])
    assert caught.value.code == "written_impossible_declarer"
    message = caught.value.message
    assert message.startswith("Halbe, won: 30, 60, 90, 120 … 360 for the declarer")
    assert message.endswith("40 is not possible")
    listed = message.split(";")[0]
    assert " 40," not in listed


def test_unequal_defenders_are_named_as_such():
    with pytest.raises(ScoringError) as caught:
        check([-10, 60, -20, -30])
    assert caught.value.code == "written_defenders_differ"
    assert "60 is not possible" not in caught.value.message
