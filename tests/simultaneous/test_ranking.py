"""The overall ranking's arithmetic (simultaneous.ranking): pure, with property tests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from simultaneous.ranking import Fit, HallRow, misfits, overall
from tournaments.ranking import places

rows = st.lists(
    st.builds(
        HallRow,
        section=st.integers(1, 5),
        entry=st.integers(1, 10_000),
        name=st.text(min_size=1, max_size=8),
        club=st.just(""),
        total=st.integers(-500, 500),
        deals_played=st.integers(0, 48),
    ),
    max_size=60,
    unique_by=lambda r: (r.section, r.entry),
)


@given(rows)
def test_every_row_once_best_first(found):
    ranked = overall(found)
    assert sorted((r.row.section, r.row.entry) for r in ranked) == sorted(
        (r.section, r.entry) for r in found
    )
    totals = [r.row.total for r in ranked]
    assert totals == sorted(totals, reverse=True)


@given(rows)
def test_places_are_the_tournaments_rule_over_all_halls(found):
    """As if under one roof: the place is what ``tournaments.ranking.places`` gives the same
    totals in one tournament (equal totals share, the next place skips)."""
    ranked = overall(found)
    expected = places({(r.section, r.entry): r.total for r in found})
    assert {(r.row.section, r.row.entry): r.rank for r in ranked} == expected
    for item in ranked:
        same = sum(1 for other in found if other.total == item.row.total)
        assert item.tied == (same > 1)
        # the place is one more than the number of players with more points
        assert item.rank == 1 + sum(1 for other in found if other.total > item.row.total)


@given(rows, st.integers(1, 5))
def test_a_hall_playing_better_moves_its_players_up_never_others_ahead(found, hall):
    before = {(r.row.section, r.row.entry): r.rank for r in overall(found)}
    better = [
        HallRow(**{**vars(r), "total": r.total + 10}) if r.section == hall else r for r in found
    ]
    after = {(r.row.section, r.row.entry): r.rank for r in overall(better)}
    for key, rank in after.items():
        if key[0] == hall:
            assert rank <= before[key]
        else:
            assert rank >= before[key]


def test_example_two_halls():
    ranked = overall(
        [
            HallRow(section=1, entry=1, name="Anna", club="", total=120, deals_played=48),
            HallRow(section=2, entry=7, name="Bert", club="", total=120, deals_played=48),
            HallRow(section=1, entry=2, name="Carl", club="", total=-40, deals_played=48),
            HallRow(section=2, entry=8, name="Dora", club="", total=300, deals_played=48),
        ]
    )
    assert [(r.rank, r.row.name, r.tied) for r in ranked] == [
        (1, "Dora", False),
        (2, "Anna", True),
        (2, "Bert", True),
        (4, "Carl", False),
    ]


def test_misfits_name_each_field():
    day = Fit(rules_slug="swm", rounds=2, deals_per_round=24)
    assert misfits(day, day) == []
    assert misfits(day, Fit(rules_slug="bb2013", rounds=3, deals_per_round=24)) == [
        "rules_slug",
        "rounds",
    ]
    assert misfits(day, Fit(rules_slug="swm", rounds=2, deals_per_round=20)) == ["deals_per_round"]
