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
from functools import lru_cache
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


# What card points a pile can hold: the bounds the engine checks a deal against (REFERENCE §1).
# A pile of n cards counts its face values minus a deduction that depends on n alone (every
# full group and a leftover group each take off the same), so the fewest points n cards can
# count are the n lowest cards of the pack, the most the n highest.

#: The face values of the whole pack (54 cards) and of the three-hand pack (51), lowest first.
FULL_PACK: tuple[int, ...] = tuple(sorted(CARD_VALUES.values()))
THREE_HAND_PACK: tuple[int, ...] = tuple(
    sorted(value for card, value in CARD_VALUES.items() if card not in THREE_HAND_REMOVED)
)


def deduction(cards: int, method: CountingMethod, leftover_deduction: int = 1) -> int:
    """What counting takes off the face values of a pile of ``cards`` cards."""
    size = 3 if method == "threes" else 2
    return (size - 1) * (cards // size) + (leftover_deduction if cards % size else 0)


def pack_count(pack: Sequence[int], method: CountingMethod, leftover_deduction: int = 1) -> int:
    """The card points of a whole pack (70 in threes, 79 in pairs; 69 for the three-hand pack)."""
    return sum(pack) - deduction(len(pack), method, leftover_deduction)


def pack_for(
    counted_total: int, method: CountingMethod, leftover_deduction: int = 1
) -> tuple[int, ...] | None:
    """The pack whose points are ``counted_total`` (a table's card points), or None: a club
    counting to another total (80 in pairs) plays with a pack these bounds do not know."""
    for pack in (FULL_PACK, THREE_HAND_PACK):
        if pack_count(pack, method, leftover_deduction) == counted_total:
            return pack
    return None


def pile_points_range(
    pack: Sequence[int],
    cards: range,
    method: CountingMethod,
    leftover_deduction: int = 1,
) -> tuple[int, int]:
    """The fewest and most card points a pile of any size in ``cards`` can count when taken
    from ``pack`` (sorted lowest first)."""
    low = high = None
    for n in cards:
        taken = deduction(n, method, leftover_deduction) if n else 0
        fewest = max(0, sum(pack[:n]) - taken)
        most = max(0, sum(pack[len(pack) - n :]) - taken) if n else 0
        low = fewest if low is None else min(low, fewest)
        high = most if high is None else max(high, most)
    if low is None or high is None:
        raise ValueError("no pile size given")
    return low, high


def declarer_points_range(
    pack: Sequence[int],
    *,
    active: int,
    deal_tricks: int,
    tricks: int,
    blind_to_declarer: bool,
    method: CountingMethod,
    leftover_deduction: int = 1,
) -> tuple[int, int]:
    """The card points a declarer who took ``tricks`` (1 or more) of a deal's ``deal_tricks``
    can count: the tricks' cards (``active`` a trick) and the blind (the pack's other cards),
    all of it where the blind counts to the declarer, else any part of it. With every trick
    and the blind, that is the whole pack's points."""
    played = active * tricks
    blind = len(pack) - active * deal_tricks
    if not 1 <= tricks <= deal_tricks or blind < 0:
        raise ValueError(f"{tricks} tricks of {deal_tricks} at {active} players")
    first = played + blind if blind_to_declarer else played
    return pile_points_range(pack, range(first, played + blind + 1), method, leftover_deduction)


def raeuber_points_possible(
    pack: Sequence[int],
    points: Sequence[int],
    tricks: Sequence[int] | None,
    *,
    active: int,
    deal_tricks: int,
    method: CountingMethod,
    leftover_deduction: int = 1,
) -> bool:
    """Whether some deal ends a Räuber with these ``points`` (one entry per active player,
    each counting the cards of their own tricks), given each player's ``tricks`` or, without
    them, for some way of sharing the ``deal_tricks`` tricks.

    The blind counts to nobody (REFERENCE §3), or whole to one player: the rule book's printed
    swm example (30, 20, 15, 14: all 79 points) counts it, so that is not refused either.

    A player's tricks outside 0..``deal_tricks`` end no deal (False); a pack too small for the
    deal's tricks is a ``ValueError``. Fast: what the pack allows is worked out once per pack
    and table (``_RaeuberTables``); ``tests/scoring/test_scoring_raeuber_oracle.py`` compares
    every answer with the plain search it replaced."""
    return _raeuber_possible(
        tuple(pack), points, tricks, active, deal_tricks, method, leftover_deduction
    )


def raeuber_seat_range(
    pack: Sequence[int],
    tricks: int,
    *,
    active: int,
    deal_tricks: int,
    method: CountingMethod,
    leftover_deduction: int = 1,
) -> tuple[int, int]:
    """The fewest and most points a Räuber player with ``tricks`` (1 or more) can count: their
    tricks' cards, perhaps with the blind."""
    cards = active * tricks
    blind = len(pack) - active * deal_tricks
    return pile_points_range(pack, range(cards, cards + blind + 1), method, leftover_deduction)


def _raeuber_possible(
    pack: tuple[int, ...],
    points: Sequence[int],
    tricks: Sequence[int] | None,
    active: int,
    deal_tricks: int,
    method: CountingMethod,
    leftover_deduction: int,
) -> bool:
    """Every player's points fit some pile (their tricks, perhaps with the blind), every trick
    is taken once, the blind by one player or nobody, and the piles' face values add up to
    what the cards they hold can have between them.

    What a pile of a player can be depends on their points alone (or on their points and
    tricks), so the players are sorted into a few kinds of pile (``_RaeuberTables.fits``);
    the deductions a table of players can reach depend on the kinds only (``reach``,
    remembered), and the points' sum picks the answer from them."""
    tables = _raeuber_tables(pack, active, deal_tricks, method, leftover_deduction)
    fits, per_trick = tables.fits, tables.per_trick
    kinds: list[int] = []
    if tricks is None:
        for value in points:
            kind = fits[value] if 0 <= value < len(fits) else 0
            if not kind:
                return False
            kinds.append(kind)
    else:
        for value, taken in zip(points, tricks, strict=True):
            if not (0 <= value < len(fits) and 0 <= taken <= deal_tricks):
                return False
            kind = fits[value] & per_trick[taken]
            if not kind:
                return False
            kinds.append(kind)
    kinds.sort()
    reached = tables.reach(tuple(kinds))
    total_points = sum(points)
    # the piles' face values add up to those of the cards they hold: the deductions between
    # fewest - points and most - points
    for deductions, (fewest, most) in zip(reached, tables.face_bounds, strict=True):
        low, high = max(0, fewest - total_points), most - total_points
        if high >= low and deductions >> low & ((1 << (high - low + 1)) - 1):
            return True
    return False


class _RaeuberTables:
    """What a pack allows a Räuber of ``active`` players and ``deal_tricks`` tricks.

    A pile is an option ``2 * tricks + with_blind``; a kind of pile is a bit mask of options.
    The piles of players so far are one bit mask too: bit ``(2 * tricks + blind_given) * width
    + deduction`` says that some piles take that many tricks, give the blind or not, and have
    that sum of deductions; a player's pile shifts it by its tricks, blind and deduction."""

    #: how many tables of kinds are remembered (then forgotten and started again)
    REMEMBERED = 65536

    def __init__(
        self,
        pack: tuple[int, ...],
        active: int,
        deal_tricks: int,
        method: CountingMethod,
        leftover_deduction: int,
    ) -> None:
        lows, highs, deductions, fewest, most = _pack_tables(pack, method, leftover_deduction)
        blind = len(pack) - active * deal_tricks
        if active < 1 or deal_tricks < 0 or blind < 0 or leftover_deduction < 0:
            raise ValueError(f"{deal_tricks} tricks at {active} players from {len(pack)} cards")
        self.deal_tricks = deal_tricks
        #: more than the deductions of any piles can add up to (a pile without tricks has
        #: none; the piles' full groups hold at most the pack's; a leftover group a pile)
        self.width = width = deductions[len(pack)] + leftover_deduction * deal_tricks + 1
        #: option -> (tricks, with the blind, its shift of the piles' bit mask)
        self.options: dict[int, tuple[int, bool, int]] = {}
        for taken in range(deal_tricks + 1):
            for with_blind in (False, True) if taken else (False,):
                cards = active * taken + (blind if with_blind else 0)
                option = 2 * taken + with_blind
                self.options[option] = (taken, with_blind, option * width + deductions[cards])
        #: points -> the kind of pile that can count them (0: none)
        self.fits: tuple[int, ...] = tuple(
            sum(
                1 << option
                for option, (taken, with_blind, _) in self.options.items()
                if lows[cards := active * taken + (blind if with_blind else 0)]
                <= value
                <= highs[cards]
            )
            for value in range(max(highs) + 1)
        )
        #: tricks -> the options with that many tricks
        self.per_trick: tuple[int, ...] = tuple(
            sum(1 << option for option in self.options if option // 2 == taken)
            for taken in range(deal_tricks + 1)
        )
        #: without the blind and with it: the least and greatest face values of all tricks
        self.face_bounds: tuple[tuple[int, int], ...] = tuple(
            (fewest[cards], most[cards])
            for cards in (active * deal_tricks, active * deal_tricks + blind)
        )
        slot = (1 << width) - 1
        #: the bits of piles that have not given the blind, and of all piles
        self.blind_kept = sum(slot << (2 * taken * width) for taken in range(deal_tricks + 1))
        self.valid = (1 << (2 * (deal_tricks + 1) * width)) - 1
        self._piles: dict[int, tuple[tuple[bool, int], ...]] = {}
        self._reached: dict[tuple[int, ...], tuple[int, int]] = {}

    def reach(self, kinds: tuple[int, ...]) -> tuple[int, int]:
        """The deductions the players' piles can add up to (bit masks) when every trick is
        taken, without the blind and with it given, for players of these ``kinds`` (in any
        order; sorted, the same players are found again)."""
        reached = self._reached.get(kinds)
        if reached is None:
            if len(self._reached) >= self.REMEMBERED:
                self._reached.clear()
            piles, blind_kept, valid = 1, self.blind_kept, self.valid
            for kind in kinds:
                following = 0
                for with_blind, shift in self._piles_of(kind):
                    following |= (piles & blind_kept if with_blind else piles) << shift
                piles = following & valid
            slot, width = (1 << self.width) - 1, self.width
            reached = self._reached[kinds] = (
                piles >> (2 * self.deal_tricks * width) & slot,
                piles >> ((2 * self.deal_tricks + 1) * width) & slot,
            )
        return reached

    def _piles_of(self, kind: int) -> tuple[tuple[bool, int], ...]:
        """(with the blind, shift) of each pile of a ``kind``."""
        piles = self._piles.get(kind)
        if piles is None:
            piles = self._piles[kind] = tuple(
                (with_blind, shift)
                for option, (_, with_blind, shift) in self.options.items()
                if kind >> option & 1
            )
        return piles


@lru_cache(maxsize=64)
def _raeuber_tables(
    pack: tuple[int, ...],
    active: int,
    deal_tricks: int,
    method: CountingMethod,
    leftover_deduction: int,
) -> _RaeuberTables:
    return _RaeuberTables(pack, active, deal_tricks, method, leftover_deduction)


@lru_cache(maxsize=64)
def _pack_tables(
    pack: tuple[int, ...], method: CountingMethod, leftover_deduction: int
) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """For every pile size 0..len(pack): the fewest and most points, the deduction, and the
    least and greatest sum of face values."""
    fewest = [sum(pack[:n]) for n in range(len(pack) + 1)]
    most = [sum(pack[len(pack) - n :]) if n else 0 for n in range(len(pack) + 1)]
    deductions = [
        deduction(n, method, leftover_deduction) if n else 0 for n in range(len(pack) + 1)
    ]
    lows = [max(0, f - d) for f, d in zip(fewest, deductions, strict=True)]
    highs = [max(0, m - d) for m, d in zip(most, deductions, strict=True)]
    return lows, highs, deductions, fewest, most
