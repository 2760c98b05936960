"""Deals no pack of cards can produce are refused; every dealt pack is accepted (issue 20).

The bounds come from the deck (REFERENCE §1): a pile of n cards counts its face values minus
a deduction fixed by n, so n cards count at least the n lowest cards' points and at most the
n highest cards'. The property tests deal real packs and check the engine takes them.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin
from scoring import DealInput, ScoringError, score_deal
from scoring.cards import (
    FULL_PACK,
    THREE_HAND_PACK,
    count_card_points,
    declarer_points_range,
    pack_for,
    raeuber_points_possible,
)

from .conftest import relaxed


def score(slug: str, **fields) -> tuple[int, ...]:
    return score_deal(load_builtin(slug), DealInput(**fields)).scores


def refused(slug: str, **fields) -> ScoringError:
    with pytest.raises(ScoringError) as caught:
        score(slug, **fields)
    return caught.value


# -- the audit's three deals ------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["bb2013", "swm", "schwaerzehof", "csg2012", "dreierles"])
def test_a_declarer_with_tricks_has_points(slug: str) -> None:
    rules = load_builtin(slug)
    seats = min(rules.table_sizes)
    contract = next(n for n, c in rules.contracts.items() if c.kind == "normal")
    error = refused(
        slug, seats=seats, contract=contract, declarer=0, declarer_points=0, declarer_tricks=2
    )
    assert (error.field, error.code) == ("declarer_points", "tricks_points")
    assert error.params["low"] > 0


def test_a_declarer_with_every_trick_has_every_point() -> None:
    error = refused(
        "bb2013", seats=4, contract="cego", declarer=0, declarer_points=20, declarer_tricks=11
    )
    assert (error.code, error.params["total"]) == ("all_tricks_points", 70)
    assert "all 11 tricks" in str(error) and "all 70 points" in str(error)
    # the whole pack is what the declarer then holds: 70 (79 in pairs; 69 + 1 at three)
    assert score(
        "bb2013", seats=4, contract="cego", declarer=0, declarer_points=70, declarer_tricks=11
    )
    assert score(
        "swm", seats=4, contract="cego", declarer=0, declarer_points=79, declarer_tricks=11
    )
    assert score(
        "bb2013", seats=3, contract="cego", declarer=0, declarer_points=69, declarer_tricks=13
    )
    refused("swm", seats=4, contract="cego", declarer=0, declarer_points=78, declarer_tricks=11)


def test_in_dreierles_the_unused_blind_may_go_to_the_defenders() -> None:
    # 16 tricks of 3 cards (48) and none of the 6 blind cards: the 48 lowest cards count 44
    assert score(
        "dreierles", seats=3, contract="dreier", declarer=0, declarer_points=50, declarer_tricks=16
    )
    error = refused(
        "dreierles", seats=3, contract="dreier", declarer=0, declarer_points=43, declarer_tricks=16
    )
    assert error.code == "tricks_points"


@pytest.mark.parametrize(
    ("slug", "seats"), [("bb2013", 4), ("swm", 4), ("csg2012", 5), ("dreierles", 3)]
)
def test_raeuber_points_all_zero_are_refused(slug: str, seats: int) -> None:
    out = 0 if load_builtin(slug).tables[seats].active < seats else None
    error = refused(
        slug, seats=seats, sitting_out=out, contract="raeuber", declarer=1, points=[0] * seats
    )
    assert (error.field, error.code) == ("points", "raeuber_impossible")


def test_raeuber_points_no_sharing_of_the_tricks_gives_are_refused() -> None:
    # one player took all eleven tricks (44 cards: at least 30 points), not 1
    assert refused("bb2013", seats=4, contract="raeuber", declarer=0, points=[1, 0, 0, 0])
    # with the tricks given, each player's tricks bound their points
    error = refused(
        "bb2013",
        seats=4,
        contract="raeuber",
        declarer=0,
        points=[2, 20, 10, 10],
        tricks=[8, 1, 1, 1],
    )
    assert (error.field, error.code) == ("points[0]", "seat_tricks_points")
    assert error.params["tricks"] == 8


def test_the_rule_books_printed_raeuber_is_possible() -> None:
    # swm: 30, 20, 15, 14 are all 79 points, so that example counts the blind to somebody
    assert score("swm", seats=4, contract="raeuber", declarer=0, points=[30, 20, 15, 14])


# -- the bounds are the deck's ------------------------------------------------------------------


def test_the_packs_count_as_the_rule_book_says() -> None:
    assert len(FULL_PACK) == 54 and sum(FULL_PACK) == 106
    assert len(THREE_HAND_PACK) == 51
    assert pack_for(70, "threes") == FULL_PACK
    assert pack_for(79, "pairs") == FULL_PACK
    assert pack_for(69, "threes") == THREE_HAND_PACK
    assert pack_for(80, "pairs") is None  # a club counting to 80: not checked


def test_one_trick_and_the_blind_at_four() -> None:
    # 4 cards of the trick and the 10 of the blind: 14 plain cards count 14 - 9 = 5; the 14
    # highest (seven 5s, four 4s, three 3s) 60 - 9 = 51
    assert declarer_points_range(
        FULL_PACK, active=4, deal_tricks=11, tricks=1, blind_to_declarer=True, method="threes"
    ) == (5, 51)


packs = st.sampled_from(BUILTIN_SLUGS).map(load_builtin)


@relaxed
@given(st.data())
def test_every_dealt_declarer_pile_is_accepted(data: st.DataObject) -> None:
    rules = data.draw(packs)
    seats = data.draw(st.sampled_from(rules.table_sizes))
    table, counting = rules.tables[seats], rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    if pack is None or table.tricks is None:
        return
    names = [
        name
        for name, contract in rules.contracts.items()
        if contract.kind == "normal" and name not in table.forbidden
    ]
    tricks = data.draw(st.integers(1, table.tricks))
    blind = len(pack) - table.active * table.tricks
    kept = blind if counting.blind_to_declarer else data.draw(st.integers(0, blind))
    cards = data.draw(st.permutations(pack))[: table.active * tricks + kept]
    points = count_card_points(cards, counting.method, counting.leftover_deduction)
    low, high = declarer_points_range(
        pack,
        active=table.active,
        deal_tricks=table.tricks,
        tricks=tricks,
        blind_to_declarer=counting.blind_to_declarer,
        method=counting.method,
        leftover_deduction=counting.leftover_deduction,
    )
    assert low <= points <= high
    out = 1 if table.active < seats else None
    score_deal(
        rules,
        DealInput(
            seats=seats,
            sitting_out=out,
            contract=data.draw(st.sampled_from(names)),
            declarer=0,
            declarer_points=points,
            declarer_tricks=tricks,
        ),
    )


@relaxed
@given(st.data())
def test_every_dealt_raeuber_is_possible(data: st.DataObject) -> None:
    rules = load_builtin(data.draw(st.sampled_from(["bb2013", "swm", "csg2012", "dreierles"])))
    seats = data.draw(
        st.sampled_from([s for s, t in rules.tables.items() if "raeuber" not in t.forbidden])
    )
    table, counting = rules.tables[seats], rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    assert pack is not None and table.tricks is not None
    tricks = [0] * table.active
    for _ in range(table.tricks):
        tricks[data.draw(st.integers(0, table.active - 1))] += 1
    cards = data.draw(st.permutations(pack))
    points, start = [], 0
    for taken in tricks:
        pile = cards[start : start + table.active * taken]
        start += len(pile)
        points.append(
            count_card_points(pile, counting.method, counting.leftover_deduction) if pile else 0
        )
    for given_tricks in (tricks, None):
        assert raeuber_points_possible(
            pack,
            points,
            given_tricks,
            active=table.active,
            deal_tricks=table.tricks,
            method=counting.method,
            leftover_deduction=counting.leftover_deduction,
        )
