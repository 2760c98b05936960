"""swap_players, new_seed, opponents_from_tables, evaluate_tables."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    MAX_SEED,
    DrawError,
    draw_round,
    evaluate_tables,
    new_seed,
    opponents_from_tables,
    swap_players,
)

TABLES = ((1, 2, 3, 4), (5, 6, 7, 8, 9))


def test_swap_between_tables_keeps_seats():
    assert swap_players(tables=TABLES, a=2, b=9) == ((1, 9, 3, 4), (5, 6, 7, 8, 2))


def test_swap_within_a_table_swaps_seats():
    assert swap_players(tables=TABLES, a=5, b=8) == ((1, 2, 3, 4), (8, 6, 7, 5, 9))


def test_swap_is_pure_and_accepts_lists():
    tables = [[1, 2], [3, 4]]
    assert swap_players(tables=tables, a=1, b=4) == ((4, 2), (3, 1))
    assert tables == [[1, 2], [3, 4]]


@pytest.mark.parametrize(("a", "b", "message"), [(1, 99, "99"), (99, 1, "99"), (3, 3, "itself")])
def test_swap_errors(a, b, message):
    with pytest.raises(DrawError, match=message):
        swap_players(tables=TABLES, a=a, b=b)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**63 - 1), st.data())
def test_swap_twice_restores_a_draw(seed, data):
    draw = draw_round(
        players=range(13), table_sizes=[4, 4, 5], seed=seed, previous_opponents={}, keep_apart=[]
    )
    a, b = data.draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True))
    swapped = swap_players(tables=draw.tables, a=a, b=b)
    assert swapped != draw.tables
    assert draw.seat_of(entry=a) == _seat(swapped, b)
    assert swap_players(tables=swapped, a=b, b=a) == draw.tables


def _seat(tables, entry):
    return next((t, s) for t, table in enumerate(tables) for s, e in enumerate(table) if e == entry)


def test_new_seed_fits_a_bigint():
    seeds = {new_seed() for _ in range(200)}
    assert len(seeds) == 200
    assert all(isinstance(s, int) and 1 <= s <= MAX_SEED == 2**63 - 1 for s in seeds)
    # uses the whole range, not just 32 bits
    assert max(seeds) > 2**40


def test_opponents_from_tables_of_several_rounds():
    opponents = opponents_from_tables(tables=[(1, 2, 3), (4, 5), (1, 4), (6,)])
    assert opponents == {1: {2, 3, 4}, 2: {1, 3}, 3: {1, 2}, 4: {1, 5}, 5: {4}, 6: set()}


def test_evaluate_tables_counts_pairs():
    previous = opponents_from_tables(tables=[(1, 2, 3, 4)])
    # groups stand for all their pairs
    keep_apart = [frozenset({5, 6, 7}), frozenset({1, 9})]
    assert evaluate_tables(tables=TABLES, previous_opponents=previous, keep_apart=keep_apart) == (
        6,
        3,
    )
    assert evaluate_tables(
        tables=((1, 5, 2, 6), (3, 7, 4, 8, 9)),
        previous_opponents=[frozenset({1, 2}), frozenset({3, 4})],
        keep_apart=keep_apart,
    ) == (2, 1)
