"""Card points: REFERENCE §1."""

from __future__ import annotations

import pytest

from scoring import CARD_VALUES, THREE_HAND_REMOVED, count_card_points


def test_deck_has_54_cards_worth_106() -> None:
    assert len(CARD_VALUES) == 54
    assert sum(CARD_VALUES.values()) == 106
    assert sum(1 for name in CARD_VALUES if name.startswith("trump_") or name == "gstiess") == 22
    assert [CARD_VALUES[n] for n in ("gstiess", "trump_21", "trump_1", "clubs_king")] == [5] * 4
    assert [CARD_VALUES[n] for n in ("hearts_queen", "spades_cavalier", "diamonds_jack")] == [
        4,
        3,
        2,
    ]
    assert CARD_VALUES["trump_14"] == CARD_VALUES["hearts_1"] == CARD_VALUES["clubs_10"] == 1


def test_whole_deck_counts_70_in_threes_and_79_in_pairs() -> None:
    values = list(CARD_VALUES.values())
    assert count_card_points(values, "threes") == 70
    assert count_card_points(values, "pairs") == 79


def test_three_hand_pack_counts_69_in_threes() -> None:
    pack = [value for name, value in CARD_VALUES.items() if name not in THREE_HAND_REMOVED]
    assert len(pack) == 51
    assert count_card_points(pack, "threes") == 69


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ([5, 3, 2], 8),  # King + Cavalier + Jack
        ([1, 1, 5], 5),  # trumps 14, 11 and 1
        ([1, 1], 1),  # two plain leftovers
        ([1], 0),  # one plain leftover
        ([4, 5, 1], 8),  # Queen + trump 1 + a pip
        ([5, 3, 2, 1, 1], 9),  # a group and a leftover pair
        ([], 0),
    ],
)
def test_worked_examples_in_threes(cards: list[int], points: int) -> None:
    assert count_card_points(cards, "threes") == points


@pytest.mark.parametrize(
    ("cards", "points"),
    [([5, 4], 8), ([1, 1], 1), ([5, 4, 1, 1], 9), ([5], 4), ([1], 0), ([5, 5, 3], 11)],
)
def test_pairs_and_the_odd_leftover(cards: list[int], points: int) -> None:
    # the odd leftover counts its face value minus 1 (documented [D])
    assert count_card_points(cards, "pairs") == points


@pytest.mark.parametrize("bad", [[0], [6], [True], ["5"]])
def test_rejects_impossible_face_values(bad: list[object]) -> None:
    with pytest.raises(ValueError):
        count_card_points(bad, "threes")  # type: ignore[arg-type]


def test_rejects_an_unknown_method() -> None:
    with pytest.raises(ValueError):
        count_card_points([1, 2], "fours")  # type: ignore[arg-type]


def test_a_pile_the_deck_cannot_make_is_refused():
    with pytest.raises(ValueError, match="7 cards worth 5"):
        count_card_points([5] * 20, "threes")
    assert count_card_points([5] * 7, "threes") == 13 + 13 + 4  # the whole deck's fives
