"""The youngest and the oldest player (``clubs.ages``): only birth years count, ties name
everyone of the year who agreed, nobody is named in the place of one who did not agree, and
with fewer than two different years there is neither."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from clubs.ages import AgedPlayer, Ages, youngest_and_oldest


def aged(*rows):
    return [AgedPlayer(key=k, birth_year=y, agreed=a) for k, y, a in rows]


def test_the_youngest_and_the_oldest():
    ages = youngest_and_oldest(aged(("a", 1960, True), ("b", 2008, True), ("c", 1985, True)))
    assert ages == Ages(youngest=("b",), oldest=("a",))


def test_one_year_ties_and_everyone_who_agreed_is_named():
    ages = youngest_and_oldest(
        aged(("a", 2008, True), ("b", 2008, True), ("c", 2008, False), ("d", 1950, True))
    )
    assert ages.youngest == ("a", "b") and ages.oldest == ("d",)


def test_who_did_not_agree_is_not_replaced_by_the_next_one():
    ages = youngest_and_oldest(aged(("a", 2008, False), ("b", 2000, True), ("c", 1950, True)))
    assert ages.youngest == () and ages.oldest == ("c",)
    assert bool(ages)
    assert not youngest_and_oldest(aged(("a", 2008, False), ("b", 1950, False)))


def test_unknown_years_and_a_single_year_name_nobody():
    assert youngest_and_oldest(aged(("a", None, True), ("b", None, True))) == Ages()
    assert youngest_and_oldest(aged(("a", 1970, True), ("b", None, True))) == Ages()
    assert youngest_and_oldest(aged(("a", 1970, True), ("b", 1970, True))) == Ages()
    assert youngest_and_oldest([]) == Ages()


players = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(1900, 2100)), st.booleans()), max_size=30
)


@given(players)
def test_named_players_agreed_and_are_of_the_extreme_years(rows):
    people = aged(*[(i, year, agreed) for i, (year, agreed) in enumerate(rows)])
    ages = youngest_and_oldest(people)
    years = [p.birth_year for p in people if p.birth_year is not None]
    for key in ages.youngest:
        assert people[key].agreed and people[key].birth_year == max(years)
    for key in ages.oldest:
        assert people[key].agreed and people[key].birth_year == min(years)
    # nobody is both youngest and oldest
    assert not set(ages.youngest) & set(ages.oldest)
    # everyone of the latest year who agreed is named
    if len(set(years)) > 1:
        assert set(ages.youngest) == {
            p.key for p in people if p.birth_year == max(years) and p.agreed
        }
