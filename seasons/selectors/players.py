"""A player's page: every tournament played, across seasons, and statistics by contract.

Seven queries, whatever the number of tournaments: the player's entries, the tournaments
of their seasons, those tournaments' entries, seats, substitutions and counting deals, and
the rule sources are read from the tournaments' snapshots.

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
from scoring import rule_source_from_dict
from seasons import ranking as season_ranking
from seasons.models import Season
from seasons.selectors.standings import season_rule
from tournaments import ranking
from tournaments.models import SCORE_FIELDS, Deal, Entry, Seat, Substitution, Tournament
from tournaments.seating import sitting_out_position
from tournaments.selectors.standings import _occupant, _occupant_lookup, _tally, add_paper_totals


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
    entries = list(
        Entry.objects.filter(tournament_id__in=tournaments).values(
            "id", "tournament_id", "player_id", "paper_total"
        )
    )
    seats = list(
        Seat.objects.filter(round__tournament_id__in=tournaments).values(
            "id", "table_id", "position", "entry_id", "round__tournament_id", "table__voided"
        )
    )
    substitutions = list(
        Substitution.objects.filter(seat__round__tournament_id__in=tournaments).values(
            "seat_id", "entry_id", "from_deal"
        )
    )
    voided = {s["table_id"] for s in seats if s["table__voided"]}
    deals = [
        d
        for d in Deal.objects.filter(
            table__round__tournament_id__in=tournaments, status=Deal.Status.CONFIRMED
        ).values(
            "table_id",
            "number",
            "kind",
            "contract",
            "declarer_position",
            "details",
            *SCORE_FIELDS,
        )
        if d["table_id"] not in voided
    ]
    tallies = _tally(
        seats=seats, substitutions=substitutions, deals=deals, bucket="round__tournament_id"
    )
    # Tournaments imported from a paper list count with their one total per player.
    add_paper_totals(tallies, entries, bucket=lambda entry: entry["tournament_id"])
    own_ids = {e["id"] for e in own}
    _contract_stats(page, seats, substitutions, deals, own_ids, tournaments)

    # Totals per tournament and player, then places and season ranks.
    totals: dict[int, dict[int, int]] = defaultdict(dict)  # tournament -> player -> total
    for entry in entries:
        tally = tallies.get(entry["id"])
        if tally is not None and tally.round_totals:
            totals[entry["tournament_id"]][entry["player_id"]] = tally.total
    places = {t: ranking.places(by_player) for t, by_player in totals.items()}
    season_ranks: dict[int, int | None] = {}
    seasons: dict[int, Season] = {}
    for tournament in tournaments.values():
        if tournament.season_id:
            seasons[tournament.season_id] = tournament.season
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


def _contract_stats(page, seats, substitutions, deals, own_ids, tournaments) -> None:
    """Games declared and won, and the average score as declarer and as defender, per
    contract: only deals the player sat in (not sitting out) count."""
    timelines = _occupant_lookup(seats, substitutions)
    seat_at = {(s["table_id"], s["position"]): s for s in seats}
    own_tables = {s["table_id"] for s in seats if s["entry_id"] in own_ids}
    own_tables |= {
        s["table_id"]
        for s in seats
        if any(entry_id in own_ids for _from, entry_id in timelines[s["id"]])
    }
    table_size: dict[int, int] = defaultdict(int)
    for seat in seats:
        table_size[seat["table_id"]] += 1
    rules_of: dict[int, object] = {}
    stats: dict[str, ContractStats] = {}
    for deal in deals:
        if deal["kind"] != Deal.Kind.DEAL or deal["table_id"] not in own_tables:
            continue
        for position in range(table_size[deal["table_id"]]):
            seat = seat_at[(deal["table_id"], position)]
            if _occupant(timelines[seat["id"]], deal["number"]) not in own_ids:
                continue
            tournament_id = seat["round__tournament_id"]
            if tournament_id not in rules_of:
                rules_of[tournament_id] = rule_source_from_dict(
                    tournaments[tournament_id].rules_snapshot
                )
            rules = rules_of[tournament_id]
            out = sitting_out_position(
                rules=rules, table_size=table_size[deal["table_id"]], deal_number=deal["number"]
            )
            if out == position:
                continue
            contract = deal["contract"]
            item = stats.get(contract)
            if item is None:
                spec = rules.contracts.get(contract)
                item = stats[contract] = ContractStats(
                    contract=contract,
                    special=spec is not None and spec.kind == "fixed",
                    label=_name(spec.names) if spec is not None else contract,
                )
            score = deal[SCORE_FIELDS[position]] or 0
            if position == deal["declarer_position"]:
                item.declared += 1
                item.won += score > 0
                item.declarer_points += score
            else:
                item.defended += 1
                item.defender_points += score
            penalty = (deal["details"] or {}).get("penalty")
            if isinstance(penalty, dict) and penalty.get("seat") == position:
                page.penalties += 1
    page.contracts = sorted(stats.values(), key=lambda s: (-s.declared, s.contract))
