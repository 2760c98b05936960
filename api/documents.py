"""What the read API answers, as plain dicts built from the selectors' results.

The shapes are documented in ``docs/API.md``; a field is only ever added, never renamed, within
``/api/v1/``. Names are public here because the public standings pages show them; nothing of
the registry's private data (birth year, member number, e-mail, fees) appears."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

from clubs.models import Club
from seasons.models import Season
from seasons.selectors.standings import SeasonStandings
from seasons.selectors.statistics import SeasonFigures, SeasonStatistics
from tournaments.models import Tournament
from tournaments.selectors.standings import Standings
from tournaments.selectors.visibility import Hiding


def _day(value) -> str | None:
    return value.isoformat() if value else None


def tournament_summary(tournament: Tournament, *, series: Sequence[int] = ()) -> dict[str, Any]:
    """A tournament in a list (``host_club`` and ``season`` selected with it); ``series``: the
    ids of the series it also counts for besides its season
    (``seasons.selectors.series.series_of_tournaments``)."""
    return {
        "id": tournament.pk,
        "archive_id": str(tournament.archive_id),
        "name": tournament.name,
        "date": _day(tournament.date),
        "venue": tournament.venue,
        "host_club": tournament.host_club.short_name,
        "season": tournament.season_id,
        "series": list(series),
        "rule_source": tournament.rules_slug,
        "rounds": tournament.rounds,
        "finished": tournament.finished_at is not None,
        "revision": tournament.revision,
        "url": reverse("api:tournament", kwargs={"pk": tournament.pk}),
        "page": reverse("tournaments:standings", kwargs={"pk": tournament.pk}),
    }


def tournament_document(
    standings: Standings, *, hidden_top: Hiding | None = None, series: Sequence[int] = ()
) -> dict[str, Any]:
    """A tournament with its standings as the public page shows them (``hidden_top``: the
    places hidden until the prize ceremony, whose rows ``standings`` no longer holds)."""
    return {
        **tournament_summary(standings.tournament, series=series),
        # None: nothing hidden; {"places": N}: places 1 to N; {"places": null}: all of them
        "hidden": None if hidden_top is None else {"places": hidden_top.top},
        "unit": standings.unit,
        "round_numbers": list(standings.round_numbers),
        "complete": standings.finished,
        "open_tables": [
            {
                "round": table.round_number,
                "table": table.table_number,
                "deals_confirmed": table.deals_confirmed,
                "deals_expected": table.deals_expected,
            }
            for table in standings.open_tables
        ],
        "standings": [
            {
                # A fill-in has no place of its own (see StandingRow.fill_in).
                "place": None if row.fill_in else row.rank,
                "tied": row.tied,
                "number": row.number,
                "first_name": row.first_name,
                "last_name": row.last_name,
                "club": row.club,
                "category": row.category,
                "round_totals": list(row.round_totals),
                "total": row.total,
                "deals_played": row.deals_played,
                "declarer_wins": row.declarer_wins,
                "withdrawn": row.withdrawn,
                "fill_in": row.fill_in,
            }
            for row in standings.rows
        ],
    }


def season_summary(season: Season) -> dict[str, Any]:
    return {
        "id": season.pk,
        "name": season.name,
        "starts_on": _day(season.starts_on),
        "ends_on": _day(season.ends_on),
        "scoring": season.scoring,
        "url": reverse("api:season_standings", kwargs={"pk": season.pk}),
        "page": reverse("seasons:season_standings", kwargs={"pk": season.pk}),
        "statistics": reverse("api:season_statistics", kwargs={"pk": season.pk}),
    }


def season_document(
    result: SeasonStandings, *, series: Mapping[int, Sequence[int]] | None = None
) -> dict[str, Any]:
    """A season's ranking under its rule, a column per tournament (``series``: tournament id
    -> the series it also counts for)."""
    series = series or {}
    return {
        **season_summary(result.season),
        "best_of": result.season.best_of,
        "min_tournaments": result.season.min_tournaments,
        "final_min_tournaments": result.season.final_min_tournaments,
        "planned_tournaments": result.season.planned_tournaments,
        # what the final's qualification assumes: planned (null: unknown), played, over
        # without results, still to come (null: unknown)
        "plan": (
            None
            if result.plan is None
            else {
                "planned": result.plan.planned,
                "played": result.plan.played,
                "lapsed": result.plan.lapsed,
                "to_come": result.plan.to_come,
            }
        ),
        "cup_points": list(result.season.cup_points or ()),
        "tournaments": [
            tournament_summary(tournament, series=series.get(tournament.pk, ()))
            for tournament in result.tournaments
        ],
        "standings": [
            {
                "place": row.rank,
                "tied": row.tied,
                "first_name": row.first_name,
                "last_name": row.last_name,
                "club": row.club,
                "category": row.category,
                # per tournament, in the order of "tournaments"; null: did not play
                "tournament_totals": list(row.tournament_totals),
                "places": list(row.places) or None,
                "counted": list(row.counted) or None,
                "total": row.total,
                "tournaments_played": row.tournaments_played,
                # the season's final rule: null where the season has none
                "qualification": (
                    None
                    if row.qualification is None
                    else {
                        "qualified": row.qualification.qualified,
                        "missing": row.qualification.missing,
                        "reachable": row.qualification.reachable,
                    }
                ),
                # the change of place since the previous tournament: null for the unranked
                # and after the first tournament
                "movement": (
                    None
                    if row.movement is None
                    else {"kind": row.movement.kind, "by": row.movement.by}
                ),
            }
            for row in result.rows
        ],
        "teams": [
            {
                "place": team.rank,
                "tied": team.tied,
                "name": team.name,
                "tournament_totals": list(team.tournament_totals),
                "total": team.total,
                "complete": team.complete,
            }
            for team in result.teams
        ],
    }


def _season_figures(figures: SeasonFigures) -> dict[str, Any]:
    per_tournament = figures.players_per_tournament
    return {
        "tournaments": figures.tournaments,
        "tournaments_played": figures.tournaments_played,
        "distinct_players": figures.distinct_players,
        "entries": figures.entries,
        "players_per_tournament": None if per_tournament is None else round(per_tournament, 1),
        "new_players": figures.new_players,
        "deals": figures.deals,
    }


def season_statistics_document(statistics: SeasonStatistics) -> dict[str, Any]:
    """A season's figures (``seasons.selectors.statistics``), each tournament's and each host
    club's, and the earlier seasons' to compare (newest first)."""
    season = statistics.figures.season
    return {
        "id": season.pk,
        "name": season.name,
        "starts_on": _day(season.starts_on),
        "ends_on": _day(season.ends_on),
        "url": reverse("api:season_statistics", kwargs={"pk": season.pk}),
        "page": reverse("seasons:season_statistics", kwargs={"pk": season.pk}),
        **_season_figures(statistics.figures),
        "by_tournament": [
            {
                "id": item.tournament.pk,
                "name": item.tournament.name,
                "date": _day(item.tournament.date),
                "host_club": item.tournament.host_club.short_name
                if item.tournament.host_club_id
                else None,
                "players": item.players,
                "deals": item.deals,
            }
            for item in statistics.by_tournament
        ],
        "by_host": [
            {
                "club": host.short_name,
                "name": host.name,
                "tournaments": host.tournaments,
                "entries": host.entries,
                "distinct_players": host.distinct_players,
            }
            for host in statistics.by_host
        ],
        "earlier_seasons": [
            {
                "id": figures.season.pk,
                "name": figures.season.name,
                "starts_on": _day(figures.season.starts_on),
                "ends_on": _day(figures.season.ends_on),
                "url": reverse("api:season_statistics", kwargs={"pk": figures.season.pk}),
                **_season_figures(figures),
            }
            for figures in statistics.earlier
        ],
    }


def club_summary(club: Club) -> dict[str, Any]:
    return {"id": club.pk, "name": club.name, "short_name": club.short_name, "town": club.town}


def player_name(player: dict[str, Any], *, club: str) -> dict[str, Any]:
    """A player as the standings name them: the name and the club shown beside it."""
    return {
        "id": player["id"],
        "first_name": player["first_name"],
        "last_name": player["last_name"],
        "club": club,
    }


def rating_row(row: dict[str, Any], *, club: str, provisional: bool) -> dict[str, Any]:
    """A player's rating across seasons (``ratings.selectors.ratings_list``'s row): the name
    as the standings show it, the number shown, openskill's mu and sigma, the tournaments
    rated and the change in the last one; ``rank`` among the established ratings (``null``
    for a provisional one)."""
    return {
        "rank": None if provisional else row["rank"],
        "player": {
            "id": row["player_id"],
            "first_name": row["player__first_name"],
            "last_name": row["player__last_name"],
            "club": club,
        },
        "rating": row["display"],
        "mu": round(row["mu"], 4),
        "sigma": round(row["sigma"], 4),
        "tournaments": row["tournaments"],
        "provisional": provisional,
        "last_tournament": row["last_tournament_id"],
        "last_change": row["last_change"],
    }
