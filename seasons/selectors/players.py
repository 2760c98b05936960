"""A player's page: every tournament played, across seasons, and statistics by contract.

A constant number of queries, whatever the number of tournaments and deals: the player's
entries, the tournaments of their seasons, whether their stored results
(``seasons.selectors.results``) are at the tournaments' revisions, every player's total and
place in them, and the player's own contract counts; only a tournament whose revision moved
since is worked out again from its deals. Contract names come from the tournaments' rule
snapshots.

The rank shown per tournament is the place by total among everyone who played (equal totals
share the place); the tournament's own page also applies its tie-break and lot draws. The
season rank follows the season's rule (``tournaments.ranking``).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q
from django.utils.translation import get_language

from clubs.models import Player
from scoring import RuleSource, rule_source_from_dict
from seasons import ranking as season_ranking
from seasons.models import Season, SeriesMembership, TournamentResult
from seasons.selectors.results import (
    DECLARED,
    DECLARER_POINTS,
    DEFENDED,
    DEFENDER_POINTS,
    RESULTS_METHOD,
    WON,
    fresh_results,
)
from seasons.selectors.standings import season_rule
from tournaments.caching import season_stamp
from tournaments.models import Entry, Tournament

RANKS_CACHE_SECONDS = 24 * 3600  # keyed by what they are built from: never stale, only evicted


@dataclass(frozen=True)
class PlayedTournament:
    tournament: Tournament
    rank: int | None
    players: int
    total: int | None  # None: registered, no result
    season_rank: int | None  # the player's season rank after the whole season so far


@dataclass
class ContractStats:
    contract: str
    declared: int = 0
    won: int = 0
    declarer_points: int = 0  # sum of scores as declarer
    defended: int = 0
    defender_points: int = 0
    special: bool = False
    label: str = ""  # the contract's name in the rule source, in the page's language

    @property
    def declarer_average(self) -> float | None:
        return self.declarer_points / self.declared if self.declared else None

    @property
    def defender_average(self) -> float | None:
        return self.defender_points / self.defended if self.defended else None

    @property
    def won_share(self) -> float | None:
        return self.won / self.declared if self.declared else None


@dataclass(frozen=True)
class SeasonProgress:
    season: Season
    steps: tuple[tuple[Tournament, int | None, int], ...]  # (tournament, its total, running sum)
    rank: int | None


@dataclass
class PlayerPage:
    player: Player
    tournaments: list[PlayedTournament] = field(default_factory=list)
    contracts: list[ContractStats] = field(default_factory=list)
    seasons: list[SeasonProgress] = field(default_factory=list)
    penalties: int = 0

    @property
    def specials(self) -> ContractStats:
        """All special games (fixed-amount contracts such as Ultimo, Piccolo, Bettel) together."""
        total = ContractStats(contract="specials", special=True)
        for stats in self.contracts:
            if stats.special:
                total.declared += stats.declared
                total.won += stats.won
                total.declarer_points += stats.declarer_points
                total.defended += stats.defended
                total.defender_points += stats.defender_points
        return total


def player_page(*, player: Player) -> PlayerPage:
    own = list(
        Entry.objects.filter(player=player).values("id", "tournament_id", "tournament__season_id")
    )
    page = PlayerPage(player=player)
    if not own:
        return page
    played_ids = {e["tournament_id"] for e in own}
    season_ids = {e["tournament__season_id"] for e in own if e["tournament__season_id"]}
    # The series the player's tournaments also count for, and every tournament that also
    # counts for one of those seasons (issue 41): one query.
    series_of_played = SeriesMembership.objects.filter(tournament_id__in=played_ids).values(
        "season_id"
    )
    also = list(
        SeriesMembership.objects.filter(
            Q(season_id__in=season_ids) | Q(season_id__in=series_of_played)
        ).values_list("tournament_id", "season_id")
    )
    season_ids |= {season_id for _t, season_id in also}
    tournaments = {
        t.pk: t
        for t in Tournament.objects.filter(
            Q(pk__in=played_ids)
            | Q(season_id__in=season_ids)
            | Q(pk__in={tournament_id for tournament_id, _s in also})
        )
        .select_related("season", "host_club")
        .defer("rules_snapshot")  # read only where a contract needs its name (below)
        .order_by("date", "pk")
    }
    # Each tournament's results as stored at its revision (worked out again where it moved).
    fresh_results(tournaments=tournaments.values())
    # The player's own results, and how many had a result in each of their tournaments:
    # everybody else's rows are read only to rank a season, and that ranking is cached.
    own_results = list(
        TournamentResult.objects.filter(entry__player=player, tournament_id__in=played_ids)
        .order_by("tournament__date", "tournament_id")
        .values_list("tournament_id", "total", "place", "contracts", "penalties")
    )
    totals = {tid: total for tid, total, _place, _c, _p in own_results if total is not None}
    places = {tid: place for tid, total, place, _c, _p in own_results if total is not None}
    _contract_stats(page, [(tid, c, p) for tid, _t, _pl, c, p in own_results])

    seasons: dict[int, Season] = {}
    for tournament in tournaments.values():
        if tournament.season is not None:  # selected with it: no query
            seasons[tournament.season.pk] = tournament.season
    missing = season_ids - set(seasons)  # a series without tournaments of its own
    if missing:
        seasons.update({s.pk: s for s in Season.objects.filter(pk__in=missing)})
    # season -> its tournaments in date order, home and also-counting
    of_season: dict[int, list[Tournament]] = defaultdict(list)
    counts_for: dict[int, set[int]] = defaultdict(set)
    for tournament_id, season_id in also:
        counts_for[tournament_id].add(season_id)
    for tournament in tournaments.values():
        for season_id in {tournament.season_id, *counts_for.get(tournament.pk, ())}:
            if season_id in seasons:
                of_season[season_id].append(tournament)
    season_ranks: dict[int | None, int | None] = {}
    players_in: dict[int, int] = {}  # tournament -> how many had a result
    for season_id, ranking in _season_rankings(seasons, of_season).items():
        season_ranks[season_id] = ranking.ranks.get(player.pk)
        players_in.update(ranking.players)
    outside = [pk for pk in played_ids if tournaments[pk].season_id is None]
    if outside:  # tournaments of no season: counted here
        players_in.update(
            TournamentResult.objects.filter(tournament_id__in=outside, total__isnull=False)
            .order_by()
            .values("tournament_id")
            .annotate(n=Count("pk"))
            .values_list("tournament_id", "n")
        )
    for season_id, season in seasons.items():
        running = 0
        steps = []
        for tournament in of_season[season_id]:
            total = totals.get(tournament.pk)
            running += total or 0
            steps.append((tournament, total, running))
        page.seasons.append(
            SeasonProgress(season=season, steps=tuple(steps), rank=season_ranks[season_id])
        )
    page.seasons.sort(key=lambda s: s.season.starts_on, reverse=True)
    for tournament in sorted(
        (tournaments[t] for t in played_ids), key=lambda t: (t.date, t.pk), reverse=True
    ):
        page.tournaments.append(
            PlayedTournament(
                tournament=tournament,
                rank=places.get(tournament.pk),
                players=players_in.get(tournament.pk, 0),
                total=totals.get(tournament.pk),
                season_rank=season_ranks.get(tournament.season_id),
            )
        )
    return page


@dataclass(frozen=True)
class SeasonRanking:
    ranks: dict[Any, int | None]  # player -> season rank (None: not ranked yet)
    players: dict[int, int]  # tournament -> how many had a result


def _season_rankings(
    seasons: dict[int, Season], of_season: dict[int, list[Tournament]]
) -> dict[int, SeasonRanking]:
    """Each of ``seasons`` ranked under its rule, cached by the season's stamp
    (``tournaments.caching.season_stamp``, as the season page's cache) and the results' method: a
    regular's page reads five rankings from the cache instead of working out five seasons of
    everybody's results (one query for those not cached)."""
    found: dict[int, SeasonRanking] = {}
    missing: dict[int, tuple] = {}
    for season_id, season in seasons.items():
        # the season page's stamp, from the tournaments read above (no query)
        stamp = season_stamp(
            season,
            revisions=tuple(sorted((t.pk, t.revision) for t in of_season.get(season_id, ()))),
        )
        ranking = cache.get(_ranking_key(stamp))
        if ranking is None:
            missing[season_id] = stamp
        else:
            found[season_id] = ranking
    if not missing:
        return found
    seasons_of: dict[int, list[int]] = defaultdict(list)  # tournament -> seasons to rank
    for season_id in missing:
        for tournament in of_season.get(season_id, ()):
            seasons_of[tournament.pk].append(season_id)
    per_player: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    places: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    players: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for tournament_id, player_id, total, place in TournamentResult.objects.filter(
        tournament_id__in=seasons_of, total__isnull=False
    ).values_list("tournament_id", "entry__player_id", "total", "place"):
        for season_id in seasons_of[tournament_id]:
            per_player[season_id][player_id][tournament_id] = total  # type: ignore[assignment]
            places[season_id][player_id][tournament_id] = place  # type: ignore[assignment]
            players[season_id][tournament_id] += 1
    for season_id, stamp in missing.items():
        rule = season_rule(season=seasons[season_id])
        scores = {
            pid: season_ranking.season_score(res, rule, places[season_id][pid])
            for pid, res in per_player[season_id].items()
        }
        ranking = SeasonRanking(
            ranks={r.key: r.rank for r in season_ranking.rank_season(scores)},
            players=dict(players[season_id]),
        )
        cache.set(_ranking_key(stamp), ranking, RANKS_CACHE_SECONDS)
        found[season_id] = ranking
    return found


def _ranking_key(stamp: tuple) -> str:
    raw = f"{RESULTS_METHOD}|{stamp}"
    return "season-ranking:" + hashlib.sha1(raw.encode()).hexdigest()


def _name(names) -> str:
    return names.en if (get_language() or "de").startswith("en") else names.de


def _contract_stats(page, own_results) -> None:
    """Games declared and won, and the average score as declarer and as defender, per
    contract, added up from the player's stored results (``seasons.selectors.results``).
    A contract is named from the rule snapshot of the first tournament it was played in: only
    those snapshots are read (one query)."""
    first_in: dict[str, int] = {}
    for tournament_id, contracts, _penalties in own_results:
        for contract in contracts:
            first_in.setdefault(contract, tournament_id)
    rules_of: dict[int, RuleSource] = (
        {
            pk: rule_source_from_dict(snapshot)
            for pk, snapshot in Tournament.objects.filter(
                pk__in=set(first_in.values())
            ).values_list("pk", "rules_snapshot")
        }
        if first_in
        else {}
    )
    stats: dict[str, ContractStats] = {}
    for _tournament_id, contracts, penalties in own_results:
        page.penalties += penalties
        for contract, counts in contracts.items():
            item = stats.get(contract)
            if item is None:
                spec = rules_of[first_in[contract]].contracts.get(contract)
                item = stats[contract] = ContractStats(
                    contract=contract,
                    special=spec is not None and spec.kind == "fixed",
                    label=_name(spec.names) if spec is not None else contract,
                )
            item.declared += counts[DECLARED]
            item.won += counts[WON]
            item.declarer_points += counts[DECLARER_POINTS]
            item.defended += counts[DEFENDED]
            item.defender_points += counts[DEFENDER_POINTS]
    page.contracts = sorted(stats.values(), key=lambda s: (-s.declared, s.contract))
