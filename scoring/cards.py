"""The Cego deck and the two ways of counting card points (REFERENCE §1).

Counting in threes: the cards are taken in groups of three, each group scores its face-value
sum minus 2; a leftover group of one or two cards scores its sum minus 1. The whole deck
counts 70, the 51-card three-hand pack 69.

Counting in pairs: groups of two, each scoring its sum minus 1. The whole deck counts 79. An
odd leftover card is written down nowhere (REFERENCE §1 [D]): it is the rule source's
``counting.leftover_deduction`` (an assumption on the pairs sources' tariff cards), by default
1, like the leftover group in threes (so a plain card adds nothing). With four players both
sides always hold an even number of cards, so the question only arises at three.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

_TRUMP_VALUES = {"gstiess": 5, "trump_21": 5, "trump_1": 5} | {
    f"trump_{n}": 1 for n in range(2, 21)
}
_SUITS = {
    "hearts": (1, 2, 3, 4),
    "diamonds": (1, 2, 3, 4),
    "spades": (7, 8, 9, 10),
    "clubs": (7, 8, 9, 10),
}
_COURT = {"king": 5, "queen": 4, "cavalier": 3, "jack": 2}

#: Every card of the 54-card deck by name, with its face value (1..5).
CARD_VALUES: dict[str, int] = dict(_TRUMP_VALUES)
for _suit, _pips in _SUITS.items():
    for _court, _value in _COURT.items():
        CARD_VALUES[f"{_suit}_{_court}"] = _value
    for _pip in _pips:
        CARD_VALUES[f"{_suit}_{_pip}"] = 1

#: How many cards of each face value the deck has: 7 worth 5, 4 each worth 4, 3 and 2, 35 worth 1.
DECK_FACE_VALUE_COUNTS: dict[int, int] = dict(Counter(CARD_VALUES.values()))

#: The cards taken out for three-hand Cego (51 cards left).
THREE_HAND_REMOVED: tuple[str, ...] = ("spades_7", "clubs_7", "diamonds_4")

CountingMethod = Literal["threes", "pairs"]


def count_card_points(
    card_values: Sequence[int], method: CountingMethod, leftover_deduction: int = 1
) -> int:
    """Card points of one side's cards, given their face values in any order.

    >>> count_card_points([5, 3, 2], "threes")   # King + Cavalier + Jack
    8
    >>> count_card_points([5, 4, 1, 1], "pairs")
    7
    """
    for value in card_values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
            raise ValueError(f"a card's face value is 1..5, not {value!r}")
    for value, count in Counter(card_values).items():
        if count > DECK_FACE_VALUE_COUNTS[value]:
            raise ValueError(
                f"the deck has only {DECK_FACE_VALUE_COUNTS[value]} cards worth {value}, "
                f"not {count}"
            )
    if method == "threes":
        size = 3
    elif method == "pairs":
        size = 2
    else:
        raise ValueError(f"counting method must be 'threes' or 'pairs', not {method!r}")
    total = 0
    for start in range(0, len(card_values), size):
        group = card_values[start : start + size]
        # a full group scores its sum minus (size - 1); a leftover group its sum minus
        # leftover_deduction (1 in every built-in source)
        total += sum(group) - (size - 1 if len(group) == size else leftover_deduction)
    return total
