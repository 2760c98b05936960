"""The roll of honour: every past season's winner, the winners of its side rankings
(women, youth, seniors, and the last place, as ``season_sides`` ranks them) and its team.

A constant number of queries whatever the number of seasons: the seasons (one), what they are
built from (one: every tournament's revision), and on a cache miss the standings of all of
them at once (``seasons_standings``, from the stored results).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from django.core.cache import cache

from seasons.models import Season, counted_tournaments
from seasons.selectors.standings import season_sides, seasons_standings

CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Honoured:
    name: str
    club: str
    total: int


@dataclass(frozen=True)
class SeasonHonours:
    season_id: int
    name: str
    starts_on: dt.date
    ends_on: dt.date
    scoring: str
    tournaments: int
    players: int
    champions: tuple[Honoured, ...]  # more than one: tied
    sides: tuple[tuple[str, tuple[Honoured, ...]], ...]  # (side key, winners), sides with any
    teams: tuple[Honoured, ...]  # the best complete team(s); club empty


def _stamp(seasons: list[Season]) -> str:
    revisions = tuple(
        counted_tournaments([s.pk for s in seasons])
        .order_by("pk")
        .values_list("season_id", "pk", "revision")
    )
    fields = tuple(
        tuple(repr(getattr(season, f.attname)) for f in season._meta.concrete_fields)
        for season in seasons
    )
    return hashlib.sha256(repr((fields, revisions)).encode()).hexdigest()


def roll_of_honour(*, today: dt.date) -> list[SeasonHonours]:
    """The seasons that ended before ``today``, newest first, each with its winners; seasons
    without any result are left out."""
    seasons = list(Season.objects.filter(ends_on__lt=today).order_by("-starts_on", "-pk"))
    if not seasons:
        return []
    key = "roll-of-honour:" + _stamp(seasons)
    found = cache.get(key)
    if found is not None:
        return found
    standings = seasons_standings(seasons=seasons)
    result = []
    for season in seasons:
        ranking = standings[season.pk]
        ranked = [row for row in ranking.rows if row.ranked]
        if not ranked:
            continue
        champions = tuple(
            Honoured(row.name, row.club, row.total) for row in ranked if row.rank == 1
        )
        sides = []
        for side in season_sides(result=ranking):
            if not side.rows:
                continue
            best = side.rows[0].rank
            sides.append(
                (
                    side.key,
                    tuple(
                        Honoured(item.row.name, item.row.club, item.row.total)
                        for item in side.rows
                        if item.rank == best
                    ),
                )
            )
        teams = tuple(
            Honoured(team.name, "", team.total)
            for team in ranking.teams
            if team.rank == 1 and team.complete
        )
        result.append(
            SeasonHonours(
                season_id=season.pk,
                name=season.name,
                starts_on=season.starts_on,
                ends_on=season.ends_on,
                scoring=season.scoring,
                tournaments=sum(1 for t in ranking.tournaments),
                players=len(ranking.rows),
                champions=champions,
                sides=tuple(sides),
                teams=teams,
            )
        )
    cache.set(key, result, CACHE_SECONDS)
    return result
