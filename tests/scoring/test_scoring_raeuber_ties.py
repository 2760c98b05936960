"""A Räuber in which every active player has the same points (issue 20): nobody pays only where
ties are shared (St. Georgen and Dreierles, `tie_with_announcer: as_other_ties`); elsewhere the
announcer (forehand) is among the tied and loses. One expectation per rule source, written out
from REFERENCE §4 (scoring/DECISIONS.md)."""

from __future__ import annotations

import pytest

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin
from scoring import DealInput, score_deal

FOUR_TIED = {"seats": 4, "declarer": 0, "contract": "raeuber", "points": (15, 15, 15, 15)}
THREE_TIED = {"seats": 3, "declarer": 0, "contract": "raeuber", "points": (20, 20, 20)}

EXPECTED = {
    # the announcer loses a tie and pays double: 40 × 2 to each of three
    "swm": (FOUR_TIED, [-240, 80, 80, 80]),
    "cego_online2011": (FOUR_TIED, [-240, 80, 80, 80]),
    "weissauer2017": (FOUR_TIED, [-240, 80, 80, 80]),
    # B&B and the tariff sources following it: 5, 10, 30, doubled for the announcer
    "bb2013": (FOUR_TIED, [-30, 10, 10, 10]),
    "grupp1994": (FOUR_TIED, [-60, 20, 20, 20]),
    "kf2005": (FOUR_TIED, [-180, 60, 60, 60]),
    # Schwärzehof: a tie including forehand, forehand loses and pays single
    "schwaerzehof": (FOUR_TIED, [-120, 40, 40, 40]),
    # ties paid jointly: with everybody tied there is nobody to pay
    "csg2012": (FOUR_TIED, [0, 0, 0, 0]),
    "dreierles": (THREE_TIED, [0, 0, 0]),
}


def test_every_source_with_a_raeuber_has_an_expectation() -> None:
    with_raeuber = {slug for slug in BUILTIN_SLUGS if "raeuber" in load_builtin(slug).contracts}
    playable = {
        slug
        for slug in with_raeuber
        if any("raeuber" not in t.forbidden for t in load_builtin(slug).tables.values())
    }
    assert playable == set(EXPECTED)


@pytest.mark.parametrize("slug", sorted(EXPECTED))
def test_everybody_tied(slug: str) -> None:
    deal, scores = EXPECTED[slug]
    assert list(score_deal(load_builtin(slug), DealInput(**deal)).scores) == scores
