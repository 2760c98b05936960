"""Standings: the live tournament standings (phones), the projector in the hall, and the draw
by lot for ties (the season ranking: ``seasons.views.standings``; the Excel export:
``exports.views``).

Who sees what: the standings and the projector are public and read-only (players follow them
on their phones, the data is what the hall sees on the projector anyway). The draw by lot is for
the organisers and the referees (``clubs.permissions``).

Every page runs a constant number of queries: the selector's, plus the tournament, the recorded
lot draws and (for the signed-in organiser) the session and the navigation.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from cego_club.platform.front import offer
from clubs.permissions import (
    REFEREE_TOURNAMENT,
    has_perm,
    public_player_page_ids,
    sees_hidden_places,
)
from tournaments.addresses import public_base_url
from tournaments.caching import (
    cached_at_current_revision,
    revision_cached,
    revision_cached_parts,
)
from tournaments.models import Tournament
from tournaments.selectors.fairness import approved_swaps, public_rulings
from tournaments.selectors.finality import public_appeals, tournament_finality
from tournaments.selectors.hall import shown_announcements
from tournaments.selectors.standings import (
    recorded_lots,
    standings_at_revision,
    team_standings,
    tournament_standings,
)
from tournaments.selectors.visibility import hiding, public_standings
from tournaments.services.standings import LotError, draw_lots
from tournaments.tables_standings import (
    projector_rows_html,
    side_rankings,
    standings_table,
    unresolved_groups,
)
from tournaments.views.access import tournament_permission

# Seconds between the partial refreshes of the live pages.
PROJECTOR_REFRESH_SECONDS = 20
STANDINGS_REFRESH_SECONDS = 30
# The projector shows as many columns and rows as its screen holds in type read from the back
# of the hall (its script measures); more players are shown screen by screen, this long each.
PROJECTOR_PAGE_SECONDS = 12


def _wants_partial(request) -> bool:
    return request.GET.get("partial") == "1" or bool(getattr(request, "htmx", False))


def _no_store(response: HttpResponse) -> HttpResponse:
    # Live pages: a phone's back button or a proxy must not show old standings.
    response["Cache-Control"] = "no-store"
    return response


# --- tournament standings ------------------------------------------------------------------
# The live pages are what spectators refresh: their standings part is rendered once per
# tournament revision and language (tournaments.caching) and served from the cache until the
# next change. The clock ("updated 12:01:05") is put in per request.
#
# A reader who is not signed in (no session cookie, no message waiting) sees the same page as
# every other such reader: the whole page is cached, found with one small query (the revision),
# and only the clock is put in per request. It holds no CSRF token: the language switch, its
# only form, takes none (cego_club/urls.py).

UPDATED_MARK = "\x00updated\x00"
UPDATED_BYTES = UPDATED_MARK.encode()
# The server's time in a cached page (the round clock corrects a device's wrong clock by it).
NOW_MARK = "\x00now\x00"
NOW_BYTES = NOW_MARK.encode()
# Where a season tournament's results are provisional or final (the season server): put in
# per request, as the appeal window closes by the calendar and appeals change no revision.
FINALITY_MARK = "\x00finality\x00"
FINALITY_BYTES = FINALITY_MARK.encode()
# The pages a shared reader asks for; any other query string takes the ordinary path.
SHARED_QUERIES = ("", "partial=1")


def _tournament(pk: int) -> Tournament:
    # Read first: its revision names the cached fragments (see tournaments.caching).
    return get_object_or_404(Tournament.objects.select_related("host_club", "season"), pk=pk)


def _now(format_: str) -> str:
    return date_format(timezone.localtime(), format_)


def _shared_reader(request) -> bool:
    """Not signed in and nothing waiting for this reader: the page is everyone's page."""
    cookies = request.COOKIES
    return (
        settings.SESSION_COOKIE_NAME not in cookies
        and CookieStorage.cookie_name not in cookies
        and request.META.get("QUERY_STRING", "") in SHARED_QUERIES
    )


def _shared_page(pk: int, *parts, build: Callable[[Tournament], str]) -> bytes:
    """``build(tournament)`` as cached, encoded, for the tournament's current revision (404
    if there is no such tournament). Kept as bytes: encoding a 160-player page on every
    request would cost more than finding it."""
    try:
        page = cached_at_current_revision(
            pk, "shared", *parts, load=lambda: _tournament(pk), build=lambda t: build(t).encode()
        )
    except Tournament.DoesNotExist:
        raise Http404 from None
    offer(page)  # the venue's front keeps the whole answer (cego_club/platform/front.py)
    return page


def stamp_standings(page: bytes) -> bytes:
    """The shared standings page (or its live part) with the clock put in. (The venue's
    front finishes its pages with this alone: a line on the results, which a venue page
    never has, is left out.)"""
    return page.replace(UPDATED_BYTES, _now("H:i:s").encode()).replace(FINALITY_BYTES, b"")


def finality_html(tournament_id: int) -> str:
    """The line on a season tournament's results (provisional until …, final since …) and
    its appeals as the public sees them (one query; two where there are appeals)."""
    state = tournament_finality(tournament_id=tournament_id)
    if state is None:
        return ""
    appeals = public_appeals(tournament_id=tournament_id) if state.appealed else []
    return render_to_string(
        "tournaments/standings/_finality.html", {"state": state, "appeals": appeals}
    )


def _stamp_finality(page: bytes, pk: int) -> bytes:
    if FINALITY_BYTES not in page:
        return page
    return page.replace(FINALITY_BYTES, finality_html(pk).encode())


def _standings_parts(tournament: Tournament, *names: str, everything: bool = False) -> dict:
    """What the standings page shows from the data, built once per revision and language:
    the self-refreshing part as markup (UPDATED_MARK for the clock), the ties and lot draws.
    ``everything``: the desk's and referees' view, with the places hidden from the public
    for the prize ceremony (``tournaments.selectors.visibility``)."""

    def build() -> dict:
        complete = standings_at_revision(tournament=tournament)
        hidden = None if everything else hiding(tournament=tournament)
        result = public_standings(complete, shown=hidden)
        context = {
            "hiding": hidden,
            "players": len(complete.rows),
            "standings": result,
            "tournament": tournament,
            "table": standings_table(
                result.rows,
                round_numbers=result.round_numbers,
                # the same links for every reader: the page is cached by revision
                linked_players=public_player_page_ids(row.player_id for row in result.rows),
                scored=result.scored,
            ),
            # the side prizes are the ceremony's too while places are hidden
            "sides": None if hidden else side_rankings(result),
            "updated_time": UPDATED_MARK,
        }
        ties = {
            # before the first result everybody is "tied" at 0: no tie to decide yet
            "ties": unresolved_groups(result) if result.scored else [],
            "lots": [] if hidden else recorded_lots(tournament=tournament, standings=result),
            "standings_finished": result.finished,
        }
        # Spectators see the ties without the organiser's form: that part is cached as markup
        # (at the start of a day every player is tied at 0, a long list).
        public = {"tournament": tournament, "user": AnonymousUser(), **ties}
        fairness = {
            "tournament": tournament,
            "swaps": approved_swaps(tournament=tournament),
            "rulings": public_rulings(tournament=tournament),
        }
        return {
            "live": render_to_string("tournaments/standings/_live.html", context),
            # the approved swaps and final rulings: everyone's without the swaps' reasons,
            # the officials' rendered per request with them
            "fairness": fairness,
            "fairness_html": render_to_string("tournaments/standings/_fairness.html", fairness),
            "teams_html": render_to_string(
                "tournaments/standings/_teams.html", {"teams": team_standings(standings=result)}
            ),
            "ties": ties,
            "ties_html": render_to_string("tournaments/standings/_ties.html", public),
        }

    audience = "everything" if everything else "public"
    return revision_cached_parts(tournament, names, "standings", audience, build=build)


def _live_html(tournament: Tournament, *, everything: bool = False) -> str:
    return _standings_parts(tournament, "live", everything=everything)["live"]


def _standings_page(
    request, tournament: Tournament, *, staff: bool, everything: bool = False, **extra
) -> str:
    """The whole standings page, with UPDATED_MARK for the clock. ``everything``: with the
    places hidden from the public (the desk and the referees)."""
    parts = _standings_parts(
        tournament,
        "live",
        "teams_html",
        *(("ties", "fairness") if staff else ("ties_html", "fairness_html")),
        everything=everything,
    )
    context = {
        "tournament": tournament,
        "live_html": mark_safe(parts["live"]),
        "teams_html": mark_safe(parts["teams_html"]),
        "refresh_seconds": STANDINGS_REFRESH_SECONDS,
        # a season tournament's results, provisional or final: put in per request; the venue
        # laptop holds no appeals and says nothing (its front keeps the page whole there)
        "finality_html": (
            FINALITY_MARK if tournament.season_id and not settings.VENUE_MODE else ""
        ),
        **extra,
    }
    if staff:  # the form to draw lots, with this organiser's CSRF token
        context["ties_html"] = render_to_string(
            "tournaments/standings/_ties.html", {**context, **parts["ties"]}, request=request
        )
        # the tournament's officials also read why each swap was approved
        context["fairness_html"] = render_to_string(
            "tournaments/standings/_fairness.html", {**parts["fairness"], "show_reasons": True}
        )
    else:
        context["ties_html"] = mark_safe(parts["ties_html"])
        context["fairness_html"] = mark_safe(parts["fairness_html"])
    return render_to_string("tournaments/standings/standings.html", context, request=request)


def standings(request, pk: int):
    partial = _wants_partial(request)
    if _shared_reader(request):
        if partial:
            page = _shared_page(pk, "standings-live", build=lambda t: _live_html(t))
        else:
            # no reader's CSRF token in everyone's page (the page has no form that needs one)
            page = _shared_page(
                pk,
                "standings-page",
                build=lambda t: _standings_page(request, t, staff=False, csrf_token="NOTPROVIDED"),
            )
        return _no_store(HttpResponse(stamp_standings(_stamp_finality(page, pk))))
    tournament = _tournament(pk)
    # the desk and the referees see the places hidden for the prize ceremony
    everything = sees_hidden_places(request.user, tournament)
    if partial:
        html = _live_html(tournament, everything=everything)
    else:
        # who may draw lots gets the form (with their CSRF token); everyone else the markup
        staff = has_perm(request.user, REFEREE_TOURNAMENT, tournament)
        html = _standings_page(request, tournament, staff=staff, everything=everything)
        if FINALITY_MARK in html:
            html = html.replace(FINALITY_MARK, finality_html(tournament.pk))
    return _no_store(HttpResponse(html.replace(UPDATED_MARK, _now("H:i:s"))))


@lru_cache(maxsize=64)
def _standings_qr(url: str) -> str:
    """The QR code on the projector board (the same address all day: made once, not at every
    new revision; about 4 ms)."""
    return segno.make(url, error="m").svg_data_uri(scale=6, border=1)


def _projector_board(tournament: Tournament, standings_url: str) -> str:
    """The projector's board as markup (UPDATED_MARK for the clock time, NOW_MARK for the
    server's time the round clock counts from). Every player is in one list: the page's script
    (``projector-pages.js``) lays them out in as many columns and screens as the screen needs,
    so the markup is the same for every screen size."""
    complete = standings_at_revision(tournament=tournament)
    # the hall's screen is the public's, whoever's browser shows it
    hidden = hiding(tournament=tournament)
    result = public_standings(complete, shown=hidden)
    context = {
        "tournament": tournament,
        "standings": result,
        "hiding": hidden,
        "rows": bool(result.rows),
        "rows_html": projector_rows_html(result.rows, scored=result.scored),
        "open_rounds": sorted({t.round_number for t in result.open_tables}),
        "updated_time": UPDATED_MARK,
        "clock_now": NOW_MARK,
        "players": len(complete.rows),
        "page_seconds": PROJECTOR_PAGE_SECONDS,
        # the foot line's "Seite 1/3", filled in by the page's script
        "page_text": _("Screen %(page)s/%(pages)s"),
        "standings_url": standings_url,
        "standings_qr": _standings_qr(standings_url),
        # the clock of the round being played, if the organiser started one (it bumps the
        # revision, so the cached board carries it)
        # the desk's messages (adding or removing one bumps the revision; one whose time
        # runs out before the next change is hidden by static/js/announcements.js)
        "announcements": shown_announcements(tournament=tournament),
        "clock_round": tournament.round_set.exclude(state="closed")
        .filter(ends_at__isnull=False)
        .order_by("-number")
        .first(),
    }
    return render_to_string("tournaments/standings/_projector_board.html", context)


def stamp_projector(board: bytes) -> bytes:
    """The shared projector board with the clock and the server's time put in (the venue's
    front calls it for every spectator it answers from its cache)."""
    now = timezone.localtime()
    return board.replace(UPDATED_BYTES, date_format(now, "H:i").encode()).replace(
        NOW_BYTES, now.isoformat().encode()
    )


def projector(request, pk: int):
    standings_url = public_base_url(request) + reverse("tournaments:standings", kwargs={"pk": pk})
    parts = ("projector", standings_url)
    if _wants_partial(request):  # the board is the same for every viewer
        board = _shared_page(pk, *parts, build=lambda t: _projector_board(t, standings_url))
        return _no_store(HttpResponse(stamp_projector(board)))
    if _shared_reader(request):
        # The whole page is everyone's too (no form, nothing of the reader's): built once per
        # revision, its clock's marks left for stamp_projector, and kept by the venue's front
        # like the board (it was 63-80 requests a second through Django, issue 43).
        def page(tournament: Tournament) -> str:
            board = revision_cached(
                tournament, *parts, build=lambda: _projector_board(tournament, standings_url)
            )
            return _projector_page(request, tournament, board)

        return _no_store(
            HttpResponse(stamp_projector(_shared_page(pk, *parts, "page", build=page)))
        )
    tournament = _tournament(pk)
    markup = revision_cached(
        tournament, *parts, build=lambda: _projector_board(tournament, standings_url)
    )
    page = _projector_page(request, tournament, markup)
    return _no_store(HttpResponse(stamp_projector(page.encode())))


def _projector_page(request, tournament: Tournament, board: str) -> str:
    """The projector's whole page around ``board`` (its clock's marks still in it)."""
    context = {
        "tournament": tournament,
        "board": mark_safe(board),
        "refresh_seconds": PROJECTOR_REFRESH_SECONDS,
    }
    return render_to_string("tournaments/standings/projector.html", context, request=request)


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def standings_draw_lots(request, pk: int):
    tournament = _tournament(pk)
    current = tournament_standings(tournament=tournament)
    target = reverse("tournaments:standings", kwargs={"pk": tournament.pk}) + "#ties"
    if not current.unresolved_ties:
        messages.info(request, _("No ties are left to draw."))
        return redirect(target)
    if not current.finished and request.POST.get("confirm_open") != "1":
        messages.error(
            request,
            _(
                "Tables are still playing, so the standings may still change. Confirm that "
                "you want to draw lots now."
            ),
        )
        return redirect(target)
    try:
        draws = draw_lots(
            tournament=tournament, user=request.user, reason=request.POST.get("reason", "")[:500]
        )
    except LotError as error:
        messages.error(request, str(error))
        return redirect(target)
    messages.success(
        request,
        ngettext(
            "Lots drawn for %(count)d tied group.",
            "Lots drawn for %(count)d tied groups.",
            len(draws),
        )
        % {"count": len(draws)},
    )
    return redirect(target)


urlpatterns = [
    path("tournaments/<int:pk>/standings/", standings, name="standings"),
    path("tournaments/<int:pk>/standings/projector/", projector, name="projector"),
    path(
        "tournaments/<int:pk>/standings/draw-lots/",
        standings_draw_lots,
        name="standings_draw_lots",
    ),
]
