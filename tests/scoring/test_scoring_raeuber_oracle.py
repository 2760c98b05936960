"""The fast Räuber check answers exactly as the plain search it replaced (issue 29).

``oracle`` below is the engine's Räuber check as it was before (issue 20's search over every
player's possible piles, ~0.3 ms a deal), kept here verbatim as the reference. Every answer of
``scoring.cards.raeuber_points_possible`` must equal it: on dealt packs, on dealt packs with
one or two players' points moved by a point or two (the edge of what is possible), on random
points and tricks, on packs and counting rules no rule source uses, and on the cases the
other tests name.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin
from scoring.cards import (
    FULL_PACK,
    THREE_HAND_PACK,
    CountingMethod,
    count_card_points,
    deduction,
    pack_for,
    raeuber_points_possible,
)

from .conftest import relaxed

# -- the oracle: the check as it was (scoring/cards.py before issue 29), unchanged --------------


def _oracle_pack_tables(
    pack: tuple[int, ...], method: CountingMethod, leftover_deduction: int
) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    fewest = [sum(pack[:n]) for n in range(len(pack) + 1)]
    most = [sum(pack[len(pack) - n :]) if n else 0 for n in range(len(pack) + 1)]
    deductions = [
        deduction(n, method, leftover_deduction) if n else 0 for n in range(len(pack) + 1)
    ]
    lows = [max(0, f - d) for f, d in zip(fewest, deductions, strict=True)]
    highs = [max(0, m - d) for m, d in zip(most, deductions, strict=True)]
    return lows, highs, deductions, fewest, most


def oracle(
    pack: tuple[int, ...],
    points: tuple[int, ...],
    tricks: tuple[int, ...] | None,
    active: int,
    deal_tricks: int,
    method: CountingMethod,
    leftover_deduction: int,
) -> bool:
    lows, highs, deductions, fewest, most = _oracle_pack_tables(pack, method, leftover_deduction)
    blind = len(pack) - active * deal_tricks
    # each player's possible piles: (tricks taken, with the blind, the pile's deduction)
    options: list[list[tuple[int, bool, int]]] = []
    for seat, value in enumerate(points):
        takes = range(deal_tricks + 1) if tricks is None else (tricks[seat],)
        fits = [
            (taken, with_blind, deductions[cards])
            for taken in takes
            for with_blind in ((False, True) if taken else (False,))  # the blind goes with tricks
            if lows[cards := active * taken + (blind if with_blind else 0)] <= value <= highs[cards]
        ]
        if not fits:
            return False
        options.append(fits)
    # every trick taken once, the blind by one player or nobody: the deductions the piles can
    # add up to, by (tricks so far, blind given)
    reach: dict[tuple[int, bool], set[int]] = {(0, False): {0}}
    for fits in options:
        following: dict[tuple[int, bool], set[int]] = {}
        for (taken_so_far, blind_given), sums in reach.items():
            for taken, with_blind, deduction_ in fits:
                if taken_so_far + taken > deal_tricks or (with_blind and blind_given):
                    continue
                key = (taken_so_far + taken, blind_given or with_blind)
                following.setdefault(key, set()).update(total + deduction_ for total in sums)
        reach = following
    total_points = sum(points)
    for (taken_so_far, blind_given), sums in reach.items():
        if taken_so_far != deal_tricks:
            continue
        cards = active * deal_tricks + (blind if blind_given else 0)
        # the piles' face values add up to those of the cards they hold
        if any(fewest[cards] <= total_points + total <= most[cards] for total in sums):
            return True
    return False


# -- comparing ----------------------------------------------------------------------------------


def same_answer(
    pack: tuple[int, ...],
    points: list[int],
    tricks: list[int] | None,
    active: int,
    deal_tricks: int,
    method: CountingMethod,
    leftover_deduction: int,
) -> bool:
    """Both answers (asserted equal), asked twice of the fast check (the second from what it
    remembers) and with the players in another order."""
    expected = oracle(
        pack,
        tuple(points),
        None if tricks is None else tuple(tricks),
        active,
        deal_tricks,
        method,
        leftover_deduction,
    )
    rules = {
        "active": active,
        "deal_tricks": deal_tricks,
        "method": method,
        "leftover_deduction": leftover_deduction,
    }
    for _ in range(2):
        assert raeuber_points_possible(pack, points, tricks, **rules) is expected, (
            pack,
            points,
            tricks,
            rules,
            expected,
        )
    turned = list(reversed(points)), None if tricks is None else list(reversed(tricks))
    assert raeuber_points_possible(pack, *turned, **rules) is expected
    return expected


# (pack, active, deal_tricks, method, leftover_deduction) of every built-in table with a pack
def _builtin_tables() -> list[tuple[tuple[int, ...], int, int, CountingMethod, int]]:
    found = set()
    for slug in BUILTIN_SLUGS:
        rules = load_builtin(slug)
        counting = rules.counting
        for table in rules.tables.values():
            pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
            if pack is None or table.tricks is None or len(pack) < table.active * table.tricks:
                continue
            found.add(
                (pack, table.active, table.tricks, counting.method, counting.leftover_deduction)
            )
    return sorted(found)


BUILTIN_TABLES = _builtin_tables()


def _dealt(
    rng: random.Random,
    pack: tuple[int, ...],
    active: int,
    deal_tricks: int,
    method: CountingMethod,
    leftover_deduction: int,
) -> tuple[list[int], list[int]]:
    """Each player's points and tricks from a shuffled pack; the blind to nobody or to one
    player who took a trick."""
    tricks = [0] * active
    for _ in range(deal_tricks):
        tricks[rng.randrange(active)] += 1
    cards = list(pack)
    rng.shuffle(cards)
    blind = len(pack) - active * deal_tricks
    takers = [seat for seat in range(active) if tricks[seat]]
    holder = rng.randint(-1, len(takers) - 1) if takers else -1
    points, start = [], blind
    for seat, taken in enumerate(tricks):
        pile = cards[start : start + active * taken]
        start += len(pile)
        if holder >= 0 and seat == takers[holder]:
            pile = pile + cards[:blind]
        points.append(count_card_points(pile, method, leftover_deduction) if pile else 0)
    return points, tricks


def test_the_built_in_tables_are_all_checked() -> None:
    # four players of 11 tricks in threes and pairs, three of 13 and of 16, five of 11
    assert len(BUILTIN_TABLES) >= 4
    assert {active for _, active, *_ in BUILTIN_TABLES} >= {3, 4}


# -- the cases the other tests name -------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "seats", "points", "tricks", "possible"),
    [
        ("bb2013", 4, [0, 0, 0, 0], None, False),
        ("swm", 4, [0, 0, 0, 0], None, False),
        ("csg2012", 5, [0, 0, 0, 0], None, False),
        ("dreierles", 3, [0, 0, 0], None, False),
        ("bb2013", 4, [1, 0, 0, 0], None, False),
        ("bb2013", 4, [2, 20, 10, 10], [8, 1, 1, 1], False),
        ("swm", 4, [30, 20, 15, 14], None, True),  # the rule book's printed example
        ("bb2013", 4, [70, 0, 0, 0], None, True),
        ("bb2013", 4, [70, 0, 0, 0], [11, 0, 0, 0], True),
        ("bb2013", 4, [69, 0, 0, 0], [11, 0, 0, 0], False),
        ("swm", 4, [79, 0, 0, 0], None, True),
        ("swm", 4, [80, 0, 0, 0], None, False),
        ("bb2013", 4, [20, 20, 20, 10], [3, 3, 3, 2], True),
        ("bb2013", 4, [20, 20, 20, 10], [3, 3, 3, 3], False),  # 12 tricks of 11
        ("bb2013", 4, [-1, 20, 20, 10], None, False),
    ],
)
def test_the_named_cases(
    slug: str, seats: int, points: list[int], tricks: list[int] | None, possible: bool
) -> None:
    rules = load_builtin(slug)
    table, counting = rules.tables[seats], rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    assert pack is not None and table.tricks is not None
    assert len(points) == table.active
    answer = same_answer(
        pack,
        points,
        tricks,
        table.active,
        table.tricks,
        counting.method,
        counting.leftover_deduction,
    )
    assert answer is possible


def test_no_players_and_one_player() -> None:
    for pack, active, deal_tricks, method, leftover in BUILTIN_TABLES:
        same_answer(pack, [], None, active, deal_tricks, method, leftover)
        for value in range(-1, 82):
            for tricks in (None, [deal_tricks], [deal_tricks - 1]):
                same_answer(pack, [value], tricks, active, deal_tricks, method, leftover)


def test_every_point_of_two_players_at_each_table() -> None:
    """Two of the players anywhere from 0 to the pack's points, the others as dealt: a whole
    plane of answers, true and false, at every built-in table."""
    rng = random.Random(29)
    for pack, active, deal_tricks, method, leftover in BUILTIN_TABLES:
        top = sum(pack) - deduction(len(pack), method, leftover) + 2
        others = _dealt(rng, pack, active, deal_tricks, method, leftover)[0][2:]
        answers = set()
        for first, second in itertools.product(range(0, top, 2), range(0, top, 2)):
            answers.add(
                same_answer(
                    pack, [first, second, *others], None, active, deal_tricks, method, leftover
                )
            )
        assert answers == {True, False}


def test_tricks_outside_the_deal_end_no_deal() -> None:
    # the plain search read these out of its tables (an IndexError or a wrapped index)
    rules = {"active": 4, "deal_tricks": 11, "method": "threes", "leftover_deduction": 1}
    assert not raeuber_points_possible(FULL_PACK, [20, 20, 20, 10], [12, 0, 0, -1], **rules)
    assert not raeuber_points_possible(FULL_PACK, [70, 0, 0, 0], [-1, 12, 0, 0], **rules)


def test_a_pack_too_small_for_the_tricks_is_an_error() -> None:
    with pytest.raises(ValueError):
        raeuber_points_possible(
            THREE_HAND_PACK, [10, 10, 10, 10], None, active=4, deal_tricks=13, method="threes"
        )


# -- properties ---------------------------------------------------------------------------------

built_in_table = st.sampled_from(BUILTIN_TABLES)


@settings(relaxed, max_examples=400)
@given(st.data())
def test_dealt_raeubers_and_their_neighbours(data: st.DataObject) -> None:
    """A dealt Räuber (possible), and the same with one or two players' points moved: the
    answers on the edge of the possible."""
    pack, active, deal_tricks, method, leftover = data.draw(built_in_table)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    points, tricks = _dealt(rng, pack, active, deal_tricks, method, leftover)
    assert same_answer(pack, points, tricks, active, deal_tricks, method, leftover)
    assert same_answer(pack, points, None, active, deal_tricks, method, leftover)
    moved = list(points)
    for _ in range(data.draw(st.integers(1, 2))):
        seat = data.draw(st.integers(0, active - 1))
        moved[seat] += data.draw(st.sampled_from([-2, -1, 1, 2]))
    given_tricks = data.draw(st.sampled_from([None, tricks]))
    same_answer(pack, moved, given_tricks, active, deal_tricks, method, leftover)
    # a trick moved from one player to another, the points kept
    if given_tricks is not None:
        moved_tricks = list(tricks)
        source = data.draw(st.sampled_from([s for s in range(active) if tricks[s]]))
        moved_tricks[source] -= 1
        moved_tricks[data.draw(st.integers(0, active - 1))] += 1
        same_answer(pack, points, moved_tricks, active, deal_tricks, method, leftover)


@settings(relaxed, max_examples=400)
@given(st.data())
def test_random_points_and_tricks(data: st.DataObject) -> None:
    pack, active, deal_tricks, method, leftover = data.draw(built_in_table)
    players = data.draw(st.integers(0, active + 1))
    points = data.draw(st.lists(st.integers(-2, 82), min_size=players, max_size=players))
    if data.draw(st.booleans()):
        tricks = None
    else:
        tricks = data.draw(
            st.lists(st.integers(0, deal_tricks), min_size=players, max_size=players)
        )
    same_answer(pack, points, tricks, active, deal_tricks, method, leftover)


@settings(relaxed, max_examples=400)
@given(st.data())
def test_points_that_add_up_to_the_pack(data: st.DataObject) -> None:
    """Points summing to the pack's points (or one short, one over): with or without the
    blind counted, where the search has most to do."""
    pack, active, deal_tricks, method, leftover = data.draw(built_in_table)
    whole = sum(pack) - deduction(len(pack), method, leftover)
    target = whole + data.draw(st.sampled_from([-12, -1, 0, 1]))
    cuts = sorted(
        data.draw(st.lists(st.integers(0, target), min_size=active - 1, max_size=active - 1))
    )
    points = [b - a for a, b in zip([0, *cuts], [*cuts, target], strict=True)]
    tricks = data.draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, deal_tricks), min_size=active, max_size=active),
        )
    )
    same_answer(pack, points, tricks, active, deal_tricks, method, leftover)


@settings(relaxed, max_examples=300)
@given(st.data())
def test_packs_and_counting_no_source_uses(data: st.DataObject) -> None:
    """Any part of the deck as the pack, two to five players, either counting, a leftover
    deduction of 0 to 2."""
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    active = data.draw(st.integers(2, 5))
    deal_tricks = data.draw(st.integers(0, 8))
    size = active * deal_tricks + data.draw(st.integers(0, 8))
    pack = tuple(sorted(rng.sample(FULL_PACK, size)))
    method = data.draw(st.sampled_from(["threes", "pairs"]))
    leftover = data.draw(st.integers(0, 2))
    players = data.draw(st.integers(1, active))
    points = data.draw(st.lists(st.integers(-1, 60), min_size=players, max_size=players))
    tricks = data.draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, deal_tricks), min_size=players, max_size=players),
        )
    )
    same_answer(pack, points, tricks, active, deal_tricks, method, leftover)
    if deal_tricks:
        dealt, dealt_tricks = _dealt(rng, pack, active, deal_tricks, method, leftover)
        assert same_answer(pack, dealt, dealt_tricks, active, deal_tricks, method, leftover)
        assert same_answer(pack, dealt, None, active, deal_tricks, method, leftover)
