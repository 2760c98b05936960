"""The pure rating logic: a table's ranks (ties shared), the matches of a tournament, and
openskill's Plackett-Luce with ties rated as the average over the ways they could be broken."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from ratings.rating import (
    NEWCOMER,
    Match,
    Rater,
    Skill,
    display_number,
    is_provisional,
    table_matches,
    table_ranks,
)


def test_ranks_by_points_best_first_ties_share_the_rank():
    assert table_ranks({"a": -10, "b": 30, "c": -10, "d": 50}) == {"d": 1, "b": 2, "a": 3, "c": 3}
    assert table_ranks({"a": 10, "b": 10, "c": 5, "d": -25}) == {"a": 1, "b": 1, "c": 3, "d": 4}
    assert table_ranks({"a": 0, "b": 0, "c": 0}) == {"a": 1, "b": 1, "c": 1}


def test_matches_per_round_and_table_in_order_a_player_twice_counts_once():
    rows = [
        (2, 1, 7, 10),
        (1, 2, 5, 20),
        (1, 1, 1, 30),
        (1, 1, 2, -30),
        (1, 2, 6, -20),
        (2, 1, 8, -5),
        (2, 1, 7, -5),  # a second seat of player 7 at the same table: added up
        (3, 1, 9, 0),  # alone at a table: no match
    ]
    matches = table_matches(rows)
    assert [(m.round_number, m.table_number) for m in matches] == [(1, 1), (1, 2), (2, 1)]
    assert matches[2].points == ((7, 5), (8, -5))
    assert matches[0].ranks == {1: 1, 2: 2}


def test_a_table_without_ties_is_openskill_itself():
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[0, 1, 2, 3])
    match = Match(1, 1, ((1, 30), (2, 10), (3, -10), (4, -30)))
    rated = Rater().rate_match({}, match)
    assert [rated[p].mu for p in (1, 2, 3, 4)] == pytest.approx([t[0].mu for t in expected])
    assert [rated[p].sigma for p in (1, 2, 3, 4)] == pytest.approx([t[0].sigma for t in expected])


def test_tied_players_move_alike_and_stay_above_those_behind():
    rated = Rater().rate_match({}, Match(1, 1, ((1, 10), (2, 10), (3, 5), (4, -25))))
    assert rated[1] == rated[2]
    assert rated[1].mu > rated[3].mu > rated[4].mu  # openskill 6.2 alone gives 1, 2, 3 alike
    everybody_equal = Rater().rate_match({}, Match(1, 1, ((1, 0), (2, 0), (3, 0), (4, 0))))
    assert {round(s.mu, 9) for s in everybody_equal.values()} == {NEWCOMER.mu}
    assert all(s.sigma < NEWCOMER.sigma for s in everybody_equal.values())


def test_a_stronger_player_tying_a_weaker_one_loses_a_little():
    strong, weak = Skill(mu=32.0, sigma=3.0), Skill(mu=20.0, sigma=3.0)
    rated = Rater().rate_match({1: strong, 2: weak}, Match(1, 1, ((1, 0), (2, 0))))
    assert rated[1].mu < strong.mu and rated[2].mu > weak.mu


def test_the_number_shown_and_provisional():
    assert NEWCOMER.display == 1000 == display_number(25.0, 25.0 / 3.0)
    assert display_number(30.0, 2.0) == 1000 + 20 * 24
    assert is_provisional(2) and not is_provisional(3)


def test_a_tournament_rated_table_after_table_keeps_each_players_before():
    skills: dict[int, Skill] = {}
    matches = [Match(1, 1, ((1, 30), (2, -30))), Match(2, 1, ((1, -30), (2, 30)))]
    outcome = Rater().rate_tournament(skills, tournament_id=9, matches=matches)
    assert outcome.before == {1: NEWCOMER, 2: NEWCOMER}
    assert outcome.matches == {1: 2, 2: 2}
    assert outcome.after == skills and skills[1].sigma < NEWCOMER.sigma
