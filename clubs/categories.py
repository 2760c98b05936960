"""Which category a player plays in during a season (pure functions, no Django models)."""

from __future__ import annotations

OPEN, WOMAN, YOUTH, SENIOR = "open", "woman", "youth", "senior"


def season_category(*, category: str, birth_year: int | None, youth_born_from: int | None) -> str:
    """The category for a season's side rankings.

    Where the season names a youth cut-off (``youth_born_from``) and the birth year is known,
    the birth year decides: born in the cut-off year or later is youth; a player kept as youth
    in the registry who is older than that plays in the open class. Otherwise the registry's
    category stands (woman, senior or open; youth as entered).
    """
    if youth_born_from is None or birth_year is None:
        return category
    if birth_year >= youth_born_from:
        return YOUTH
    return OPEN if category == YOUTH else category
