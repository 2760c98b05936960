"""The tournament calendar (public): the coming tournaments of every club on this server and
the seasons' planned dates no tournament has taken yet (marked planned), and the iCalendar
feeds that phones and the association's website subscribe to (all tournaments, one
season's, one club's; planned dates in the first two).

A feed is answered from the cache by the digest of what it shows (``entries_digest``: one
query for the rows), with that digest as its ETag, so a subscriber asking again gets a 304
without the feed being built; a tournament renamed, moved or added changes the digest.
"""

from __future__ import annotations

import datetime as dt
from itertools import groupby

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs.models import Club
from seasons.ical import FeedEvent, calendar_bytes, event_uid, planned_event_uid
from seasons.models import Season
from seasons.selectors.schedule import (
    FEED_PAST_DAYS,
    CalendarEntry,
    calendar_entries,
    entries_digest,
)

CONTENT_TYPE = "text/calendar; charset=utf-8"
FEED_CACHE_SECONDS = 24 * 3600


@require_safe
def calendar_page(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    entries = calendar_entries(since=today)
    months = [
        (date_format(month, "F Y"), list(items))
        for month, items in groupby(entries, key=lambda e: e.date.replace(day=1))
    ]
    seasons = sorted({(e.season_id, e.season_name) for e in entries if e.season_id})
    clubs = sorted(
        {(e.host_id, e.host_name) for e in entries if e.host_id is not None},
        key=lambda c: c[1].lower(),
    )
    return render(
        request,
        "seasons/calendar.html",
        {
            "months": months,
            "count": len(entries),
            "planned_count": sum(1 for e in entries if e.planned),
            "feed_all": request.build_absolute_uri(reverse("seasons:calendar_feed")),
            "season_feeds": [
                (name, reverse("seasons:calendar_season_feed", args=[pk])) for pk, name in seasons
            ],
            "club_feeds": [
                (name, reverse("seasons:calendar_club_feed", args=[pk])) for pk, name in clubs
            ],
        },
    )


def _planned_event(request: HttpRequest, entry: CalendarEntry) -> FeedEvent:
    """A season's planned date: tentative, named by what the season's calendar says."""
    assert entry.season_id is not None  # a plan belongs to a season
    url = request.build_absolute_uri(reverse("seasons:season_standings", args=[entry.season_id]))
    lines = [
        _("Planned: the host has not created this tournament yet."),
        _("Season: %(season)s") % {"season": entry.season_name},
        url,
    ]
    return FeedEvent(
        uid=planned_event_uid(entry.season_id, entry.date, entry.number),
        summary=_("%(name)s (planned)") % {"name": entry.name or entry.season_name},
        day=entry.date,
        description="\n".join(lines),
        url=url,
        status="TENTATIVE",
    )


def _event(request: HttpRequest, entry: CalendarEntry) -> FeedEvent:
    if entry.planned:
        return _planned_event(request, entry)
    lines = [_("Host: %(club)s") % {"club": entry.host_name}]
    if entry.season_name:
        lines.append(_("Season: %(season)s") % {"season": entry.season_name})
    url = request.build_absolute_uri(reverse("tournaments:standings", args=[entry.tournament_id]))
    lines.append(url)
    if entry.simultaneous_day_id is not None:
        overall = request.build_absolute_uri(
            reverse("simultaneous:day_ranking", args=[entry.simultaneous_day_id])
        )
        lines.append(
            _("Part of the simultaneous Cego day “%(day)s”, overall ranking: %(url)s")
            % {"day": entry.simultaneous_day_name, "url": overall}
        )
    location = ", ".join(part for part in (entry.venue, entry.host_town) if part)
    return FeedEvent(
        uid=event_uid(entry.archive_id),
        summary=entry.name,
        day=entry.date,
        start=entry.start,
        location=location,
        description="\n".join(lines),
        url=url,
    )


def _feed(request: HttpRequest, entries: list[CalendarEntry], *, name: str) -> HttpResponse:
    base = request.build_absolute_uri("/")
    digest = entries_digest(entries=entries, parts=(name, base, get_language()))
    etag = f'W/"{digest}"'
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    key = f"calendar-feed:{digest}"
    body = cache.get(key)
    if body is None:
        body = calendar_bytes(
            [_event(request, entry) for entry in entries],
            name=name,
            stamp=timezone.now(),
            time_zone=settings.TIME_ZONE,
        )
        cache.set(key, body, FEED_CACHE_SECONDS)
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=900"
    response["Content-Disposition"] = 'inline; filename="cego-turniere.ics"'
    return response


def _number(key: str) -> int | None:
    """A record's number from the address, or None: digits only, and not beyond what the
    database holds (a 30-digit "number" is not found, never an error)."""
    if key.isascii() and key.isdigit() and len(key) <= 9:
        return int(key)
    return None


def _not_found(message: str) -> HttpResponse:
    return HttpResponse(message, status=404, content_type="text/plain; charset=utf-8")


def _since() -> dt.date:
    return timezone.localdate() - dt.timedelta(days=FEED_PAST_DAYS)


@require_safe
def calendar_feed(request: HttpRequest) -> HttpResponse:
    return _feed(request, calendar_entries(since=_since()), name=_("Cego tournaments"))


@require_safe
def calendar_season_feed(request: HttpRequest, key: str) -> HttpResponse:
    number = _number(key)
    season = Season.objects.filter(pk=number).first() if number is not None else None
    if season is None:
        return _not_found(_("There is no season with the number “%(key)s”.") % {"key": key})
    return _feed(
        request,
        calendar_entries(season=season),
        name=_("Cego tournaments: %(season)s") % {"season": season.name},
    )


@require_safe
def calendar_club_feed(request: HttpRequest, key: str) -> HttpResponse:
    number = _number(key)
    club = Club.objects.filter(pk=number).first() if number is not None else None
    if club is None:
        return _not_found(_("There is no club with the number “%(key)s”.") % {"key": key})
    return _feed(
        request,
        calendar_entries(since=_since(), club=club),
        name=_("Cego tournaments: %(club)s") % {"club": club.name},
    )


urlpatterns = [
    path("calendar/", calendar_page, name="calendar"),
    path("calendar.ics", calendar_feed, name="calendar_feed"),
    path("calendar/seasons/<str:key>.ics", calendar_season_feed, name="calendar_season_feed"),
    path("calendar/clubs/<str:key>.ics", calendar_club_feed, name="calendar_club_feed"),
]
