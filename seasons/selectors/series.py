"""Which tournaments count for a season: its own (home) tournaments and those that also
count for it (``seasons.models.SeriesMembership``, issue 41). The one place every page,
workbook, calendar feed and read API document of a season asks (a constant number of
queries); the series a tournament counts for (its page). The day winners of a series:
``seasons.selectors.day_winners``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Q

from seasons.models import Season, SeriesMembership, counted_tournaments
from tournaments.models import Tournament


def season_tournaments(*, seasons: Sequence[Season]) -> dict[int, tuple[Tournament, ...]]:
    """Season id -> its tournaments in date order (home and also-counting, each once), with
    their host clubs. Two queries whatever the number of seasons and tournaments."""
    season_ids = [season.pk for season in seasons]
    if not season_ids:
        return {}
    tournaments = list(
        counted_tournaments(season_ids).select_related("host_club").order_by("date", "pk")
    )
    also: dict[int, set[int]] = defaultdict(set)
    for tournament_id, season_id in SeriesMembership.objects.filter(
        season_id__in=season_ids
    ).values_list("tournament_id", "season_id"):
        also[tournament_id].add(season_id)
    result: dict[int, list[Tournament]] = {season_id: [] for season_id in season_ids}
    for tournament in tournaments:
        for season_id in {tournament.season_id, *also.get(tournament.pk, ())}:
            if season_id in result:
                result[season_id].append(tournament)
    return {season_id: tuple(found) for season_id, found in result.items()}


def counted_tournament_ids(*, season_ids: Iterable[int]):
    """The ids of the tournaments that count for any of ``season_ids``, as a subquery (no
    query of its own): ``Entry.objects.filter(tournament_id__in=…)``."""
    return counted_tournaments(season_ids).values("pk")


def seasons_of_tournaments(*, tournament_ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    """Tournament id -> the ids of the seasons it counts for (home first, then the series it
    also counts for by start). One query."""
    ids = list(tournament_ids)
    found: dict[int, list[int]] = defaultdict(list)
    for tournament_id, season_id in Tournament.objects.filter(
        pk__in=ids, season__isnull=False
    ).values_list("pk", "season_id"):
        found[tournament_id].append(season_id)
    for tournament_id, season_id in SeriesMembership.objects.filter(
        tournament_id__in=ids
    ).values_list("tournament_id", "season_id"):
        if season_id not in found[tournament_id]:
            found[tournament_id].append(season_id)
    return {tournament_id: tuple(seasons) for tournament_id, seasons in found.items()}


def series_of_tournaments(*, tournament_ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    """Tournament id -> the ids of the series it also counts for besides its home season, by
    the series' start (the read API's ``series``). One query; a tournament in no series is
    not in the answer."""
    found: dict[int, list[int]] = defaultdict(list)
    for tournament_id, season_id in (
        SeriesMembership.objects.filter(tournament_id__in=list(tournament_ids))
        .order_by("season__starts_on", "season__name", "season_id")
        .values_list("tournament_id", "season_id")
    ):
        found[tournament_id].append(season_id)
    return {tournament_id: tuple(seasons) for tournament_id, seasons in found.items()}


@dataclass(frozen=True)
class TournamentSeries:
    """What the tournament's page says: its home season and every series it also counts for."""

    home: Season | None
    also: tuple[Season, ...]

    @property
    def all(self) -> tuple[Season, ...]:
        return ((self.home,) if self.home else ()) + self.also


def tournament_series(*, tournament: Tournament) -> TournamentSeries:
    """The seasons ``tournament`` counts for (one query, the home season selected with it)."""
    also = tuple(
        membership.season
        for membership in SeriesMembership.objects.filter(tournament=tournament)
        .select_related("season")
        .order_by("season__starts_on", "season__name")
    )
    return TournamentSeries(home=tournament.season, also=also)


def eligible_series(*, tournament: Tournament) -> list[Season]:
    """The seasons the tournament could also count for: every season but its home one whose
    dates hold the tournament's day, and those it counts for already (one query)."""
    chosen = SeriesMembership.objects.filter(tournament=tournament).values("season_id")
    seasons = Season.objects.exclude(pk=tournament.season_id or 0).filter(
        Q(starts_on__lte=tournament.date, ends_on__gte=tournament.date) | Q(pk__in=chosen)
    )
    return list(seasons.order_by("-starts_on", "name"))
