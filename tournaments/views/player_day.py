"""Each player's own phone view ("Mein Platz"): public, no login, like the standings.

``my_seat_search`` finds a player of the tournament by name or start number (the standings
and the table's phone page link to it); ``my_seat`` shows that player's table and seat in the
latest released round (big), the round's state and clock, their place and running total, and
refreshes itself (htmx polling of its live part, as the table's phone page does). A draw the
organisers have not released yet is not shown (``tournaments.selectors.player_day``).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.safestring import mark_safe

from tournaments.caching import revision_cached
from tournaments.models import Tournament
from tournaments.selectors.hall import shown_announcements, still_shown
from tournaments.selectors.player_day import find_players, player_day
from tournaments.selectors.standings import standings_at_revision
from tournaments.selectors.visibility import hiding
from tournaments.tables_standings import shown

REFRESH_SECONDS = 20


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


def _places(tournament: Tournament) -> dict:
    """Entry id -> (rank markup, total markup, fill-in) and the count, once per revision."""

    def build() -> dict:
        rows = standings_at_revision(tournament=tournament).rows
        # the places hidden for the prize ceremony: neither place nor total on any phone
        hidden = hiding(tournament=tournament)
        return {
            # the desk's messages; those whose time is over are left out when shown
            "announcements": shown_announcements(tournament=tournament),
            "count": sum(1 for row in rows if not row.fill_in),
            "hidden": {row.entry_id for row in rows if hidden is not None and hidden.hides(row)},
            "rows": {
                item.row.entry_id: (str(item.rank), str(item.total), item.row.fill_in)
                for item in shown(rows)
                if hidden is None or not hidden.hides(item.row)
            },
        }

    return revision_cached(tournament, "player-places", build=build)


def my_seat_search(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    query = request.GET.get("q", "")[:80]
    found = list(find_players(tournament=tournament, query=query)) if query.strip() else None
    return render(
        request,
        "tournaments/me/search.html",
        {"tournament": tournament, "query": query, "found": found},
    )


def my_seat(request, pk: int, number: int):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    day = player_day(tournament=tournament, number=number)
    if day is None:
        raise Http404
    places = _places(tournament)
    place = places["rows"].get(day.entry.pk)
    context = {
        "tournament": tournament,
        "day": day,
        "rank": mark_safe(place[0]) if place else None,
        "total": mark_safe(place[1]) if place else None,
        "fill_in": place[2] if place else False,
        "place_hidden": day.entry.pk in places["hidden"],
        "players": places["count"],
        "standings_url": reverse("tournaments:standings", args=[pk]) + f"#entry-{day.entry.pk}",
        "refresh_seconds": REFRESH_SECONDS,
        "finished": tournament.finished_at is not None,
        "announcements": still_shown(places["announcements"]),
        "now": timezone.now(),
    }
    partial = request.GET.get("partial") == "1"
    template = "tournaments/me/_live.html" if partial else "tournaments/me/player.html"
    return _no_store(render(request, template, context))


urlpatterns = [
    path("tournaments/<int:pk>/me/", my_seat_search, name="my_seat_search"),
    path("tournaments/<int:pk>/me/<int:number>/", my_seat, name="my_seat"),
]
