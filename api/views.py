"""The read API for the association's website: JSON, public, paged, with ETags.

A tournament's document is cached by its revision and a season's by the revisions of its
tournaments (``tournaments.caching``), and their ETags are made from the same revisions, so a
client asking again with ``If-None-Match`` gets a 304 after one small query. Lists carry an
ETag of their content. Documented in ``docs/API.md``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.http import parse_etags
from django.views.decorators.http import require_GET

from api import documents
from clubs.models import Club, Player
from ratings.selectors import clubs_of, ratings_list
from seasons.models import Season
from seasons.selectors.series import counted_tournament_ids, series_of_tournaments
from seasons.selectors.standings import season_standings
from seasons.selectors.statistics import cached_season_statistics, statistics_scope
from simultaneous.documents import day_document, day_summary
from simultaneous.models import SimultaneousDay
from simultaneous.selectors import day_ranking
from tournaments.caching import revision_cached, season_cached, season_stamp
from tournaments.models import Entry, Tournament
from tournaments.selectors.standings import home_clubs, tournament_standings
from tournaments.selectors.visibility import hiding, public_standings

PAGE_SIZE = 50
API_VERSION = 1  # raise when a document's shape changes: it is part of every ETag


def _encode(document: dict) -> bytes:
    return json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False).encode()


def _answer(request: HttpRequest, *, etag: str, body: Callable[[], bytes]) -> HttpResponse:
    """``body()`` as JSON, or 304 when the client has it already (``body`` is then not built)."""
    tag = f'"{etag}"'
    if tag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body(), content_type="application/json; charset=utf-8")
    response["ETag"] = tag
    # Cached anywhere, but asked again each time: the 304 costs one small query.
    response["Cache-Control"] = "public, no-cache"
    response["Access-Control-Allow-Origin"] = "*"  # the association's website reads it
    return response


def _content_answer(request: HttpRequest, document: dict) -> HttpResponse:
    body = _encode(document)
    digest = hashlib.sha256(body).hexdigest()[:32]
    return _answer(request, etag=f"v{API_VERSION}-{digest}", body=lambda: body)


def _page(request: HttpRequest, queryset, *, name: str, make: Callable[[list], list]) -> dict:
    """One page of ``queryset`` with DRF's familiar envelope (count, next, previous, results)."""
    paginator = Paginator(queryset, PAGE_SIZE)
    try:
        page = paginator.page(request.GET.get("page", 1))
    except (EmptyPage, PageNotAnInteger) as error:
        raise _BadPage(str(error)) from error
    base = reverse(name)
    query = request.GET.copy()

    def link(number: int) -> str:
        query["page"] = str(number)
        return f"{base}?{query.urlencode()}"

    return {
        "count": paginator.count,
        "page": page.number,
        "pages": paginator.num_pages,
        "next": link(page.next_page_number()) if page.has_next() else None,
        "previous": link(page.previous_page_number()) if page.has_previous() else None,
        "results": make(list(page.object_list)),
    }


class _BadPage(Exception):
    pass


def _listing(view: Callable[[HttpRequest], dict]) -> Callable[[HttpRequest], HttpResponse]:
    def wrapped(request: HttpRequest) -> HttpResponse:
        try:
            document = view(request)
        except _BadPage as error:
            return JsonResponse({"error": f"page: {error}"}, status=404)
        return _content_answer(request, document)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return require_GET(wrapped)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return _content_answer(
        request,
        {
            "version": API_VERSION,
            "documentation": "docs/API.md",
            "tournaments": reverse("api:tournaments"),
            "seasons": reverse("api:seasons"),
            "clubs": reverse("api:clubs"),
            "players": reverse("api:players"),
            "ratings": reverse("api:ratings"),
            "simultaneous_days": reverse("api:simultaneous_days"),
        },
    )


@_listing
def tournaments(request: HttpRequest) -> dict:
    """Newest first; ``?season=ID`` for one season's."""
    queryset = Tournament.objects.select_related("host_club").order_by("-date", "-pk")
    season = request.GET.get("season", "")
    if season:
        if not season.isdigit():
            raise _BadPage("season must be a number")
        # Home and also-counting tournaments (issue 41).
        queryset = queryset.filter(pk__in=counted_tournament_ids(season_ids=[int(season)]))
    return _page(
        request,
        queryset,
        name="api:tournaments",
        make=_summaries,
    )


def _summaries(items) -> list[dict]:
    series = series_of_tournaments(tournament_ids=[t.pk for t in items])
    return [documents.tournament_summary(t, series=series.get(t.pk, ())) for t in items]


@require_GET
def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)

    def body() -> bytes:
        return revision_cached(
            found,
            "api",
            API_VERSION,
            build=lambda: _document(found),
        )

    return _answer(request, etag=f"v{API_VERSION}-t{found.pk}-r{found.revision}", body=body)


def _document(found: Tournament) -> bytes:
    # the places hidden for the prize ceremony are the public's to see only after it
    hidden = hiding(tournament=found)
    standings = public_standings(tournament_standings(tournament=found), shown=hidden)
    series = series_of_tournaments(tournament_ids=[found.pk]).get(found.pk, ())
    return _encode(documents.tournament_document(standings, hidden_top=hidden, series=series))


@_listing
def seasons(request: HttpRequest) -> dict:
    return _page(
        request,
        Season.objects.order_by("-starts_on", "-pk"),
        name="api:seasons",
        make=lambda items: [documents.season_summary(s) for s in items],
    )


@require_GET
def season_standings_view(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=pk)
    stamp = hashlib.sha256(repr(season_stamp(season)).encode()).hexdigest()[:32]

    def body() -> bytes:
        return season_cached(
            season,
            "api",
            API_VERSION,
            build=lambda: _season_document(season),
        )

    return _answer(request, etag=f"v{API_VERSION}-s{season.pk}-{stamp}", body=body)


def _season_document(season: Season) -> bytes:
    result = season_standings(season=season)
    series = series_of_tournaments(tournament_ids=[t.pk for t in result.tournaments])
    return _encode(documents.season_document(result, series=series))


@require_GET
def season_statistics_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's figures; the ETag is the stamp they are built from (the seasons up to
    this one and every tournament's revision: ``seasons.selectors.statistics``)."""
    season = get_object_or_404(Season, pk=pk)
    scope = statistics_scope(season=season)
    return _answer(
        request,
        etag=f"v{API_VERSION}-st{season.pk}-{scope.stamp}",
        body=lambda: _encode(
            documents.season_statistics_document(cached_season_statistics(scope=scope))
        ),
    )


@_listing
def clubs(request: HttpRequest) -> dict:
    return _page(
        request,
        Club.objects.order_by("name"),
        name="api:clubs",
        make=lambda items: [documents.club_summary(c) for c in items],
    )


@_listing
def players(request: HttpRequest) -> dict:
    """The names the public standings show: players with an entry in some tournament. A member
    who never played is not named here (nor anywhere public)."""
    queryset = (
        Player.objects.filter(Exists(Entry.objects.filter(player=OuterRef("pk"))))
        .order_by("last_name", "first_name", "pk")
        .values("id", "first_name", "last_name")
    )

    def make(items: list) -> list:
        shown = home_clubs(pk__in=[item["id"] for item in items])
        return [documents.player_name(item, club=shown.get(item["id"], "")) for item in items]

    return _page(request, queryset, name="api:players", make=make)


@_listing
def ratings(request: HttpRequest) -> dict:
    """The rating across seasons, best first: the established ratings (at least three rated
    tournaments) with their rank; ``?provisional=1`` for the others, listed apart. Only what is
    stored is read (``ratings.selectors``)."""
    flag = request.GET.get("provisional", "0")
    if flag not in ("0", "1"):
        raise _BadPage("provisional must be 0 or 1")
    provisional = flag == "1"

    def make(items: list) -> list:
        shown = clubs_of(player_ids=(item["player_id"] for item in items))
        return [
            documents.rating_row(
                item, club=shown.get(item["player_id"], ""), provisional=provisional
            )
            for item in items
        ]

    return _page(request, ratings_list(provisional=provisional), name="api:ratings", make=make)


@_listing
def simultaneous_days(request: HttpRequest) -> dict:
    """The simultaneous Cego days, newest first; ``?season=ID`` for one season's."""
    queryset = SimultaneousDay.objects.order_by("-date", "-pk")
    season = request.GET.get("season", "")
    if season:
        if not season.isdigit():
            raise _BadPage("season must be a number")
        queryset = queryset.filter(season_id=int(season))
    return _page(
        request,
        queryset,
        name="api:simultaneous_days",
        make=lambda items: [day_summary(day) for day in items],
    )


@require_GET
def simultaneous_day(request: HttpRequest, pk: int) -> HttpResponse:
    """A simultaneous day's live rankings: overall and each hall's; the ETag names every
    hall's revision (``simultaneous.selectors.ranking_stamp``)."""
    day = get_object_or_404(SimultaneousDay, pk=pk)
    result = day_ranking(day=day)
    return _answer(
        request,
        etag=f"v{API_VERSION}-d{day.pk}-{result.stamp}",
        body=lambda: _encode(day_document(day, result)),
    )


app_name = "api"
urlpatterns = [
    path("", index, name="index"),
    path("tournaments/", tournaments, name="tournaments"),
    path("tournaments/<int:pk>/", tournament, name="tournament"),
    path("seasons/", seasons, name="seasons"),
    path("seasons/<int:pk>/standings/", season_standings_view, name="season_standings"),
    path("seasons/<int:pk>/statistics/", season_statistics_view, name="season_statistics"),
    path("clubs/", clubs, name="clubs"),
    path("players/", players, name="players"),
    path("ratings/", ratings, name="ratings"),
    path("simultaneous-days/", simultaneous_days, name="simultaneous_days"),
    path("simultaneous-days/<int:pk>/", simultaneous_day, name="simultaneous_day"),
]
