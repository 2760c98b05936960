"""Per-source tables. Every expected figure is worked out by hand from REFERENCE.md §4.

Rows are (record fields, expected scores). Seat 0 declares unless the row says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.builtin_sources import BUILTIN_SLUGS, builtin_data, load_builtin
from scoring import rule_source_from_dict

from .conftest import score, scores


def four(per: int) -> list[int]:
    """Declarer in seat 0 at a table of 4 receiving ``per`` from each defender."""
    return [3 * per, -per, -per, -per]


def three(per: int) -> list[int]:
    return [2 * per, -per, -per]


Row = tuple[dict[str, Any], list[int]]

# ---------------------------------------------------------------- swm: Fach
# per defender = ceil(Fach * 5 * value / 10) * 10, Fach = ceil((W - 39) / 5)
SWM_ROWS: list[Row] = [
    ({"contract": "cego", "declarer_points": 40}, four(10)),  # 1 Fach: 5 -> 10
    ({"contract": "cego", "declarer_points": 45}, four(10)),  # 2 Fach: 10
    ({"contract": "cego", "declarer_points": 50}, four(20)),  # 3 Fach: 15 -> 20
    ({"contract": "cego", "declarer_points": 79}, four(40)),  # 8 Fach: 40
    ({"contract": "cego", "declarer_points": 39}, four(-10)),  # defenders 40: 1 Fach
    ({"contract": "halbe", "declarer_points": 34}, four(-20)),  # printed: 2 Fach * 5 * 2
    ({"contract": "eine", "declarer_points": 41}, four(20)),  # printed: 15 -> 20
    ({"contract": "eine_leere", "declarer_points": 44}, four(20)),  # 1 * 5 * 4
    ({"contract": "zwei_leere", "declarer_points": 47}, four(50)),  # 2 * 5 * 5
    ({"contract": "zwei_verschiedene", "declarer_points": 20}, four(-120)),  # W 59: 4*5*6
    ({"contract": "geiss", "declarer_points": 60}, four(180)),  # 5 Fach * 5 * 7 = 175
    ({"contract": "solo", "declarer_points": 40}, four(20)),  # 1 Fach: 10, then doubled
    ({"contract": "solo", "declarer_points": 55}, four(40)),  # 4 Fach: 20, doubled
    ({"contract": "solo", "declarer_points": 30}, four(-10)),  # W 49: 2 Fach: 10, single
    ({"contract": "gegensolo", "declarer_points": 45}, four(20)),  # value 2, 2 Fach
    ({"contract": "cego", "after_solo": True, "declarer_points": 41}, four(10)),  # value 2
    ({"contract": "eine", "after_solo": True, "declarer_points": 41}, four(20)),  # value 4
    ({"contract": "geiss", "after_solo": True, "declarer_points": 79}, four(320)),  # 8*5*8
    ({"contract": "cego", "declarer_points": 0, "declarer_tricks": 0}, four(-40)),  # 79: 8 Fach
    ({"contract": "cego", "declarer_points": 41, "declarer_tricks": 1}, four(10)),
    ({"contract": "ultimo", "won": False}, four(-80)),
    ({"contract": "piccolo", "won": True}, four(40)),
    ({"contract": "bettel", "won": False}, four(-30)),
    ({"contract": "raeuber", "points": [30, 20, 15, 14]}, [-240, 80, 80, 80]),
    ({"contract": "raeuber", "points": [10, 30, 20, 19]}, [40, -120, 40, 40]),
    ({"contract": "raeuber", "points": [25, 25, 15, 14]}, [-240, 80, 80, 80]),  # announcer tie
    ({"contract": "raeuber", "points": [10, 25, 25, 19]}, [80, -80, -80, 80]),  # other tie
    (
        {"contract": "eine", "declarer_points": 41, "penalty": {"seat": 2, "kind": "revoke"}},
        [120, 120, -360, 120],
    ),  # eightfold: 8 Fach * 5 * 3 = 120 to each
    (
        {"contract": "solo", "declarer_points": 50, "penalty": {"seat": 0, "kind": "schinden"}},
        four(-40),
    ),  # 8 * 5 * 1
]


@pytest.mark.parametrize("slug", ["swm", "cego_online2011"])
@pytest.mark.parametrize(("fields", "expected"), SWM_ROWS)
def test_swm_and_cego_online(slug: str, fields: dict[str, Any], expected: list[int]) -> None:
    result = score(slug, seats=4, declarer=0, **fields)
    assert list(result.scores) == expected
    assert result.unit == "points"


# ---------------------------------------------------------------- bb2013 and its tariffs
# per defender = value * factor (Solo x2 won; Gegensolo value 2, x2 won)
BB_NORMAL_ROWS: list[Row] = [
    ({"contract": "eine_leere", "declarer_points": 47}, four(9)),
    ({"contract": "eine_leere", "declarer_points": 27}, four(-6)),
    ({"contract": "cego", "declarer_points": 0}, four(-8)),
    ({"contract": "cego", "declarer_points": 1}, four(-7)),
    ({"contract": "cego", "declarer_points": 35}, four(-1)),
    ({"contract": "cego", "declarer_points": 36}, four(1)),
    ({"contract": "cego", "declarer_points": 40}, four(1)),
    ({"contract": "cego", "declarer_points": 41}, four(2)),
    ({"contract": "cego", "declarer_points": 65}, four(6)),
    ({"contract": "cego", "declarer_points": 66}, four(7)),
    ({"contract": "cego", "declarer_points": 70}, four(8)),
    ({"contract": "eine", "declarer_points": 52}, four(8)),  # 2 * 4
    ({"contract": "zwei_leere", "declarer_points": 12}, four(-20)),  # 4 * -5
    ({"contract": "zwei_verschiedene", "declarer_points": 58}, four(25)),  # 5 * 5
    ({"contract": "geiss", "declarer_points": 66}, four(42)),  # 6 * 7
    ({"contract": "solo", "declarer_points": 50}, four(6)),  # 1 * 3 * 2
    ({"contract": "solo", "declarer_points": 30}, four(-2)),  # 1 * -2
    ({"contract": "gegensolo", "declarer_points": 61}, four(24)),  # 2 * 6 * 2
    ({"contract": "gegensolo", "declarer_points": 10}, four(-12)),  # 2 * -6
    ({"contract": "cego", "declarer_points": 0, "declarer_tricks": 0}, four(-8)),
    # a Cego bid after a Solo is the Gegensolo: 2 * 3 * 2
    ({"contract": "cego", "after_solo": True, "declarer_points": 47}, four(12)),
    ({"contract": "eine", "after_solo": True, "declarer_points": 47}, four(6)),  # no raise
]

BB_LIKE = ["bb2013", "grupp1994", "csg2012", "weissauer2017", "kf2005"]


@pytest.mark.parametrize("slug", BB_LIKE)
@pytest.mark.parametrize(("fields", "expected"), BB_NORMAL_ROWS)
def test_bb2013_normal_games(slug: str, fields: dict[str, Any], expected: list[int]) -> None:
    assert scores(slug, seats=4, declarer=0, **fields) == expected


# three-hand: the declarer enters 0..69, the engine adds 1
@pytest.mark.parametrize("slug", [*BB_LIKE, "schwaerzehof"])
def test_three_hand_adds_the_bonus_point(slug: str) -> None:
    if slug == "schwaerzehof":
        assert scores(slug, seats=3, declarer=0, contract="cego", declarer_points=34) == three(-5)
        assert scores(slug, seats=3, declarer=1, contract="cego", declarer_points=35) == [
            -5,
            10,
            -5,
        ]
    else:
        assert scores(slug, seats=3, declarer=0, contract="cego", declarer_points=35) == three(1)
        assert scores(slug, seats=3, declarer=0, contract="cego", declarer_points=69) == three(8)
        assert scores(slug, seats=3, declarer=0, contract="cego", declarer_points=0) == three(-7)


@pytest.mark.parametrize("slug", [*BB_LIKE, "schwaerzehof"])
@pytest.mark.parametrize("contract", ["piccolo", "bettel", "raeuber"])
def test_no_piccolo_bettel_raeuber_at_three(slug: str, contract: str) -> None:
    if contract not in load_builtin(slug).contracts:
        pytest.fail(f"{slug} should have {contract}")
    from scoring import ScoringError

    with pytest.raises(ScoringError) as caught:
        scores(slug, seats=3, declarer=0, contract=contract, won=True, points=[1, 2, 3])
    assert caught.value.field == "contract"
    assert caught.value.code == "contract_forbidden"


@pytest.mark.parametrize("slug", [*BB_LIKE, "schwaerzehof"])
def test_fifth_seat_pays_like_a_defender(slug: str) -> None:
    per = 3 if slug != "schwaerzehof" else 15  # bb: 1 * 3; Schwärzehof: 12 -> 15
    assert scores(
        slug, seats=5, sitting_out=4, declarer=0, contract="cego", declarer_points=47
    ) == [4 * per, -per, -per, -per, -per]


# fixed specials per source: (slug, contract, amount); None = not in the source
SPECIALS = {
    "swm": {"piccolo": 40, "bettel": 30, "ultimo": 80, "raeuber": 40, "drescher": None},
    "cego_online2011": {"piccolo": 40, "bettel": 30, "ultimo": 80, "raeuber": 40, "drescher": None},
    "bb2013": {"piccolo": 10, "bettel": 15, "ultimo": 20, "raeuber": 5, "drescher": 10},
    "grupp1994": {"piccolo": 30, "bettel": 20, "ultimo": None, "raeuber": 10, "drescher": None},
    "csg2012": {
        "piccolo": 15,
        "bettel": 20,
        "ultimo": 20,
        "raeuber": 10,
        "drescher": None,
        "grebsler": 15,
        "pascha": 30,
    },
    "weissauer2017": {"piccolo": 70, "bettel": 80, "ultimo": 80, "raeuber": 40, "drescher": 80},
    "kf2005": {"piccolo": 40, "bettel": 50, "ultimo": 80, "raeuber": 30, "drescher": None},
    "schwaerzehof": {"piccolo": 40, "bettel": 30, "ultimo": 80, "raeuber": 40, "drescher": None},
}
SPECIAL_ROWS = [
    (slug, contract, amount)
    for slug, table in SPECIALS.items()
    for contract, amount in table.items()
]


@pytest.mark.parametrize(("slug", "contract", "amount"), SPECIAL_ROWS)
def test_special_amounts(slug: str, contract: str, amount: int | None) -> None:
    from scoring import ScoringError

    if amount is None:
        with pytest.raises(ScoringError) as caught:
            scores(slug, seats=4, declarer=1, contract=contract, won=True)
        assert str(caught.value) == f"contract: the rule source {slug} has no contract {contract}"
        return
    if contract == "raeuber":
        # a non-announcer with most points pays the single amount to each other player
        assert scores(slug, seats=4, declarer=1, contract="raeuber", points=[30, 20, 15, 5]) == [
            -3 * amount,
            amount,
            amount,
            amount,
        ]
    elif contract == "drescher":
        assert scores(slug, seats=4, declarer=1, contract="drescher", last_trick=2) == [
            amount,
            amount,
            -3 * amount,
            amount,
        ]
    else:
        assert scores(slug, seats=4, declarer=1, contract=contract, won=True) == [
            -amount,
            3 * amount,
            -amount,
            -amount,
        ]
        assert scores(slug, seats=4, declarer=1, contract=contract, won=False) == [
            amount,
            -3 * amount,
            amount,
            amount,
        ]


def test_units() -> None:
    assert {slug: load_builtin(slug).unit for slug in BUILTIN_SLUGS} == {
        "swm": "points",
        "cego_online2011": "points",
        "bb2013": "cents",
        "schwaerzehof": "cents",
        "grupp1994": "pfennig",
        "csg2012": "cents",
        "weissauer2017": "cents",
        "kf2005": "cents",
        "dreierles": "game_points",
        "officers_cego": "game_points",
        "dorset_cego": "cents",
    }


def test_swm_and_cego_online_share_every_scoring_parameter() -> None:
    swm, online = builtin_data("swm"), builtin_data("cego_online2011")
    for key in ("counting", "tables", "normal", "contracts", "penalty", "unit", "distribution"):
        assert swm[key] == online[key], key


# ---------------------------------------------------------------- bb2013 Räuber and Drescher
@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        # announcer (seat 0) loses: 5 doubled = 10 to each
        ({"points": [30, 20, 15, 5]}, [-30, 10, 10, 10]),
        # two players without a trick (0 points): 5 * 2 * 2, announcer doubles: 40
        ({"points": [40, 30, 0, 0]}, [-120, 40, 40, 40]),
        # trick counts given: one player took none: 5 * 2 * 2 = 20
        ({"points": [30, 20, 0, 10], "tricks": [4, 3, 0, 4]}, [-60, 20, 20, 20]),
        # 0 points but a trick is impossible... a trick with 0 points is not: tricks say who
        ({"points": [30, 20, 15, 5], "tricks": [4, 3, 2, 2]}, [-30, 10, 10, 10]),
        # tie including the announcer: the announcer loses, doubled
        ({"points": [25, 25, 15, 5]}, [-30, 10, 10, 10]),
        # tie without the announcer: each tied pays 5 to each non-tied
        ({"points": [10, 25, 25, 5]}, [10, -10, -10, 10]),
    ],
)
def test_bb2013_raeuber(fields: dict[str, Any], expected: list[int]) -> None:
    assert scores("bb2013", seats=4, declarer=0, contract="raeuber", **fields) == expected


def test_bb2013_drescher_declarer_pays_double() -> None:
    assert scores("bb2013", seats=4, declarer=0, contract="drescher", last_trick=0) == four(-20)
    assert scores("bb2013", seats=4, declarer=0, contract="drescher", last_trick=3) == [
        10,
        10,
        10,
        -30,
    ]
    assert scores("weissauer2017", seats=4, declarer=2, contract="drescher", last_trick=2) == [
        160,
        160,
        -480,
        160,
    ]


def test_csg2012_ties_pay_jointly() -> None:
    # two tied (announcer among them): each pays 10 / 2 = 5 to each non-tied player
    assert scores("csg2012", seats=4, declarer=0, contract="raeuber", points=[25, 25, 15, 5]) == [
        -10,
        -10,
        10,
        10,
    ]
    # three tied: 10 / 3 rounded up = 4 each
    assert scores("csg2012", seats=4, declarer=3, contract="raeuber", points=[20, 20, 20, 10]) == [
        -4,
        -4,
        -4,
        12,
    ]


def test_weissauer_forehand_loses_a_tie_and_pays_double() -> None:
    assert scores(
        "weissauer2017", seats=4, declarer=1, contract="raeuber", points=[5, 25, 25, 15]
    ) == [80, -240, 80, 80]


@pytest.mark.parametrize(
    ("variant", "fields", "expected"),
    [
        ("halbe", {"contract": "halbe", "declarer_points": 47}, four(6)),  # 2 * 3
        ("halbe", {"contract": "eine", "declarer_points": 47}, four(9)),  # 3 * 3
        ("halbe", {"contract": "geiss", "declarer_points": 47}, four(21)),  # 7 * 3
        (
            "gegensolo_auction",
            {"contract": "eine", "after_solo": True, "declarer_points": 47},
            four(9),
        ),
        ("ouvert", {"contract": "piccolo", "ouvert": True, "won": True}, four(20)),
        (
            "eightfold_penalty",
            {
                "contract": "eine_leere",
                "declarer_points": 40,
                "penalty": {"seat": 1, "kind": "revoke"},
            },
            [24, -72, 24, 24],
        ),
        ("bettel_piccolo_swapped", {"contract": "bettel", "won": True}, four(10)),
        ("bettel_piccolo_swapped", {"contract": "piccolo", "won": True}, four(15)),
    ],
)
def test_bb2013_variants_when_enabled(
    variant: str, fields: dict[str, Any], expected: list[int]
) -> None:
    data = builtin_data("bb2013")
    keys = [v["key"] for v in data["variants"]]
    assert variant in keys
    data["variants"][keys.index(variant)]["enabled"] = True
    assert scores(data, seats=4, declarer=0, **fields) == expected


def test_bb2013_variants_are_off_by_default() -> None:
    source = load_builtin("bb2013")
    assert {v.key for v in source.variants} == {
        "halbe",
        "gegensolo_auction",
        "ouvert",
        "eightfold_penalty",
        "bettel_piccolo_swapped",
    }
    assert not any(v.enabled for v in source.variants)
    assert "halbe" not in source.contracts
    assert source.ouvert_multiplier is None
    # a breach loses the game (once the game's single amount); eightfold is the variant
    assert source.penalty is not None and source.penalty.model == "lost_game"


# ---------------------------------------------------------------- Schwärzehof
# per defender = |points - 35| * factor, rounded up to 5; 35:35 = each defender receives 5
SCHW_ROWS: list[Row] = [
    ({"contract": "cego", "declarer_points": 35}, four(-5)),
    ({"contract": "geiss", "declarer_points": 35}, four(-5)),
    ({"contract": "solo", "declarer_points": 35}, four(-5)),
    ({"contract": "cego", "declarer_points": 36}, four(5)),  # 1 -> 5
    ({"contract": "cego", "declarer_points": 40}, four(5)),  # 5 stays
    ({"contract": "cego", "declarer_points": 41}, four(10)),  # 6 -> 10
    ({"contract": "eine", "declarer_points": 41}, four(15)),  # 12 -> 15
    ({"contract": "cego", "declarer_points": 30}, four(-5)),  # 5 stays
    ({"contract": "cego", "declarer_points": 29}, four(-10)),  # 6 -> 10
    ({"contract": "eine_leere", "declarer_points": 20}, four(-45)),  # 15 * 3
    ({"contract": "geiss", "declarer_points": 70}, four(210)),  # 35 * 6
    ({"contract": "solo", "declarer_points": 41}, four(15)),  # 6 * 2 = 12 -> 15
    ({"contract": "solo", "declarer_points": 30}, four(-5)),  # 5 * 1
    ({"contract": "gegensolo", "declarer_points": 38}, four(10)),  # 3 * 2 = 6 -> 10
    ({"contract": "cego", "after_solo": True, "declarer_points": 38}, four(10)),  # = Gegensolo
    ({"contract": "cego", "declarer_points": 0, "declarer_tricks": 0}, four(-35)),  # 0 points
    ({"contract": "raeuber", "points": [30, 20, 15, 5]}, four(-80)),  # announcer: double
    ({"contract": "raeuber", "points": [25, 25, 15, 5]}, four(-40)),  # tie with forehand: single
    (
        {"contract": "raeuber", "points": [5, 25, 25, 15]},
        [80, -80, -80, 80],
    ),  # other tie: 40 to each of 2
    (
        {"contract": "cego", "declarer_points": 50, "penalty": {"seat": 1, "kind": "revoke"}},
        [70, -210, 70, 70],
    ),
]


@pytest.mark.parametrize(("fields", "expected"), SCHW_ROWS)
def test_schwaerzehof(fields: dict[str, Any], expected: list[int]) -> None:
    assert scores("schwaerzehof", seats=4, declarer=0, **fields) == expected


def test_schwaerzehof_buergermeister_at_five_pays_the_sitting_out_dealer_too() -> None:
    assert scores(
        "schwaerzehof", seats=5, sitting_out=2, declarer=0, contract="eine", declarer_points=35
    ) == [-20, 5, 5, 5, 5]


# ---------------------------------------------------------------- Dreierles
# game points = ceil((W - 35) / 5) * factor; 35:35 = 1 step; knocks double
DRL_ROWS: list[Row] = [
    ({"contract": "zweier", "declarer_points": 46}, three(6)),
    ({"contract": "dreier", "declarer_points": 36}, three(1)),
    ({"contract": "einer", "declarer_points": 70}, three(21)),  # 7 steps * 3
    ({"contract": "solo", "declarer_points": 35}, three(-4)),  # tie: 1 step * 4
    ({"contract": "dreier", "declarer_points": 20}, three(-3)),  # W 50: 3 steps
    ({"contract": "solo", "declarer_points": 0}, three(-28)),  # W 70: 7 * 4
    ({"contract": "zweier", "declarer_points": 46, "knocks": 1}, three(12)),
    ({"contract": "zweier", "declarer_points": 46, "knocks": 2}, three(24)),
    ({"contract": "raeuber", "points": [30, 20, 10]}, [-4, 2, 2]),
    ({"contract": "raeuber", "points": [10, 30, 20]}, [2, -4, 2]),  # no announcer double
    ({"contract": "raeuber", "points": [25, 25, 10]}, [-1, -1, 2]),
    ({"contract": "raeuber", "points": [25, 25, 10], "knocks": 1}, [-2, -2, 4]),
    # bonuses: personal ones from each other player, not doubled by knocks
    (
        {
            "contract": "dreier",
            "declarer_points": 36,
            "bonuses": [{"kind": "ten_trumps", "seat": 1}],
        },
        [1, 1, -2],
    ),
    (
        {
            "contract": "dreier",
            "declarer_points": 36,
            "knocks": 1,
            "bonuses": [{"kind": "trull", "seat": 0}],
        },
        [6, -3, -3],
    ),
    # a silent Pfeife made by the defenders: each defender receives 1 from the declarer
    (
        {
            "contract": "dreier",
            "declarer_points": 36,
            "bonuses": [{"kind": "pfeife", "seat": 2, "won": True}],
        },
        [0, 0, 0],
    ),
    # the declarer's announced Pfeife made: 2 from each defender
    (
        {
            "contract": "dreier",
            "declarer_points": 36,
            "bonuses": [{"kind": "pfeife_announced", "seat": 0, "won": True}],
        },
        [6, -3, -3],
    ),
    # printed: Anna +90, Bernd -30, Catrin -60 cents at 10 cents a game point
    (
        {
            "contract": "einer",
            "declarer_points": 43,
            "bonuses": [
                {"kind": "ten_trumps", "seat": 0},
                {"kind": "pfeife_announced", "seat": 0, "won": False},
                {"kind": "four_kings", "seat": 1},
            ],
        },
        [9, -3, -6],
    ),
]


@pytest.mark.parametrize(("fields", "expected"), DRL_ROWS)
def test_dreierles(fields: dict[str, Any], expected: list[int]) -> None:
    result = score("dreierles", seats=3, declarer=0, **fields)
    assert list(result.scores) == expected
    assert result.unit == "game_points"


def test_dreierles_fourth_seat_sits_out_scoring_nothing() -> None:
    assert scores(
        "dreierles", seats=4, sitting_out=1, declarer=2, contract="zweier", declarer_points=46
    ) == [-6, 0, 12, -6]


# ---------------------------------------------------------------- house rules
def test_a_club_adds_fixed_contracts_and_changes_amounts(swm_data: dict[str, Any]) -> None:
    swm_data["slug"] = "fc_hinterzarten"
    swm_data["contracts"]["trio"] = {
        "kind": "fixed",
        "amount": 20,
        "name": {"de": "Trio", "en": "Trio"},
    }
    swm_data["contracts"]["solo_durch"] = {
        "kind": "fixed",
        "amount": 100,
        "name": {"de": "Solo Durch", "en": "Solo Slam"},
    }
    swm_data["contracts"]["piccolo"]["amount"] = 50
    assert scores(swm_data, seats=4, declarer=3, contract="trio", won=True) == [-20, -20, -20, 60]
    assert scores(swm_data, seats=4, declarer=3, contract="solo_durch", won=False) == [
        100,
        100,
        100,
        -300,
    ]
    assert scores(swm_data, seats=4, declarer=0, contract="piccolo", won=True) == four(50)


def test_declarer_only_distribution(bb_data: dict[str, Any]) -> None:
    bb_data["distribution"] = "declarer_only"
    assert scores(bb_data, seats=4, declarer=1, contract="eine_leere", declarer_points=47) == [
        0,
        9,
        0,
        0,
    ]
    assert scores(bb_data, seats=4, declarer=1, contract="piccolo", won=False) == [0, -10, 0, 0]


def test_solo_doubling_before_rounding_is_a_parameter(swm_data: dict[str, Any]) -> None:
    swm_data["normal"]["multiplier_order"] = "before_rounding"
    # 1 Fach: 5 * 1 * 2 = 10 -> 10 (after rounding it would be 20)
    assert scores(swm_data, seats=4, declarer=0, contract="solo", declarer_points=40) == four(10)


def test_assumptions_name_existing_parameters(builtin_slug: str) -> None:
    source = load_builtin(builtin_slug)
    if builtin_slug != "weissauer2017":
        assert source.assumptions, builtin_slug
    for assumption in source.assumptions:
        assert assumption.de and assumption.en
    params = [assumption.param for assumption in source.assumptions]
    assert len(params) == len(set(params)), params
    # rule_source_from_dict already rejects a param that resolves to nothing: prove it
    data = builtin_data(builtin_slug)
    data["assumptions"] = [{"param": "normal.nonsense", "de": "x", "en": "y"}]
    from scoring import RuleSourceError

    with pytest.raises(RuleSourceError):
        rule_source_from_dict(data)


@pytest.mark.parametrize(
    "slug", [s for s in BUILTIN_SLUGS if s != "dreierles" and 4 in load_builtin(s).tables]
)
@pytest.mark.parametrize("points", [0, 20, 35, 36, 50, 69])
def test_cego_after_a_solo_bid_scores_as_the_gegensolo(slug: str, points: int) -> None:
    deal = {"seats": 4, "declarer": 1, "declarer_points": points}
    assert scores(slug, contract="cego", after_solo=True, **deal) == scores(
        slug, contract="gegensolo", **deal
    )
