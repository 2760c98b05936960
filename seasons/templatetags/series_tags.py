"""The series a tournament counts for (issue 41), named on its pages: ``{% tournament_series
tournament %}`` (one line in the tournament's templates; the pages' views stay the tournament
area's, which imports no season selector)."""

from __future__ import annotations

from django import template

from clubs.permissions import MANAGE_TOURNAMENT, has_perm, is_season_scorer
from seasons.selectors.series import tournament_series as series_of

register = template.Library()


@register.inclusion_tag("seasons/_tournament_series.html", takes_context=True)
def tournament_series(context, tournament, *, edit: bool = False) -> dict:
    """Its home season and every series it also counts for, each linked to its standings
    (one query); ``edit``: and the organiser's link to change them."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "tournament": tournament,
        "series": series_of(tournament=tournament),
        "edit": edit
        and user is not None
        and (has_perm(user, MANAGE_TOURNAMENT, tournament) or is_season_scorer(user)),
    }
