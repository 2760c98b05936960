"""Migrating to series (issue 41) keeps every season exactly as it was: seasons of every rule
(sum, best N, cup points, a minimum, a final) are played at the schema before the migration,
their standings worked out after it equal each season's ranking built directly from its own
tournaments' standings, and stay equal once their tournaments also count for new series."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from seasons import ranking as season_ranking
from seasons.models import Season, SeriesMembership
from seasons.selectors.standings import season_rule, season_standings
from seasons.services_series import set_series
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory
from tests.seasons.conftest import play, tournament_in
from tournaments import ranking
from tournaments.models import Tournament
from tournaments.selectors.standings import tournament_standings

BEFORE = ("seasons", "0006_appeals")
AFTER = ("seasons", "0007_series_memberships")


def _migrate(target):
    """Seasons at ``target``, every other app at its newest (None: everything newest)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] != "seasons"]
    targets = [*others, target] if target else executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()


def _tables() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


def _seasons_played():
    """Three seasons, each of another rule, the same eight players in different tables."""
    players = [PlayerFactory(last_name=f"Nach{n}", first_name="Vor") for n in range(8)]
    rules = [
        dict(name="Summe", scoring=Season.Scoring.SUM),
        dict(name="Beste zwei", scoring=Season.Scoring.BEST_N, best_of=2, min_tournaments=2),
        dict(name="Cup", scoring=Season.Scoring.CUP, cup_points=[25, 20, 16, 13, 11]),
    ]
    seasons = []
    for index, fields in enumerate(rules):
        season = SeasonFactory(**fields, final_min_tournaments=2)
        for number, day in enumerate((7, 14, 21)):
            tournament = tournament_in(season, f"{season.name} {day}", day)
            first = (index + number) % 4
            for table in (1, 2):
                who = players[(table - 1) * 4 : table * 4]
                who = who[first:] + who[:first]
                play(
                    tournament,
                    [EntryFactory(tournament=tournament, player=p) for p in who],
                    [(first % 4, 45), ((first + 1) % 4, 34), ((first + table) % 4, 45)],
                    table_number=table,
                )
        seasons.append(season)
    return seasons


def _direct_ranking(season: Season) -> list[tuple[int, int | None, int]]:
    """The season's ranking built from each of its own tournaments' standings (the
    tournament's page), without the season selectors: (player, rank, total)."""
    rule = season_rule(season=season)
    per_player: dict[int, dict[int, int]] = {}
    for tournament in Tournament.objects.filter(season=season):
        for row in tournament_standings(tournament=tournament).rows:
            if row.total is not None:
                per_player.setdefault(row.player_id, {})[tournament.pk] = row.total
    places: dict[int, dict[int, int]] = {}
    tournament_ids = {t for totals in per_player.values() for t in totals}
    for tournament_id in tournament_ids:
        totals = {p: t[tournament_id] for p, t in per_player.items() if tournament_id in t}
        for player_id, place in ranking.places(totals).items():
            places.setdefault(player_id, {})[tournament_id] = place
    scores = {
        p: season_ranking.season_score(totals, rule, places[p]) for p, totals in per_player.items()
    }
    return [
        (int(r.key), r.rank, r.score)  # type: ignore[arg-type]
        for r in season_ranking.rank_season(scores)
    ]


def _standings(season: Season) -> list[tuple[int, int | None, int, tuple]]:
    result = season_standings(season=Season.objects.get(pk=season.pk))
    return [(r.player_id, r.rank, r.total, r.tournament_totals) for r in result.rows]


@pytest.mark.django_db(transaction=True)
def test_every_season_stays_as_it_was():
    _migrate(BEFORE)
    try:
        assert "seasons_seriesmembership" not in _tables()
        seasons = _seasons_played()  # played at the schema before the migration
        _migrate(AFTER)
        assert "seasons_seriesmembership" in _tables()
        assert not SeriesMembership.objects.exists()  # the migration adds no membership

        before = {}
        for season in seasons:
            rows = _standings(season)
            assert len(rows) == 8
            # the rule's own arithmetic on the tournaments' pages: the season as it was
            direct = _direct_ranking(season)
            assert [(p, rank, total) for p, rank, total, _t in rows] == [
                (p, rank, total) for p, rank, total in direct
            ], season.name
            before[season.pk] = rows
        # the rules differ, so the rankings are not all one and the same
        assert len({tuple(r[:3] for r in rows) for rows in before.values()}) == 3

        # every tournament also counts for two new series of other rules
        series = [
            SeasonFactory(name="Dorfserie", scoring=Season.Scoring.CUP, cup_points=[3, 2, 1]),
            SeasonFactory(name="Rangliste", scoring=Season.Scoring.BEST_N, best_of=1),
        ]
        for tournament in Tournament.objects.all():
            set_series(tournament=tournament, seasons=series, user=None, check_permissions=False)
        for season in seasons:
            assert _standings(season) == before[season.pk], season.name
        assert len(season_standings(season=series[0]).tournaments) == 9
        assert all(
            len(row.tournament_totals) == 9 for row in season_standings(season=series[1]).rows
        )

        # seasons' 0008 marks the tournaments already in a series as having chosen them (a
        # database of release 0.3.0 has none marked), so removing the last one travels
        SeriesMembership.objects.filter(tournament__name="Summe 7").delete()
        Tournament.objects.update(series_chosen=False)
        _migrate(None)
        marked = set(Tournament.objects.filter(series_chosen=True).values_list("name", flat=True))
        assert len(marked) == 8 and "Summe 7" not in marked
    finally:
        _migrate(None)
