"""A season's figures as the association publishes them each year (issue 30): different
players, deals played, tournaments, players per host club and per tournament, new players,
and the same for the earlier seasons to compare.

Read in a constant number of queries, whatever the number of seasons, tournaments and deals:
:func:`statistics_scope` reads the season with its earlier ones and their tournaments (two
queries; its ``stamp`` says what the figures are built from: the seasons and every
tournament's revision), :func:`season_statistics` adds three: whether the stored results are
at the tournaments' revisions (``seasons.selectors.results``; a tournament whose revision
moved is worked out again first), who has a result in which tournament (the stored rows,
never the deals), and the confirmed deals counted per tournament by the database.
:func:`cached_season_statistics` keeps the figures in the cache under the stamp, so a reader
after the first pays the two queries of the scope only.

Definitions (the same on the page, in the API and in ``docs/API.md``):
- a *player* of a tournament is an entry with a result (a total: seated at a table with a
  confirmed deal, or a paper total); a registration without a result does not count;
- *deals* are the confirmed deals of the tables not voided (not annulled, not waiting for
  confirmation; a round total from paper is no deal);
- a *new player* played in this season and in no tournament of an earlier season held here
  (``None`` for the first season held here: there is nothing to compare with);
- *earlier seasons* are those that start before this one.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Count, Q

from seasons.models import Season, TournamentResult
from seasons.selectors.results import fresh_results
from seasons.selectors.series import season_tournaments
from tournaments.models import Deal, Tournament

# Figures change only with a tournament's revision or a season's dates: kept this long.
CACHE_SECONDS = 6 * 60 * 60
# Raise when the figures' shape changes (a new release): part of the cache key.
FIGURES_VERSION = 1


@dataclass(frozen=True)
class TournamentFigures:
    tournament: Tournament
    players: int
    deals: int


@dataclass(frozen=True)
class HostFigures:
    name: str
    short_name: str
    tournaments: int
    entries: int  # players added up over the club's tournaments (a player twice: twice)
    distinct_players: int


@dataclass(frozen=True)
class SeasonFigures:
    season: Season
    tournaments: int  # of the season, played or not yet
    tournaments_played: int  # with at least one result
    distinct_players: int
    entries: int  # players added up over the tournaments
    deals: int
    new_players: int | None  # None: no earlier season to compare with

    @property
    def players_per_tournament(self) -> float | None:
        return self.entries / self.tournaments_played if self.tournaments_played else None


@dataclass(frozen=True)
class SeasonStatistics:
    figures: SeasonFigures
    by_tournament: list[TournamentFigures] = field(default_factory=list)
    by_host: list[HostFigures] = field(default_factory=list)
    # every season held here up to this one, oldest first, this one last (for the chart)
    seasons: list[SeasonFigures] = field(default_factory=list)

    @property
    def earlier(self) -> list[SeasonFigures]:
        """The earlier seasons, newest first."""
        return list(reversed(self.seasons[:-1]))


@dataclass(frozen=True)
class StatisticsScope:
    season: Season
    seasons: list[Season]  # oldest first, ``season`` last
    tournaments: list[Tournament]  # of those seasons, by date
    stamp: str  # what the figures are built from, as one short value
    # season id -> its tournaments, home and also-counting (issue 41)
    of_season: dict[int, tuple[Tournament, ...]] | None = None


def statistics_scope(*, season: Season) -> StatisticsScope:
    """``season``, the seasons before it and their tournaments (two queries)."""
    seasons = list(
        Season.objects.filter(Q(starts_on__lt=season.starts_on) | Q(pk=season.pk)).order_by(
            "starts_on", "pk"
        )
    )
    # ``season`` last, whatever another season starting the same day says
    seasons = [s for s in seasons if s.pk != season.pk] + [season]
    # Home and also-counting tournaments of each season (issue 41).
    of_season = season_tournaments(seasons=seasons)
    tournaments = sorted(
        {t.pk: t for found in of_season.values() for t in found}.values(),
        key=lambda t: (t.date, t.pk),
    )
    raw = repr(
        (
            FIGURES_VERSION,
            season.pk,
            [(s.pk, s.name, s.starts_on, s.ends_on) for s in seasons],
            [(t.pk, t.season_id, t.revision) for t in tournaments],
            sorted((k, [t.pk for t in v]) for k, v in of_season.items()),
        )
    )
    stamp = hashlib.sha256(raw.encode()).hexdigest()[:32]
    return StatisticsScope(
        season=season,
        seasons=seasons,
        tournaments=tournaments,
        stamp=stamp,
        of_season={k: tuple(v) for k, v in of_season.items()},
    )


def season_statistics(*, scope: StatisticsScope) -> SeasonStatistics:
    """The figures of ``scope.season`` and of each earlier season (three queries more)."""
    tournaments = scope.tournaments
    fresh_results(tournaments=tournaments)
    players_of: dict[int, set[int]] = defaultdict(set)  # tournament -> players with a result
    for tournament_id, player_id in TournamentResult.objects.filter(
        tournament_id__in=[t.pk for t in tournaments], total__isnull=False
    ).values_list("tournament_id", "entry__player_id"):
        players_of[tournament_id].add(player_id)
    deals_of = dict(
        Deal.objects.filter(
            table__round__tournament_id__in=[t.pk for t in tournaments],
            table__voided=False,
            status=Deal.Status.CONFIRMED,
            kind=Deal.Kind.DEAL,
        )
        .values_list("table__round__tournament_id")
        .annotate(deals=Count("pk"))
        .order_by()
    )
    by_season: dict[int, list[Tournament]] = defaultdict(list)
    if scope.of_season is not None:
        for season_id, found in scope.of_season.items():
            by_season[season_id] = list(found)
    else:
        for tournament in tournaments:
            by_season[tournament.season_id].append(tournament)  # type: ignore[index]

    seen_before: set[int] = set()
    figures: list[SeasonFigures] = []
    for index, season in enumerate(scope.seasons):
        held = by_season.get(season.pk, [])
        players: set[int] = set()
        for tournament in held:
            players |= players_of.get(tournament.pk, set())
        figures.append(
            SeasonFigures(
                season=season,
                tournaments=len(held),
                tournaments_played=sum(1 for t in held if players_of.get(t.pk)),
                distinct_players=len(players),
                entries=sum(len(players_of.get(t.pk, ())) for t in held),
                deals=sum(deals_of.get(t.pk, 0) for t in held),
                new_players=len(players - seen_before) if index else None,
            )
        )
        seen_before |= players

    held = by_season.get(scope.season.pk, [])
    by_tournament = [
        TournamentFigures(
            tournament=t, players=len(players_of.get(t.pk, ())), deals=deals_of.get(t.pk, 0)
        )
        for t in held
    ]
    hosts: dict[int, list[Tournament]] = defaultdict(list)
    for tournament in held:
        hosts[tournament.host_club_id].append(tournament)
    by_host = []
    for club_tournaments in hosts.values():
        club = club_tournaments[0].host_club  # selected with it: no query
        distinct: set[int] = set()
        for tournament in club_tournaments:
            distinct |= players_of.get(tournament.pk, set())
        by_host.append(
            HostFigures(
                name=club.name if club is not None else "",
                short_name=club.short_name if club is not None else "",
                tournaments=len(club_tournaments),
                entries=sum(len(players_of.get(t.pk, ())) for t in club_tournaments),
                distinct_players=len(distinct),
            )
        )
    by_host.sort(key=lambda h: (-h.distinct_players, h.name))
    return SeasonStatistics(
        figures=figures[-1], by_tournament=by_tournament, by_host=by_host, seasons=figures
    )


def cached_season_statistics(*, scope: StatisticsScope) -> SeasonStatistics:
    """The figures of ``scope``, from the cache while its stamp holds."""
    key = f"season-statistics:{scope.season.pk}:{scope.stamp}"
    statistics = cache.get(key)
    if statistics is None:
        statistics = season_statistics(scope=scope)
        cache.set(key, statistics, CACHE_SECONDS)
    return statistics
