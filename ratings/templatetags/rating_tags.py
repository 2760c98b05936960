"""The player page's section "Wertungszahl" (``{% player_rating player %}``, one line in
``seasons/player.html``: the page's view stays the season area's) and the number's format."""

from __future__ import annotations

from django import template

from ratings.rating import NEWCOMER, PROVISIONAL_BELOW
from ratings.selectors import player_rating

register = template.Library()

THIN = "\u202f"  # narrow no-break space: 1 532, as the association prints it
MINUS = "\u2212"


@register.filter
def rating_number(value: int | None) -> str:
    """1532 → "1 532" (the thousands apart by a narrow no-break space)."""
    if value is None:
        return "–"
    sign = MINUS if value < 0 else ""
    return sign + f"{abs(value):,}".replace(",", THIN)


@register.filter
def rating_change(value: int | None) -> str:
    """+18, −7 (a real minus), ±0."""
    if value is None:
        return ""
    if value == 0:
        return "±0"
    return f"+{value}" if value > 0 else f"{MINUS}{-value}"


@register.inclusion_tag("ratings/_player_rating.html")
def player_rating_section(player) -> dict:
    """The section for ``player``'s page (two queries); the page's view has checked that the
    reader may see it."""
    return {
        "rating": player_rating(player_id=player.pk),
        "provisional_below": PROVISIONAL_BELOW,
        "start_number": NEWCOMER.display,
    }
