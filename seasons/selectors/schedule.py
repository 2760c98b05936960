"""The tournament calendar: the tournaments of every club on this server by date, and the
seasons' planned dates no tournament has taken yet, for the public calendar page and its
iCalendar feeds (``seasons.ical``). Two queries each."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from dataclasses import dataclass
from uuid import UUID

from clubs.models import Club
from seasons.models import PlannedTournament, Season
from seasons.selectors.series import counted_tournament_ids
from tournaments.models import Tournament

# The feeds keep a year of past tournaments, so a phone's calendar does not lose them.
FEED_PAST_DAYS = 365


@dataclass(frozen=True)
class CalendarEntry:
    tournament_id: int | None  # None: a planned date (``planned``)
    archive_id: UUID | None  # the event's UID: the same for the tournament wherever it is held
    name: str  # a planned date's: what the season's calendar says (host or place), or ""
    date: dt.date
    venue: str
    host_id: int | None
    host_name: str
    host_town: str
    season_id: int | None
    season_name: str
    finished: bool
    start: dt.time | None = None  # tournaments have no start time yet: all-day events
    # A season's planned date that no tournament of the season has taken yet; ``number``
    # tells two planned on the same day apart (the event's UID: season, date, number).
    planned: bool = False
    number: int = 0
    # The simultaneous Cego day the tournament is a hall of (``simultaneous``), if any: its
    # event names the day's overall ranking.
    simultaneous_day_id: int | None = None
    simultaneous_day_name: str = ""

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
    and (but for one club's: a planned date names no host club) the seasons' planned dates
    that no tournament of the season on that day has taken, marked ``planned``; by date (two
    queries)."""
    tournaments = Tournament.objects.all()
    if since is not None:
        tournaments = tournaments.filter(date__gte=since)
    if season is not None:
        # Home and also-counting tournaments (issue 41): a series' feed holds its evenings.
        tournaments = tournaments.filter(pk__in=counted_tournament_ids(season_ids=[season.pk]))
    if club is not None:
        tournaments = tournaments.filter(host_club=club)
    entries = _tournament_entries(tournaments)
    if club is None:
        entries += _planned_entries(entries, since=since, season=season)
        # stable: the tournaments keep the database's order, a day's plans come after them
        entries.sort(key=lambda e: (e.date, e.planned))
    return entries


def _planned_entries(
    tournaments: list[CalendarEntry], *, since: dt.date | None, season: Season | None
) -> list[CalendarEntry]:
    """The planned dates from ``since`` on that no tournament of their season has taken (a
    tournament of the season on that day takes one; ``tournaments`` holds every one from
    ``since`` on, so none is missed)."""
    planned = PlannedTournament.objects.all()
    if since is not None:
        planned = planned.filter(date__gte=since)
    if season is not None:
        planned = planned.filter(season=season)
    rows = planned.order_by("season_id", "date", "pk").values(
        "season_id", "date", "note", "season__name"
    )
    # As ranking.open_planned_dates counts them: each tournament takes one plan of its day.
    # In one season's calendar every tournament is the season's (home or also counting).
    held = Counter(
        (season.pk if season is not None else e.season_id, e.date)
        for e in tournaments
        if e.season_id is not None or season is not None
    )
    seen: Counter[tuple[int, dt.date]] = Counter()
    result = []
    for row in rows:
        key = (row["season_id"], row["date"])
        number = seen[key]  # the how-manieth plan of its season's day: part of its UID
        seen[key] += 1
        if number < held[key]:
            continue  # a tournament of the season on that day has taken it
        result.append(
            CalendarEntry(
                tournament_id=None,
                archive_id=None,
                name=row["note"],
                date=row["date"],
                venue="",
                host_id=None,
                host_name="",
                host_town="",
                season_id=row["season_id"],
                season_name=row["season__name"],
                finished=False,
                planned=True,
                number=number,
            )
        )
    return result


def _tournament_entries(tournaments) -> list[CalendarEntry]:
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
            simultaneous_day_id=row["simultaneous_section__day_id"],
            simultaneous_day_name=row["simultaneous_section__day__name"] or "",
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
            # the reverse of ``simultaneous.Section.tournament`` (a join, no import)
            "simultaneous_section__day_id",
            "simultaneous_section__day__name",
        )
    ]


def entries_digest(*, entries: list[CalendarEntry], parts: tuple[object, ...] = ()) -> str:
    """What a feed shows, as one digest: the feed's ETag and the key its body is cached by
    (a tournament renamed, moved or added gives another)."""
    raw = repr((parts, [tuple(vars(entry).values()) for entry in entries]))
    return hashlib.sha256(raw.encode()).hexdigest()[:32]
