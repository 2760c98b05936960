"""Reads of the rating across seasons: what the service rates (each finished tournament's
tables as matches) and what the pages and the API show (the stored ratings; nothing is worked
out by a reader). A constant number of queries each, whatever the number of tournaments."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet, Window
from django.db.models.functions import Rank

from ratings.models import PlayerRating, RatedTournament, RatingChange
from ratings.rating import PROVISIONAL_BELOW, Match, is_provisional, table_matches
from tournaments.models import Deal, Entry, Seat, Substitution, Table, Tournament
from tournaments.selectors.standings import grouped_deals, home_clubs, tallies_from_groups

# A tournament's place in the order of rating: its date, then its id.
Key = tuple[dt.date, int]


@dataclass(frozen=True)
class Finished:
    tournament_id: int
    date: dt.date
    revision: int

    @property
    def key(self) -> Key:
        return (self.date, self.tournament_id)


def finished_tournaments() -> list[Finished]:
    """Every finished tournament, in the order of rating (date, then id): one query. A
    tournament whose places are hidden until the prize ceremony (``ceremony``) counts from
    the ceremony on: its rating changes would tell who is ahead."""
    return [
        Finished(tournament_id=pk, date=date, revision=revision)
        for pk, date, revision in Tournament.objects.filter(finished_at__isnull=False)
        .exclude(ceremony__hide_from_round__isnull=False, ceremony__revealed_at__isnull=True)
        .order_by("date", "pk")
        .values_list("pk", "date", "revision")
    ]


def rated_tournaments() -> dict[int, RatedTournament]:
    """What the ratings include now, by tournament id: one query."""
    return {rated.tournament_id: rated for rated in RatedTournament.objects.all()}


def tournament_matches(*, tournament_ids: Sequence[int]) -> dict[int, list[Match]]:
    """Each tournament's matches (``ratings.rating.table_matches``: a table in a round, its
    players ranked by their points there), from the confirmed deals at tables not voided, the
    substitutes counted from the deal they came in. Four queries for any number of
    tournaments; a tournament without tables (paper totals only) has no match."""
    if not tournament_ids:
        return {}
    seats = list(
        Seat.objects.filter(round__tournament_id__in=tournament_ids, table__voided=False).values(
            "id", "table_id", "position", "entry_id"
        )
    )
    tables = {
        table["id"]: table
        for table in Table.objects.filter(
            round__tournament_id__in=tournament_ids, voided=False
        ).values("id", "number", "round__number", "round__tournament_id")
    }
    substitutions = list(
        Substitution.objects.filter(
            seat__round__tournament_id__in=tournament_ids, seat__table__voided=False
        ).values("seat_id", "entry_id", "from_deal")
    )
    substituted = {sub["seat_id"] for sub in substitutions}
    groups = grouped_deals(
        Deal.objects.filter(
            table__round__tournament_id__in=tournament_ids,
            table__voided=False,
            status=Deal.Status.CONFIRMED,
        ),
        substituted_tables=[s["table_id"] for s in seats if s["id"] in substituted],
    )
    tallies = tallies_from_groups(
        groups, seats=seats, substitutions=substitutions, bucket="table_id"
    )
    player_of = dict(
        Entry.objects.filter(tournament_id__in=tournament_ids).values_list("id", "player_id")
    )
    rows: dict[int, list[tuple[int, int, int, int]]] = {pk: [] for pk in tournament_ids}
    for entry_id, tally in tallies.items():
        for table_id, points in tally.round_totals.items():
            table = tables.get(table_id)
            if table is None:
                continue
            rows[table["round__tournament_id"]].append(
                (table["round__number"], table["number"], player_of[entry_id], points)
            )
    return {pk: table_matches(found) for pk, found in rows.items()}


def matches_digest(*, matches: Iterable[Match]) -> str:
    """What a tournament's rating depends on, in 16 hex digits: a new revision that changes
    none of it (a name corrected, a club renamed) is not rated again."""
    text = repr([(m.round_number, m.table_number, m.points) for m in matches])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def changes_before(*, key: Key | None, player_ids: Iterable[int]) -> list[RatingChange]:
    """The stored rating changes of ``player_ids`` in tournaments rated before ``key`` (all of
    them for ``None``), in the order of rating: one query."""
    queryset = RatingChange.objects.filter(player_id__in=list(player_ids)).order_by(
        "date", "tournament_id"
    )
    if key is None:
        return list(queryset)
    date, pk = key
    return list(queryset.filter(date__lt=date) | queryset.filter(date=date, tournament_id__lt=pk))


def players_changed_from(*, key: Key) -> set[int]:
    """The players with a stored change in a tournament rated at ``key`` or later: one query."""
    date, pk = key
    later = RatingChange.objects.filter(date__gt=date) | RatingChange.objects.filter(
        date=date, tournament_id__gte=pk
    )
    return set(later.values_list("player_id", flat=True).distinct())


# --- what the pages and the API show ------------------------------------------------------


@dataclass(frozen=True)
class HistoryItem:
    tournament_id: int
    tournament_name: str
    date: dt.date
    before: int
    after: int
    matches: int

    @property
    def change(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class PlayerRatingView:
    display: int
    mu: float
    sigma: float
    tournaments: int
    history: tuple[HistoryItem, ...]  # newest first

    @property
    def provisional(self) -> bool:
        return is_provisional(self.tournaments)

    @property
    def last(self) -> HistoryItem | None:
        return self.history[0] if self.history else None


def player_rating(*, player_id: int) -> PlayerRatingView | None:
    """A player's rating with each tournament's before and after, newest first (two queries);
    ``None`` before their first rated tournament."""
    rating = PlayerRating.objects.filter(player_id=player_id).first()
    if rating is None:
        return None
    history = tuple(
        HistoryItem(
            tournament_id=row["tournament_id"],
            tournament_name=row["tournament__name"],
            date=row["date"],
            before=row["display_before"],
            after=row["display_after"],
            matches=row["matches"],
        )
        for row in RatingChange.objects.filter(player_id=player_id)
        .order_by("-date", "-tournament_id")
        .values(
            "tournament_id",
            "tournament__name",
            "date",
            "display_before",
            "display_after",
            "matches",
        )
    )
    return PlayerRatingView(
        display=rating.display,
        mu=rating.mu,
        sigma=rating.sigma,
        tournaments=rating.tournaments,
        history=history,
    )


def ratings_list(*, provisional: bool) -> QuerySet[PlayerRating]:
    """The ratings, best first (then by name), as values: the established ones (at least
    ``PROVISIONAL_BELOW`` tournaments) with their rank (equal numbers share it), or the
    provisional ones without. Page it; then :func:`clubs_of` for the page's players."""
    if provisional:
        queryset = PlayerRating.objects.filter(tournaments__lt=PROVISIONAL_BELOW)
    else:
        queryset = PlayerRating.objects.filter(tournaments__gte=PROVISIONAL_BELOW).annotate(
            rank=Window(Rank(), order_by=F("display").desc())
        )
    return queryset.order_by("-display", "player__sort_key", "player_id").values(
        "player_id",
        "player__first_name",
        "player__last_name",
        "display",
        "mu",
        "sigma",
        "tournaments",
        "last_change",
        "last_tournament_id",
        *([] if provisional else ["rank"]),
    )


def clubs_of(*, player_ids: Iterable[int]) -> dict[int, str]:
    """The club shown beside each name, as on the public standings (one query)."""
    return home_clubs(pk__in=list(player_ids))


def rated_count() -> dict[str, int]:
    """How many players have an established rating and how many a provisional one (one
    query)."""
    counts = PlayerRating.objects.aggregate(
        established=Count("pk", filter=Q(tournaments__gte=PROVISIONAL_BELOW)),
        provisional=Count("pk", filter=Q(tournaments__lt=PROVISIONAL_BELOW)),
    )
    return {name: int(value or 0) for name, value in counts.items()}
