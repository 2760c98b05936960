"""plan_table_sizes: sizes sum up, only allowed sizes, minimal number of odd tables."""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, plan_table_sizes

CEGO = frozenset({3, 4, 5})


def all_plans(players: int, allowed: frozenset[int]) -> list[dict[int, int]]:
    """Every multiset of allowed table sizes summing to ``players`` (brute force)."""
    sizes = sorted(allowed)
    plans = []
    for counts in product(*(range(players // s + 1) for s in sizes)):
        if sum(c * s for c, s in zip(counts, sizes, strict=True)) == players:
            plans.append(dict(zip(sizes, counts, strict=True)))
    return plans


def odd_tables(plan: list[int], preferred: int) -> list[int]:
    return [s for s in plan if s != preferred]


@st.composite
def setups(draw):
    preferred = draw(st.integers(2, 6))
    others = draw(st.frozensets(st.integers(2, 7), max_size=3))
    allowed = others | {preferred}
    players = draw(st.integers(1, 60))
    return players, allowed, preferred


@settings(max_examples=150, deadline=None)
@given(setups(), st.booleans())
def test_plan_is_valid_and_minimal_or_impossible(setup, larger):
    players, allowed, preferred = setup
    plans = all_plans(players, allowed)
    if not plans:
        with pytest.raises(DrawError):
            plan_table_sizes(
                players=players,
                allowed_sizes=allowed,
                preferred_size=preferred,
                prefer_larger_odd_tables=larger,
            )
        return
    plan = plan_table_sizes(
        players=players,
        allowed_sizes=allowed,
        preferred_size=preferred,
        prefer_larger_odd_tables=larger,
    )
    assert sum(plan) == players
    assert set(plan) <= allowed
    fewest_odd = min(sum(c for s, c in p.items() if s != preferred) for p in plans)
    odd = odd_tables(plan, preferred)
    assert len(odd) == fewest_odd
    # odd tables come last, preferred first
    assert plan == [preferred] * (len(plan) - len(odd)) + sorted(odd, reverse=True)
    # tie-break: among the plans with fewest odd tables, the fewest (or most) tables in all
    table_counts = [
        sum(p.values())
        for p in plans
        if sum(c for s, c in p.items() if s != preferred) == fewest_odd
    ]
    assert len(plan) == (min(table_counts) if larger else max(table_counts))


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [4, 5]),
        (13, [4, 4, 5]),
        (42, [4] * 8 + [5, 5]),
        (84, [4] * 21),
        (150, [4] * 35 + [5, 5]),
    ],
)
def test_cego_hand_cases(players, expected):
    plan = plan_table_sizes(players=players, allowed_sizes=CEGO, preferred_size=4)
    # [4, 5] is reported as [4, 5]: preferred first, odd tables last
    assert plan == sorted(expected, key=lambda s: (s != 4, -s))


@pytest.mark.parametrize(
    ("players", "expected"),
    [(7, [4, 3]), (9, [4, 5]), (13, [4, 4, 5]), (42, [4] * 9 + [3, 3]), (150, [4] * 36 + [3, 3])],
)
def test_cego_prefer_smaller_odd_tables(players, expected):
    plan = plan_table_sizes(
        players=players, allowed_sizes=CEGO, preferred_size=4, prefer_larger_odd_tables=False
    )
    assert plan == expected


@pytest.mark.parametrize(
    ("players", "expected"),
    [(3, [3]), (4, [4]), (7, [3, 4]), (9, [3, 3, 3]), (10, [3, 3, 4]), (11, [3, 4, 4])],
)
def test_dreierles(players, expected):
    allowed = frozenset({3, 4})
    assert plan_table_sizes(players=players, allowed_sizes=allowed, preferred_size=3) == expected


@pytest.mark.parametrize(
    ("players", "allowed", "preferred", "message"),
    [
        (5, frozenset({4}), 4, "cannot be seated"),
        (2, CEGO, 4, "fewer than the smallest"),
        (5, frozenset({3, 4}), 3, "cannot be seated"),
        (0, CEGO, 4, "cannot seat 0"),
        (-4, CEGO, 4, "cannot seat -4"),
        (12, frozenset({3, 5}), 4, "not among the allowed"),
        (12, frozenset(), 4, "no table sizes"),
        (12, frozenset({0, 4}), 4, "positive"),
    ],
)
def test_impossible_plans_raise(players, allowed, preferred, message):
    with pytest.raises(DrawError, match=message):
        plan_table_sizes(players=players, allowed_sizes=allowed, preferred_size=preferred)


def test_draw_error_is_a_value_error():
    assert issubclass(DrawError, ValueError)
