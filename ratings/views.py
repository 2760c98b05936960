"""The public ratings list (``/ratings/``): every rated player, best first, the established
ratings ranked and the provisional ones (fewer than three tournaments) listed apart. Names and
clubs as the public standings show them; a name links to the player's page only where
``clubs.permissions`` lets the reader open it. Reads the stored ratings only."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from clubs.permissions import player_pages_visible
from ratings.rating import NEWCOMER, PROVISIONAL_BELOW
from ratings.selectors import clubs_of, rated_count, ratings_list

PAGE_SIZE = 100


@require_GET
def rating_list(request: HttpRequest) -> HttpResponse:
    provisional = request.GET.get("list") == "provisional"
    page = Paginator(ratings_list(provisional=provisional), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = list(page.object_list)
    ids = [row["player_id"] for row in rows]
    clubs = clubs_of(player_ids=ids)
    linked = player_pages_visible(request.user, ids)
    for row in rows:
        row["club"] = clubs.get(row["player_id"], "")
        row["linked"] = row["player_id"] in linked
    return render(
        request,
        "ratings/rating_list.html",
        {
            "page": page,
            "rows": rows,
            "provisional": provisional,
            "counts": rated_count(),
            "provisional_below": PROVISIONAL_BELOW,
            "start_number": NEWCOMER.display,
            "query": "list=provisional" if provisional else "",
        },
    )


app_name = "ratings"
urlpatterns = [path("ratings/", rating_list, name="rating_list")]
