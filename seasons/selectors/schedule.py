"""The tournament calendar: the tournaments of every club on this server by date, for the
public calendar page and its iCalendar feeds (``seasons.ical``). One query each."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from uuid import UUID

from clubs.models import Club
from seasons.models import Season
from tournaments.models import Tournament

# The feeds keep a year of past tournaments, so a phone's calendar does not lose them.
FEED_PAST_DAYS = 365


@dataclass(frozen=True)
class CalendarEntry:
    tournament_id: int
    archive_id: UUID  # the event's UID: the same for the tournament wherever it is held
    name: str
    date: dt.date
    venue: str
    host_id: int
    host_name: str
    host_town: str
    season_id: int | None
    season_name: str
    finished: bool
    start: dt.time | None = None  # tournaments have no start time yet: all-day events

    @property
    def place(self) -> str:
        """Where it is played: the hall, else the host club's town."""
        return self.venue or self.host_town


def calendar_entries(
    *,
    since: dt.date | None = None,
    season: Season | None = None,
    club: Club | None = None,
) -> list[CalendarEntry]:
    """The tournaments from ``since`` on (None: all), of one season or hosted by one club,
    by date (one query)."""
    tournaments = Tournament.objects.all()
    if since is not None:
        tournaments = tournaments.filter(date__gte=since)
    if season is not None:
        tournaments = tournaments.filter(season=season)
    if club is not None:
        tournaments = tournaments.filter(host_club=club)
    return [
        CalendarEntry(
            tournament_id=row["pk"],
            archive_id=row["archive_id"],
            name=row["name"],
            date=row["date"],
            venue=row["venue"],
            host_id=row["host_club_id"],
            host_name=row["host_club__name"],
            host_town=row["host_club__town"],
            season_id=row["season_id"],
            season_name=row["season__name"] or "",
            finished=row["finished_at"] is not None,
        )
        for row in tournaments.order_by("date", "name", "pk").values(
            "pk",
            "archive_id",
            "name",
            "date",
            "venue",
            "host_club_id",
            "host_club__name",
            "host_club__town",
            "season_id",
            "season__name",
            "finished_at",
        )
    ]


def entries_digest(entries: list[CalendarEntry], *parts: object) -> str:
    """What a feed shows, as one digest: the feed's ETag and the key its body is cached by
    (a tournament renamed, moved or added gives another)."""
    raw = repr((parts, [tuple(vars(entry).values()) for entry in entries]))
    return hashlib.sha256(raw.encode()).hexdigest()[:32]
