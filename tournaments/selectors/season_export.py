"""What the season workbook reads besides the standings: the overview and every deal.

Every deal is streamed (``QuerySet.iterator``): the deals sheet of a season of 23,000 deals
never holds them all in memory. The lookups it needs (who sat where, names, corrected deals)
are per season, a few thousand rows at most. Five queries, plus the deals in chunks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from tournaments.models import (
    SCORE_FIELDS,
    Deal,
    DealChange,
    Entry,
    Season,
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
    return [
        TournamentLine(
            pk=t.pk,
            name=t.name,
            date=t.date,
            host=t.host_club.name,
            venue=t.venue,
            rules=t.rules_slug,
            players=t.player_count,
            teams=t.team_count,
            deals=t.deal_count,
        )
        for t in Tournament.objects.filter(season=season)
        .select_related("host_club")
        # Subqueries, not joins: joining entries, teams and deals at once multiplies rows.
        .annotate(
            player_count=_count(Entry.objects.all(), "tournament"),
            team_count=_count(Team.objects.all(), "tournament"),
            deal_count=_count(Deal.objects.filter(kind=Deal.Kind.DEAL), "table__round__tournament"),
        )
        .order_by("date", "pk")
    ]


@dataclass(frozen=True)
class DealLine:
    tournament: str
    date: date
    round: int
    table: int
    number: int
    kind: str
    dealer: str
    contract: str
    declarer: str
    declarer_points: int | None
    won: bool | None
    seats: tuple[tuple[str, int | None], ...]  # (player, score) per seat position
    status: str
    table_voided: bool
    corrected: bool


def season_deals(*, season: Season, chunk_size: int = DEALS_CHUNK) -> Iterator[DealLine]:
    """Every deal of the season in playing order, with the player in each seat at that deal."""
    names = {
        e["id"]: f"{e['player__last_name']}, {e['player__first_name']}"
        for e in Entry.objects.filter(tournament__season=season).values(
            "id", "player__first_name", "player__last_name"
        )
    }
    seats = list(
        Seat.objects.filter(round__tournament__season=season).values(
            "id", "table_id", "position", "entry_id"
        )
    )
    timelines = _occupant_lookup(
        seats,
        list(
            Substitution.objects.filter(seat__round__tournament__season=season).values(
                "seat_id", "entry_id", "from_deal"
            )
        ),
    )
    seat_at = {(s["table_id"], s["position"]): s["id"] for s in seats}
    corrected = set(
        DealChange.objects.filter(
            deal__table__round__tournament__season=season,
            action=DealChange.Action.CORRECTED,
        ).values_list("deal_id", flat=True)
    )
    deals = (
        Deal.objects.filter(table__round__tournament__season=season)
        .order_by(
            "table__round__tournament__date",
            "table__round__tournament_id",
            "table__round__number",
            "table__number",
            "number",
        )
        .values(
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
            *SCORE_FIELDS,
        )
        .iterator(chunk_size=chunk_size)
    )

    for deal in deals:

        def sitter(position: int | None, deal=deal) -> str:
            seat_id = seat_at.get((deal["table_id"], position))
            if seat_id is None:
                return ""
            return names.get(_occupant(timelines[seat_id], deal["number"]), "")

        yield DealLine(
            tournament=deal["table__round__tournament__name"],
            date=deal["table__round__tournament__date"],
            round=deal["table__round__number"],
            table=deal["table__number"],
            number=deal["number"],
            kind=deal["kind"],
            dealer=sitter(deal["dealer_position"]),
            contract=deal["contract"],
            declarer=sitter(deal["declarer_position"]),
            declarer_points=deal["declarer_points"],
            won=deal["won"],
            seats=tuple(
                (sitter(position), deal[name])
                for position, name in enumerate(SCORE_FIELDS)
                if (deal["table_id"], position) in seat_at
            ),
            status=deal["status"],
            table_voided=deal["table__voided"],
            corrected=deal["id"] in corrected,
        )
