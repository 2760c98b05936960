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

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import get_language

from clubs.models import Player
from scoring import RuleSource, rule_source_from_dict
from seasons import ranking as season_ranking
from seasons.models import Season, TournamentResult
from seasons.selectors.results import (
    DECLARED,
    DECLARER_POINTS,
    DEFENDED,
    DEFENDER_POINTS,
    WON,
    fresh_results,
)
from seasons.selectors.standings import season_rule
from tournaments.models import Entry, Tournament


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
    tournaments = {
        t.pk: t
        for t in Tournament.objects.filter(Q(pk__in=played_ids) | Q(season_id__in=season_ids))
        .select_related("season", "host_club")
        .order_by("date", "pk")
    }
    # Each tournament's results as stored at its revision (worked out again where it moved).
    fresh_results(tournaments=tournaments.values())
    totals: dict[int, dict[int, int]] = defaultdict(dict)  # tournament -> player -> total
    places: dict[int, dict[int, int]] = defaultdict(dict)  # tournament -> player -> place
    for tournament_id, player_id, total, place in TournamentResult.objects.filter(
        tournament_id__in=tournaments, total__isnull=False
    ).values_list("tournament_id", "entry__player_id", "total", "place"):
        totals[tournament_id][player_id] = total  # type: ignore[assignment]  # total__isnull=False
        places[tournament_id][player_id] = place  # type: ignore[assignment]  # set with the total
    own_results = list(
        TournamentResult.objects.filter(entry__player=player, tournament_id__in=played_ids)
        .order_by("tournament__date", "tournament_id")
        .values_list("tournament_id", "contracts", "penalties")
    )
    _contract_stats(page, own_results, tournaments)

    season_ranks: dict[int | None, int | None] = {}
    seasons: dict[int, Season] = {}
    for tournament in tournaments.values():
        if tournament.season is not None:  # selected with it: no query
            seasons[tournament.season.pk] = tournament.season
    for season_id, season in seasons.items():
        in_season = [t for t in tournaments.values() if t.season_id == season_id]
        per_player: dict[int, dict[int, int]] = defaultdict(dict)
        for tournament in in_season:
            for player_id, total in totals.get(tournament.pk, {}).items():
                per_player[player_id][tournament.pk] = total
        rule = season_rule(season)
        scores = {
            pid: season_ranking.season_score(res, rule, {t: places[t][pid] for t in res})
            for pid, res in per_player.items()
        }
        ranked = {r.key: r.rank for r in season_ranking.rank_season(scores)}
        season_ranks[season_id] = ranked.get(player.pk)
        running = 0
        steps = []
        for tournament in in_season:
            total = totals.get(tournament.pk, {}).get(player.pk)
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
                rank=places.get(tournament.pk, {}).get(player.pk),
                players=len(totals.get(tournament.pk, {})),
                total=totals.get(tournament.pk, {}).get(player.pk),
                season_rank=season_ranks.get(tournament.season_id),
            )
        )
    return page


def _name(names) -> str:
    return names.en if (get_language() or "de").startswith("en") else names.de


def _contract_stats(page, own_results, tournaments) -> None:
    """Games declared and won, and the average score as declarer and as defender, per
    contract, added up from the player's stored results (``seasons.selectors.results``)."""
    rules_of: dict[int, RuleSource] = {}
    stats: dict[str, ContractStats] = {}
    for tournament_id, contracts, penalties in own_results:
        page.penalties += penalties
        for contract, counts in contracts.items():
            item = stats.get(contract)
            if item is None:
                if tournament_id not in rules_of:
                    rules_of[tournament_id] = rule_source_from_dict(
                        tournaments[tournament_id].rules_snapshot
                    )
                spec = rules_of[tournament_id].contracts.get(contract)
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
