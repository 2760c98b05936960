"""What the season workbook reads besides the standings: the overview and every deal.
Rule sources and contracts by their names (``tournaments.contract_names``), never by slug.

Every deal is streamed (``QuerySet.iterator``): the deals sheet of a season of 23,000 deals
never holds them all in memory. The lookups it needs (who sat where, names, corrected deals)
are per season, a few thousand rows at most. Five queries, plus the deals in chunks.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from scoring import rule_source_from_dict
from seasons.models import Season
from seasons.selectors.series import counted_tournament_ids
from tournaments.contract_names import contract_name, rule_source_name
from tournaments.deal_words import deal_title, penalty_of
from tournaments.models import (
    MAX_SEATS,
    SCORE_FIELDS,
    Deal,
    DealChange,
    Entry,
    Seat,
    Substitution,
    Team,
    Tournament,
)
from tournaments.selectors.standings import _occupant, _occupant_lookup

DEALS_CHUNK = 2000


@dataclass(frozen=True)
class TournamentLine:
    pk: int
    name: str
    date: date
    host: str
    venue: str
    rules: str
    players: int
    teams: int
    deals: int


def _count(queryset, tournament_field: str) -> Coalesce:
    """How many rows of ``queryset`` belong to the outer tournament (0 when none)."""
    counted = (
        queryset.filter(**{tournament_field: OuterRef("pk")})
        .order_by()
        .values(tournament_field)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def season_tournaments(*, season: Season) -> list[TournamentLine]:
    """The season's tournaments with host, player, team and deal counts: one query."""
    names: dict[str, str] = {}
    return [
        TournamentLine(
            pk=t.pk,
            name=t.name,
            date=t.date,
            host=t.host_club.name,
            venue=t.venue,
            rules=_rule_source_name(t, names),
            players=t.player_count,
            teams=t.team_count,
            deals=t.deal_count,
        )
        for t in Tournament.objects.filter(pk__in=counted_tournament_ids(season_ids=[season.pk]))
        .select_related("host_club")
        # Subqueries, not joins: joining entries, teams and deals at once multiplies rows.
        .annotate(
            player_count=_count(Entry.objects.all(), "tournament"),
            team_count=_count(Team.objects.all(), "tournament"),
            deal_count=_count(Deal.objects.filter(kind=Deal.Kind.DEAL), "table__round__tournament"),
        )
        .order_by("date", "pk")
    ]


def _rule_source_name(tournament: Tournament, names: dict[str, str]) -> str:
    """The rule source's name as the pages show it, never its slug (one per slug)."""
    name = names.get(tournament.rules_slug)
    if name is None:
        name = names[tournament.rules_slug] = rule_source_name(
            rule_source_from_dict(tournament.rules_snapshot)
        )
    return name


class DealLine(NamedTuple):
    """One deal as the deals sheet shows it (a named tuple: 23,000 of them are made)."""

    tournament: str
    date: date
    round: int
    table: int
    number: int
    kind: str
    dealer: str
    contract: str  # its name in the tournament's rule source (Geiß, Halbe, …), or the penalty
    declarer: str
    declarer_points: int | None
    won: bool | None
    seats: tuple[tuple[str, int | None], ...]  # (player, score) per seat position
    status: str
    table_voided: bool
    corrected: bool


def season_deals(*, season: Season, chunk_size: int = DEALS_CHUNK) -> Iterator[DealLine]:
    """Every deal of the season in playing order, with the player in each seat at that deal."""
    counted = counted_tournament_ids(season_ids=[season.pk])  # home and also-counting
    names = {
        e["id"]: f"{e['player__last_name']}, {e['player__first_name']}"
        for e in Entry.objects.filter(tournament_id__in=counted).values(
            "id", "player__first_name", "player__last_name"
        )
    }
    seats = list(
        Seat.objects.filter(round__tournament_id__in=counted).values(
            "id", "table_id", "position", "entry_id"
        )
    )
    timelines = _occupant_lookup(
        seats,
        list(
            Substitution.objects.filter(seat__round__tournament_id__in=counted).values(
                "seat_id", "entry_id", "from_deal"
            )
        ),
    )
    seat_at = {(s["table_id"], s["position"]): s["id"] for s in seats}
    # The deals where a table's players change (substitutions): between two of them every
    # deal of the table has the same names, worked out once.
    changes: dict[int, list[int]] = defaultdict(list)
    for (table_id, _position), seat_id in seat_at.items():
        changes[table_id] += [from_deal for from_deal, _entry in timelines[seat_id][1:]]
    for numbers in changes.values():
        numbers.sort()
    sitters: dict[tuple[int, int], tuple[str | None, ...]] = {}

    def sitters_at(table_id: int, number: int) -> tuple[str | None, ...]:
        """The player per seat position at this deal ("" unknown, None no seat)."""
        key = (table_id, bisect_right(changes.get(table_id, ()), number))
        found = sitters.get(key)
        if found is None:
            found = tuple(
                None
                if (seat_id := seat_at.get((table_id, position))) is None
                else names.get(_occupant(timelines[seat_id], number), "")
                for position in range(MAX_SEATS)
            )
            sitters[key] = found
        return found

    rules = {
        t.pk: rule_source_from_dict(t.rules_snapshot)
        for t in Tournament.objects.filter(pk__in=counted).only("pk", "rules_snapshot")
    }
    contract_names: dict[tuple[int, str], str] = {}

    def contract_of(tournament_id: int, slug: str) -> str:
        name = contract_names.get((tournament_id, slug))
        if name is None:
            name = contract_names[tournament_id, slug] = contract_name(rules[tournament_id], slug)
        return name

    corrected = set(
        DealChange.objects.filter(
            deal__table__round__tournament_id__in=counted,
            action=DealChange.Action.CORRECTED,
        ).values_list("deal_id", flat=True)
    )
    deals = (
        Deal.objects.filter(table__round__tournament_id__in=counted)
        .order_by(
            "table__round__tournament__date",
            "table__round__tournament_id",
            "table__round__number",
            "table__number",
            "number",
        )
        .values_list(
            "id",
            "table_id",
            "number",
            "kind",
            "status",
            "dealer_position",
            "contract",
            "declarer_position",
            "declarer_points",
            "won",
            "table__voided",
            "table__number",
            "table__round__number",
            "table__round__tournament__name",
            "table__round__tournament__date",
            "table__round__tournament_id",
            "details__penalty",
            *SCORE_FIELDS,
        )
        .iterator(chunk_size=chunk_size)
    )
    for (
        deal_id,
        table_id,
        number,
        kind,
        status,
        dealer,
        contract,
        declarer,
        declarer_points,
        won,
        voided,
        table_number,
        round_number,
        tournament,
        day,
        tournament_id,
        penalty,
        *scores,
    ) in deals:
        at_table = sitters_at(table_id, number)
        penalty = penalty_of({"penalty": penalty}) if kind == Deal.Kind.DEAL else None
        yield DealLine(
            tournament=tournament,
            date=day,
            round=round_number,
            table=table_number,
            number=number,
            kind=kind,
            dealer=_name_at(at_table, dealer),
            contract=(
                deal_title(  # a penalty in words, with the offender and the points
                    rules=rules[tournament_id],
                    contract=contract,
                    penalty=penalty,
                    names=[name or "" for name in at_table],
                    scores=scores,
                )
                if penalty
                else contract_of(tournament_id, contract)
                if contract
                else ""
            ),
            declarer=_name_at(at_table, declarer),
            declarer_points=declarer_points,
            won=won,
            seats=tuple(
                (name, score)
                for name, score in zip(at_table, scores, strict=True)
                if name is not None
            ),
            status=status,
            table_voided=voided,
            corrected=deal_id in corrected,
        )


def _name_at(sitters: tuple[str | None, ...], position: int | None) -> str:
    if position is None or not 0 <= position < len(sitters):
        return ""
    return sitters[position] or ""
