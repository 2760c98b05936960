"""draw_round: everybody seated once, reproducible, repeat-free and keep-apart where possible."""

import random
from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    Draw,
    DrawError,
    draw_round,
    evaluate_tables,
    opponents_from_tables,
    plan_table_sizes,
)

CEGO = frozenset({3, 4, 5})


def plan(players: int) -> list[int]:
    return plan_table_sizes(players=players, allowed_sizes=CEGO, preferred_size=4)


def lot(players, sizes, seed, previous=(), keep_apart=(), **kwargs) -> Draw:
    return draw_round(
        players=players,
        table_sizes=sizes,
        seed=seed,
        previous_opponents=previous,
        keep_apart=keep_apart,
        **kwargs,
    )


def random_tables(rng: random.Random, players: list[int], sizes: list[int]):
    shuffled = players[:]
    rng.shuffle(shuffled)
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(shuffled[start : start + size]))
        start += size
    return tables


def pairs_together(tables, pairs) -> int:
    return sum(frozenset(p) in pairs for table in tables for p in combinations(table, 2))


field_sizes = st.integers(5, 60).filter(lambda n: n not in (1, 2))
seeds = st.integers(0, 2**63 - 1)


@settings(max_examples=60, deadline=None)
@given(field_sizes, seeds, st.randoms(use_true_random=False), st.integers(0, 3))
def test_everybody_seated_once_at_planned_tables(n, seed, rnd, rounds_before):
    players = rnd.sample(range(1, 10_000), n)
    sizes = plan(n)
    earlier = []
    for _ in range(rounds_before):
        earlier += random_tables(rnd, players, sizes)
    draw = lot(players, sizes, seed, opponents_from_tables(tables=earlier))
    seated = [e for table in draw.tables for e in table]
    assert sorted(seated) == sorted(players)
    assert [len(t) for t in draw.tables] == sizes
    assert draw.table_sizes == tuple(sizes)
    assert draw.seed == seed
    met = {frozenset(p) for t in earlier for p in combinations(t, 2)}
    assert draw.repeat_pairs == pairs_together(draw.tables, met)
    assert draw.keep_apart_violations == 0


@settings(max_examples=40, deadline=None)
@given(field_sizes, seeds, st.randoms(use_true_random=False))
def test_same_seed_same_draw_regardless_of_input_order(n, seed, rnd):
    players = rnd.sample(range(1, 1000), n)
    sizes = plan(n)
    previous = opponents_from_tables(tables=random_tables(rnd, players, sizes))
    teams = [frozenset(rnd.sample(players, min(4, n))) for _ in range(2)]
    first = lot(players, sizes, seed, previous, teams)
    reordered = players[::-1]
    rnd.shuffle(reordered)
    again = lot(reordered, sizes, seed, previous, teams)
    assert again == first
    # the previous opponents as pairs instead of a mapping: same draw
    as_pairs = [frozenset((a, b)) for a, bs in previous.items() for b in bs]
    assert lot(players, sizes, seed, as_pairs, teams) == first


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 60), seeds, seeds)
def test_different_seed_gives_different_draw(n, seed, other):
    assume(seed != other)
    players = list(range(n))
    sizes = plan(n)
    # at least 8 players: the chance of two identical lots (seat order included) is < 1e-4
    assert lot(players, sizes, seed).tables != lot(players, sizes, other).tables


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 12), seeds, st.randoms(use_true_random=False))
def test_round_two_at_tables_of_four_is_repeat_free(tables, seed, rnd):
    # With at least 4 tables of 4, a repeat-free second round always exists: deal the
    # players of round 1 table after table round-robin onto the tables.
    n = 4 * tables
    players = rnd.sample(range(1, 10_000), n)
    round_1 = random_tables(rnd, players, [4] * tables)
    draw = lot(players, [4] * tables, seed, opponents_from_tables(tables=round_1))
    assert draw.repeat_pairs == 0
    met = {frozenset(p) for t in round_1 for p in combinations(t, 2)}
    assert pairs_together(draw.tables, met) == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**63 - 1))
def test_sixteen_players_round_two_after_the_first_draw(seed):
    players = list(range(101, 117))
    first = lot(players, [4] * 4, seed)
    second = lot(players, [4] * 4, seed + 1, opponents_from_tables(tables=first.tables))
    assert second.repeat_pairs == 0
    # 16 players, tables of 4: every round-2 table takes one player from each round-1 table
    for table in second.tables:
        assert sorted(first.seat_of(entry=e)[0] for e in table) == [0, 1, 2, 3]


@settings(max_examples=40, deadline=None)
@given(st.integers(16, 80), seeds, st.randoms(use_true_random=False), st.integers(0, 2))
def test_keep_apart_separated_when_possible(n, seed, rnd, rounds_before):
    # Hidden seating first; teams take at most one player per hidden table, so a draw without
    # any keep-apart violation exists.
    players = rnd.sample(range(1, 10_000), n)
    sizes = plan(n)
    hidden = [list(t) for t in random_tables(rnd, players, sizes)]
    teams = []
    for _ in range(n // 4):
        chosen = rnd.sample(range(len(hidden)), min(4, len(hidden)))
        teams.append(frozenset(rnd.choice(hidden[t]) for t in chosen))
    earlier = []
    for _ in range(rounds_before):
        earlier += random_tables(rnd, players, sizes)
    draw = lot(players, sizes, seed, opponents_from_tables(tables=earlier), teams)
    assert draw.keep_apart_violations == 0
    apart = {frozenset(p) for team in teams for p in combinations(team, 2)}
    assert pairs_together(draw.tables, apart) == 0


def brute_force_best(players, sizes, met, apart) -> tuple[int, int]:
    """Fewest (keep-apart violations, repeats) over all seatings (small fields only)."""
    best = None

    def place(rest, t, tables):
        nonlocal best
        if t == len(sizes):
            score = (pairs_together(tables, apart), pairs_together(tables, met))
            best = score if best is None or score < best else best
            return
        for table in combinations(rest, sizes[t]):
            place([p for p in rest if p not in table], t + 1, [*tables, table])

    place(sorted(players), 0, [])
    return best


@settings(max_examples=30, deadline=None)
@given(st.integers(6, 10), seeds, st.randoms(use_true_random=False), st.integers(1, 3))
def test_small_fields_reach_the_brute_force_optimum(n, seed, rnd, rounds_before):
    players = list(range(1, n + 1))
    sizes = plan(n)
    assume(len(sizes) > 1)
    earlier = []
    for _ in range(rounds_before):
        earlier += random_tables(rnd, players, sizes)
    met = {frozenset(p) for t in earlier for p in combinations(t, 2)}
    apart = {frozenset(rnd.sample(players, 2)) for _ in range(rnd.randint(0, 4))}
    draw = lot(players, sizes, seed, opponents_from_tables(tables=earlier), list(apart))
    assert (draw.keep_apart_violations, draw.repeat_pairs) == brute_force_best(
        players, sizes, met, apart
    )
    assert (draw.repeat_pairs, draw.keep_apart_violations) == evaluate_tables(
        tables=draw.tables, previous_opponents=list(met), keep_apart=list(apart)
    )


def test_keep_apart_outweighs_repeats():
    players = list(range(1, 9))
    previous = opponents_from_tables(tables=[(1, 2, 3, 4), (5, 6, 7, 8)])
    apart = [frozenset({1, 5}), frozenset({1, 6}), frozenset({1, 7}), frozenset({1, 8})]
    # 1 must sit with 2, 3, 4 (everyone else is kept apart from 1), so both tables repeat
    # round 1: 12 repeat pairs are accepted rather than one keep-apart violation
    for seed in range(20):
        draw = lot(players, [4, 4], seed, previous, apart)
        assert draw.keep_apart_violations == 0
        assert set(draw.tables[draw.seat_of(entry=1)[0]]) == {1, 2, 3, 4}
        assert draw.repeat_pairs == 12


def test_seat_order_is_drawn_by_lot_after_optimisation():
    players = list(range(1, 17))
    round_1 = [tuple(range(s, s + 4)) for s in (1, 5, 9, 13)]
    previous = opponents_from_tables(tables=round_1)
    sorted_tables = 0
    first_seats = Counter()
    for seed in range(40):
        draw = lot(players, [4] * 4, seed, previous)
        assert draw.repeat_pairs == 0
        sorted_tables += sum(list(t) == sorted(t) for t in draw.tables)
        first_seats[draw.tables[0][0]] += 1
    # 160 tables; a random seat order is ascending with probability 1/24 (about 7 expected)
    assert sorted_tables < 40
    assert len(first_seats) > 4


def test_single_table_seat_order_varies():
    orders = {lot([7, 8, 9, 10], [4], seed).tables[0] for seed in range(60)}
    assert all(sorted(order) == [7, 8, 9, 10] for order in orders)
    assert len(orders) > 10
    assert set(permutations([7, 8, 9, 10])) >= orders


@pytest.mark.parametrize("n", [5, 7, 9, 13, 42, 84, 150])
def test_cego_fields_three_rounds(n):
    players = list(range(1000, 1000 + n))
    sizes = plan(n)
    earlier = []
    for r in range(3):
        draw = lot(players, sizes, 17 + r, opponents_from_tables(tables=earlier))
        assert sorted(e for t in draw.tables for e in t) == players
        assert [len(t) for t in draw.tables] == sizes
        if n >= 42:
            assert draw.repeat_pairs == 0
        earlier += draw.tables


@pytest.mark.parametrize("n", [9, 12, 30, 31])
def test_dreierles_fields(n):
    players = list(range(n))
    sizes = plan_table_sizes(players=n, allowed_sizes=frozenset({3, 4}), preferred_size=3)
    draw = lot(players, sizes, 5)
    assert [len(t) for t in draw.tables] == sizes
    assert sorted(e for t in draw.tables for e in t) == players
    assert draw.repeat_pairs == 0


def test_fixed_entries_keep_their_seats():
    players = list(range(1, 21))
    previous = opponents_from_tables(tables=[tuple(range(s, s + 4)) for s in range(1, 21, 4)])
    fixed = {3: (0, 2), 4: (4, 0), 20: (2, 3)}
    for seed in range(15):
        draw = lot(players, [4] * 5, seed, previous, fixed=fixed)
        for entry, place in fixed.items():
            assert draw.seat_of(entry=entry) == place
        assert sorted(e for t in draw.tables for e in t) == players
        assert draw.repeat_pairs == 0


def test_fixed_players_who_met_count_as_repeats():
    previous = opponents_from_tables(tables=[(1, 2, 3, 4), (5, 6, 7, 8)])
    draw = lot(list(range(1, 9)), [4, 4], 3, previous, fixed={1: (0, 0), 2: (0, 1)})
    assert draw.tables[0][:2] == (1, 2)
    # 1-2 is a repeat; their two table mates either met 1 and 2 or each other; the other
    # table then holds two pairs who met: 4 at best
    assert draw.repeat_pairs == 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": [1, 2, 3, 4, 5], "table_sizes": [4]}, "seat 4, not 5"),
        ({"players": [1, 2, 3, 3], "table_sizes": [4]}, "more than once"),
        ({"players": [1, 2, 3, 4], "table_sizes": []}, "no tables"),
        ({"players": [1, 2, 3, 4], "table_sizes": [4, 0]}, "positive"),
        ({"players": [1, 2, 3, 4], "table_sizes": [4], "fixed": {9: (0, 0)}}, "not among"),
        ({"players": [1, 2, 3, 4], "table_sizes": [4], "fixed": {1: (1, 0)}}, "does not exist"),
        ({"players": [1, 2, 3, 4], "table_sizes": [4], "fixed": {1: (0, 4)}}, "does not exist"),
        (
            {"players": [1, 2, 3, 4], "table_sizes": [4], "fixed": {1: (0, 1), 2: (0, 1)}},
            "both fixed",
        ),
    ],
)
def test_invalid_draw_input_raises(kwargs, message):
    with pytest.raises(DrawError, match=message):
        draw_round(seed=1, previous_opponents={}, keep_apart=[], **kwargs)


def test_draw_is_frozen():
    draw = lot([1, 2, 3, 4], [4], 1)
    with pytest.raises(AttributeError):
        draw.seed = 2  # type: ignore[misc]


def repeat_free_seating_exists(players, size, met) -> bool:
    """Backtracking oracle: can ``players`` sit at tables of ``size`` without a repeat?"""

    def fill(rest) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        candidates = [p for p in others if frozenset((first, p)) not in met]
        for mates in combinations(candidates, size - 1):
            if any(frozenset(q) in met for q in combinations(mates, 2)):
                continue
            if fill([p for p in others if p not in mates]):
                return True
        return False

    return fill(sorted(players))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([12, 16]), seeds, st.randoms(use_true_random=False), st.integers(2, 4))
def test_later_rounds_repeat_free_whenever_possible(n, seed, rnd, rounds_before):
    # Earlier rounds are themselves drawn (repeat-avoiding), as in a real tournament.
    players = list(range(1, n + 1))
    earlier = []
    for r in range(rounds_before):
        earlier += lot(
            players, [4] * (n // 4), rnd.randrange(2**32) + r, opponents_from_tables(tables=earlier)
        ).tables
    met = {frozenset(p) for t in earlier for p in combinations(t, 2)}
    draw = lot(players, [4] * (n // 4), seed, opponents_from_tables(tables=earlier))
    possible = repeat_free_seating_exists(players, 4, met)
    event(f"repeat-free seating possible: {possible}")
    assert (draw.repeat_pairs == 0) == possible
