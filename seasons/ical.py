"""Tournaments as an iCalendar feed (RFC 5545), built with the ``icalendar`` library: no
model, no query (the rows come from ``seasons.selectors.schedule``).

Every event's UID is the tournament's archive id (the same on the laptop and on the season
server, never reused), so a calendar that subscribed replaces an event when the tournament's
date, hall or name changes instead of adding a second one. A season's planned date that no
tournament has taken yet is a TENTATIVE event named by its season, date and number
(``planned_event_uid``); when the host creates the tournament it leaves the feed and the
tournament's own event takes its place. A tournament without a start time
is an all-day event (DTSTART as a date, DTEND the next day); with one, a timed event in the
server's time zone with the zone written into the feed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

PRODID = "-//Cego Club//Turnierkalender//DE"
UID_DOMAIN = "cego-club"
# A timed event without an end of its own: a Cego tournament takes an afternoon.
TIMED_HOURS = 6
# Subscribers are asked to fetch again twice a day (RFC 7986 REFRESH-INTERVAL; Outlook's
# X-PUBLISHED-TTL).
REFRESH = dt.timedelta(hours=12)


@dataclass(frozen=True)
class FeedEvent:
    uid: str  # stable per tournament: its archive id
    summary: str
    day: dt.date
    start: dt.time | None = None
    location: str = ""
    description: str = ""
    url: str = ""
    status: str = "CONFIRMED"  # TENTATIVE: a planned date, no tournament created yet


def event_uid(archive_id: object) -> str:
    return f"tournament-{archive_id}@{UID_DOMAIN}"


def planned_event_uid(season_id: int, day: dt.date, number: int = 0) -> str:
    """A planned date's UID: its season, its day and which of that day's plans it is."""
    return f"planned-{season_id}-{day:%Y%m%d}-{number}@{UID_DOMAIN}"


def calendar_bytes(
    events: Sequence[FeedEvent],
    *,
    name: str,
    stamp: dt.datetime,
    time_zone: str = "Europe/Berlin",
) -> bytes:
    """The feed as bytes (UTF-8, CRLF lines folded at 75 octets as the RFC wants).
    ``stamp``: DTSTAMP of every event, when the feed was built (aware, UTC).

    ``icalendar`` is imported here, on the first feed asked for: imported with the URLs, it
    was a sixth of a second of a fresh server's first click, whatever was clicked (issue 29)."""
    from icalendar import Calendar, Event

    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", time_zone)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    zone = ZoneInfo(time_zone)
    stamp = stamp.astimezone(dt.UTC)
    timed = False
    for item in events:
        event = Event()
        event.add("uid", item.uid)
        event.add("dtstamp", stamp)
        if item.start is None:
            event.add("dtstart", item.day)
            event.add("dtend", item.day + dt.timedelta(days=1))
        else:
            timed = True
            start = dt.datetime.combine(item.day, item.start, tzinfo=zone)
            event.add("dtstart", start)
            event.add("dtend", start + dt.timedelta(hours=TIMED_HOURS))
        event.add("summary", item.summary)
        if item.location:
            event.add("location", item.location)
        if item.description:
            event.add("description", item.description)
        if item.url:
            event.add("url", item.url)
        event.add("status", item.status)
        event.add("transp", "TRANSPARENT" if item.start is None else "OPAQUE")
        calendar.add_component(event)
    if timed:
        calendar.add_missing_timezones()
    return calendar.to_ical()
