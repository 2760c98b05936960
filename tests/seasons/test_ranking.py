"""The season and team ranking rules as pure functions (no database)."""

import pytest

from seasons import ranking as season_ranking
from seasons.charts import line_chart
from seasons.ranking import SeasonRule
from tournaments import ranking
from tournaments.ranking import TeamResult


def test_competition_ranks_share_and_skip():
    assert ranking.competition_ranks([50, 30, 30, 10]) == [1, 2, 2, 4]
    assert ranking.competition_ranks([]) == []


def test_places_by_total():
    assert ranking.places({"a": -10, "b": 40, "c": 40}) == {"b": 1, "c": 1, "a": 3}


def test_sum_rule_counts_negative_results():
    score = season_ranking.season_score({1: 100, 2: -120, 3: 30}, SeasonRule())
    assert score.score == 10 and score.counted == {1, 2, 3} and score.ranked


def test_best_n_drops_the_worst_results():
    score = season_ranking.season_score(
        {1: 100, 2: -120, 3: 30}, SeasonRule(scoring="best_n", best_of=2)
    )
    assert score.score == 130 and score.counted == {1, 3}


def test_best_n_with_fewer_results_counts_them_all():
    score = season_ranking.season_score({1: -5}, SeasonRule(scoring="best_n", best_of=3))
    assert score.score == -5 and score.counted == {1}


def test_cup_points_by_place_and_none_beyond_the_table():
    rule = SeasonRule(scoring="cup", cup_points=(25, 20, 16))
    score = season_ranking.season_score({1: 0, 2: 0, 3: 0}, rule, {1: 1, 2: 3, 3: 4})
    assert score.score == 25 + 16 + 0


def test_cup_needs_places():
    with pytest.raises(ValueError):
        season_ranking.season_score({1: 5}, SeasonRule(scoring="cup", cup_points=(3,)))


def test_rule_is_checked():
    with pytest.raises(ValueError):
        SeasonRule(scoring="best_n")
    with pytest.raises(ValueError):
        SeasonRule(scoring="median")
    with pytest.raises(ValueError):
        SeasonRule(min_tournaments=0)


def test_minimum_tournaments_lists_the_rest_unranked_after_the_ranked():
    rule = SeasonRule(min_tournaments=2)
    scores = {
        "anna": season_ranking.season_score({1: 10, 2: 5}, rule),
        "bert": season_ranking.season_score({1: 200}, rule),  # the best total, but one tournament
        "carl": season_ranking.season_score({1: 15, 2: 1}, rule),
    }
    rows = season_ranking.rank_season(scores)
    assert [(r.key, r.rank) for r in rows] == [("carl", 1), ("anna", 2), ("bert", None)]


def test_equal_scores_share_a_rank_and_are_marked_tied():
    rule = SeasonRule()
    scores = {
        k: season_ranking.season_score({1: v}, rule) for k, v in {"b": 5, "a": 5, "c": 1}.items()
    }
    rows = season_ranking.rank_season(scores)
    assert [(r.key, r.rank, r.tied) for r in rows] == [
        ("a", 1, True),
        ("b", 1, True),
        ("c", 3, False),
    ]


def test_incomplete_teams_rank_after_complete_ones_whatever_their_total():
    teams = [
        TeamResult(key="big", name="Three strong", members=3, played=3, total=500),
        TeamResult(key="ok", name="Full", members=4, played=4, total=-20),
        TeamResult(key="absent", name="One stayed home", members=4, played=3, total=90),
        TeamResult(key="best", name="Best", members=4, played=4, total=60),
    ]
    rows = ranking.rank_teams(teams)
    assert [(r.team.key, r.rank, r.complete) for r in rows] == [
        ("best", 1, True),
        ("ok", 2, True),
        ("big", 3, False),
        ("absent", 4, False),
    ]


def test_team_key_ignores_case_and_spaces():
    assert ranking.team_key(" Die  Schwarzwälder ") == ranking.team_key("die schwarzwälder")


def test_line_chart_keeps_zero_in_range_and_orders_points_left_to_right():
    chart = line_chart([("a", 10), ("b", 30), ("c", 20)], width=200, height=100)
    xs = [p.x for p in chart.points]
    assert xs == sorted(xs)
    assert chart.bottom_value == 0 and chart.top_value == 30
    higher = {p.label: p.y for p in chart.points}
    assert higher["b"] < higher["c"] < higher["a"] < chart.zero_y  # SVG y grows downwards
    negative = line_chart([("a", -40)])
    assert negative.points[0].y > negative.zero_y
