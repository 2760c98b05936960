"""Players who stay at one table all day ("bleibt am Tisch"): over many field sizes and
seeds they keep their table in every round, never share one with another such player while
there are tables enough, and the draw still keeps everyone else's rules: everybody seated
once at the planned tables, keep-apart pairs apart, no repeat meeting in round 2 of a field
large enough."""

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, draw_round, place_fixed_tables, plan_table_sizes

CEGO = frozenset({3, 4, 5})


def day(n: int, seed: int, staying: int, rounds: int = 3, apart_pairs: int = 3):
    """Draw ``rounds`` rounds of ``n`` players, ``staying`` of whom stay at their table, and
    ``apart_pairs`` keep-apart pairs among the others. Returns (draws, fixed, apart)."""
    rnd = random.Random(seed)
    players = rnd.sample(range(1, 10_000), n)
    sizes = plan_table_sizes(players=n, allowed_sizes=CEGO, preferred_size=4)
    fixed = rnd.sample(players, staying)
    others = [p for p in players if p not in fixed]
    apart = [frozenset(rnd.sample(others, 2)) for _ in range(apart_pairs)]
    draws, earlier, tables_of = [], [], {}
    for number in range(rounds):
        drawn = draw_round(
            players=players,
            table_sizes=sizes,
            seed=seed * 31 + number,
            previous_opponents=[frozenset(t) for t in earlier],
            keep_apart=apart,
            fixed_tables={e: tables_of.get(e) for e in fixed},
        )
        for e in fixed:
            tables_of.setdefault(e, drawn.seat_of(entry=e)[0])
        draws.append(drawn)
        earlier += drawn.tables
    return draws, fixed, apart, sizes


@settings(max_examples=120, deadline=None)
@given(st.integers(6, 64), st.integers(0, 2**32), st.data())
def test_staying_players_keep_their_table_in_every_round(n, seed, data):
    tables = len(plan_table_sizes(players=n, allowed_sizes=CEGO, preferred_size=4))
    staying = data.draw(st.integers(1, tables))
    draws, fixed, apart, sizes = day(n, seed, staying, apart_pairs=1 if n < 12 else 3)
    first = {e: draws[0].seat_of(entry=e)[0] for e in fixed}
    assert len(set(first.values())) == len(fixed)  # one table each
    for drawn in draws:
        assert list(drawn.table_sizes) == sizes
        seated = Counter(e for table in drawn.tables for e in table)
        assert len(seated) == n and set(seated.values()) == {1}
        for e in fixed:
            assert drawn.seat_of(entry=e)[0] == first[e]
        if n >= 12:  # room enough to keep three pairs apart round the fixed players
            assert drawn.keep_apart_violations == 0
            for table in drawn.tables:
                assert not any(frozenset(p) in apart for p in combinations(table, 2))


@pytest.mark.parametrize("n", range(20, 65, 3))
@pytest.mark.parametrize("seed", range(4))
def test_round_two_meets_nobody_again_round_the_staying_players(n, seed):
    tables = len(plan_table_sizes(players=n, allowed_sizes=CEGO, preferred_size=4))
    draws, fixed, _apart, _sizes = day(n, seed, staying=1 + seed % (tables - 1), rounds=2)
    assert draws[1].repeat_pairs == 0
    assert draws[1].keep_apart_violations == 0


def test_the_seat_at_the_table_is_drawn_by_lot():
    """The table stays; the seat (and so who deals first) is drawn each round."""
    seats = set()
    for seed in range(12):
        drawn = draw_round(
            players=list(range(1, 17)),
            table_sizes=[4, 4, 4, 4],
            seed=seed,
            previous_opponents=[],
            keep_apart=[],
            fixed_tables={7: 2},
        )
        table, seat = drawn.seat_of(entry=7)
        assert table == 2
        seats.add(seat)
    assert len(seats) > 1


def test_a_draw_without_staying_players_is_unchanged():
    """Stored seeds reproduce their draws: nobody staying draws as before the feature."""
    kwargs = dict(
        players=list(range(1, 22)),
        table_sizes=[4, 4, 4, 4, 5],
        seed=12345,
        previous_opponents=[],
        keep_apart=[],
    )
    assert draw_round(**kwargs) == draw_round(**kwargs, fixed_tables={})


def test_more_staying_players_than_tables_is_refused():
    with pytest.raises(DrawError):
        draw_round(
            players=list(range(1, 9)),
            table_sizes=[4, 4],
            seed=1,
            previous_opponents=[],
            keep_apart=[],
            fixed_tables={1: None, 2: None, 3: None},
        )


def test_two_who_sat_at_one_table_are_parted_the_lower_id_staying():
    # both were marked after round 1, where they sat together at table 3 (index 2)
    placed = place_fixed_tables(wanted={5: 2, 9: 2}, table_sizes=[4, 4, 4, 4])
    assert placed[5] == 2
    assert placed[9] in (1, 3)  # the nearest free table


def test_a_table_gone_from_this_round_gives_the_nearest_one():
    # the field shrank from five tables to four: table 5 (index 4) is gone
    assert place_fixed_tables(wanted={3: 4}, table_sizes=[4, 4, 4, 4]) == {3: 3}


def test_sharing_only_when_unavoidable():
    # one table is held by a player fixed to a seat: the two staying players take the others
    placed = place_fixed_tables(wanted={1: None, 2: None}, table_sizes=[4, 4, 4], taken=[0])
    assert sorted(placed.values()) == [1, 2]
    # three fixed players at two tables: one table has to hold two, never three
    placed = place_fixed_tables(wanted={1: None, 2: None}, table_sizes=[4, 4], taken=[0])
    assert len(placed) == 2
    assert sorted(Counter([0, *placed.values()]).values()) == [1, 2]
