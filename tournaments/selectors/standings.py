"""Standings of a tournament in a constant number of queries (a season's build on them:
``seasons.selectors.standings``).

Scores belong to whoever sat in a seat at that deal (the seat's entry, or its latest
substitute from that deal on). Only confirmed deals at tables that were not voided count.

Ties: equal totals are ordered by the tournament's tie-break rule, then by a draw by lot that
the organiser performs (``tournaments.services.standings.draw_lots``) and that is recorded as
a ``LotDraw``; until then tied players share a rank and are marked as tied.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from typing import Any, cast

from django.db.models import Case, Count, F, IntegerField, Q, QuerySet, Sum, Value, When

from clubs.models import Player
from tournaments import ranking
from tournaments.caching import revision_cached
from tournaments.models import (
    SCORE_FIELDS,
    Deal,
    Entry,
    LotDraw,
    Round,
    Seat,
    Substitution,
    Team,
    Tournament,
)
from tournaments.selectors.prepared import PreparedValues

# A row of QuerySet.values(), read by key (django-stubs types each query's as a TypedDict).
Row = Mapping[str, Any]


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entry_id: int
    number: int
    first_name: str
    last_name: str
    category: str
    club: str
    round_totals: tuple[int | None, ...]  # None: did not play in that round
    total: int
    deals_played: int
    declarer_wins: int
    tied: bool  # still tied with a neighbour: the tie-break rule did not separate them
    decided_by_lot: bool
    withdrawn: bool
    # A fill-in (Entry.fill_in): listed after the ranked players, without a place of its own
    # (``rank`` continues the count so that every row has one) and without a prize.
    fill_in: bool = False
    player_id: int | None = None  # the registry's player (a link to their page, if public)

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


@dataclass(frozen=True)
class OpenTable:
    round_number: int
    table_number: int
    deals_confirmed: int
    deals_pending: int
    deals_expected: int


@dataclass(frozen=True)
class TeamInfo:
    team_id: int
    name: str
    club: str
    entry_ids: tuple[int, ...]


@dataclass(frozen=True)
class Standings:
    tournament: Tournament
    round_numbers: tuple[int, ...]
    rows: tuple[StandingRow, ...]
    open_tables: tuple[OpenTable, ...]
    unit: str
    unresolved_ties: tuple[tuple[int, ...], ...] = field(default=())
    teams: tuple[TeamInfo, ...] = field(default=())
    # Rounds drawn but not yet shown to the players: nothing of them counts as begun.
    awaiting_release: tuple[int, ...] = field(default=())

    @property
    def started(self) -> bool:
        """A round is drawn and shown (or paper totals are in): before that nothing is
        "finished"."""
        return bool(set(self.round_numbers) - set(self.awaiting_release))

    @property
    def scored(self) -> bool:
        """Some result counts (a confirmed deal or total): before that, "no results yet"."""
        return any(total is not None for row in self.rows for total in row.round_totals)

    @property
    def finished(self) -> bool:
        return self.started and not self.open_tables


@dataclass
class Tally:
    round_totals: dict[int, int] = field(default_factory=dict)
    deals_played: int = 0
    declarer_wins: int = 0

    @property
    def total(self) -> int:
        return sum(self.round_totals.values())


def _occupant_lookup(
    seats: Sequence[Row], substitutions: Iterable[Row]
) -> dict[int, list[tuple[int, int]]]:
    """seat id -> [(from_deal, entry id)], ascending: who sits there from which deal on."""
    by_seat: dict[int, list[tuple[int, int]]] = {s["id"]: [(1, s["entry_id"])] for s in seats}
    for sub in sorted(substitutions, key=lambda s: s["from_deal"]):
        by_seat[sub["seat_id"]].append((sub["from_deal"], sub["entry_id"]))
    return by_seat


def _occupant(timeline: list[tuple[int, int]], deal_number: int) -> int:
    entry_id = timeline[0][1]
    for from_deal, candidate in timeline:
        if from_deal <= deal_number:
            entry_id = candidate
    return entry_id


def _tally(
    *, seats: Sequence[Row], substitutions: Iterable[Row], deals: Iterable[Row], bucket: str
) -> dict[int, Tally]:
    """Add up every counting deal per entry, in buckets (the seat field ``bucket``: the round
    number for a tournament, the tournament for a season)."""
    timelines = _occupant_lookup(seats, substitutions)
    seat_at: dict[tuple[int, int], int] = {(s["table_id"], s["position"]): s["id"] for s in seats}
    bucket_of_table = {s["table_id"]: s[bucket] for s in seats}
    tallies: dict[int, Tally] = defaultdict(Tally)
    for deal in deals:
        table_id = deal["table_id"]
        round_number = bucket_of_table.get(table_id)
        if round_number is None:
            continue
        for position, name in enumerate(SCORE_FIELDS):
            score = deal[name]
            seat_id = seat_at.get((table_id, position))
            if score is None or seat_id is None:
                continue
            tally = tallies[_occupant(timelines[seat_id], deal["number"])]
            tally.round_totals[round_number] = tally.round_totals.get(round_number, 0) + score
            if deal["kind"] == Deal.Kind.DEAL:
                tally.deals_played += 1
                if position == deal["declarer_position"] and score > 0:
                    tally.declarer_wins += 1
    return tallies


def _tie_key(tie_break: str, tally: Tally) -> tuple:
    if tie_break == Tournament.TieBreak.BEST_ROUND:
        return tuple(sorted(tally.round_totals.values(), reverse=True))
    if tie_break == Tournament.TieBreak.MOST_WON:
        return (tally.declarer_wins,)
    return ()


def _lot_rank(lot_orders: list[list[int]], group: list[int]) -> dict[int, int] | None:
    """The latest recorded draw by lot that covers the whole tied group, as entry -> place."""
    members = set(group)
    for order in reversed(lot_orders):
        if members.issubset(order):
            return {entry_id: order.index(entry_id) for entry_id in group}
    return None


def _deal_sums() -> dict:
    """Aggregates per seat position: the sum of the scores, the deals scored, and those won as
    declarer; and the number of deals."""
    sums: dict = {"count": Count("pk")}
    for position, name in enumerate(SCORE_FIELDS):
        sums[f"sum{position}"] = Sum(name)
        sums[f"scored{position}"] = Count(name)
        sums[f"won{position}"] = Count(
            name, filter=Q(declarer_position=position, **{f"{name}__gt": 0})
        )
    return sums


def grouped_deals(deals, *, substituted_tables):
    """``deals`` added up by the database per table, status and kind (one row per table
    instead of every deal), which is the same as adding the deals one by one while a table
    keeps its players. The deals of a table with a substitute (who sits where changes from a
    deal on) come one row per deal, in the same query."""
    return (
        deals
        # None: the whole table at once; a deal number: that deal alone (a substitute's table)
        .annotate(
            deal=Case(
                When(table_id__in=substituted_tables, then=F("number")),
                default=Value(None),
                output_field=IntegerField(),
            )
        )
        .values("table_id", "deal", "status", "kind")
        .annotate(**_deal_sums())
        .order_by()
    )


def tallies_from_groups(
    groups: Iterable[Row],
    *,
    seats: Sequence[Row],
    substitutions: Iterable[Row],
    bucket: str,
    skip_tables: frozenset[int] | set[int] = frozenset(),
) -> dict[int, Tally]:
    """The confirmed rows of :func:`grouped_deals` added up per entry, in buckets (the seat
    field ``bucket``), as :func:`_tally` adds up the deals one by one."""
    timelines = _occupant_lookup(seats, substitutions)
    seat_at = {(s["table_id"], s["position"]): s for s in seats}
    tallies: dict[int, Tally] = defaultdict(Tally)
    for group in groups:
        table_id, deal_number = group["table_id"], group["deal"]
        if group["status"] != Deal.Status.CONFIRMED or table_id in skip_tables:
            continue
        played = group["kind"] == Deal.Kind.DEAL  # a typed-in round total is no deal played
        for position in range(len(SCORE_FIELDS)):
            seat = seat_at.get((table_id, position))
            if seat is None or not group[f"scored{position}"]:
                continue
            if deal_number is None:
                entry_id = seat["entry_id"]
            else:
                entry_id = _occupant(timelines[seat["id"]], deal_number)
            tally = tallies[entry_id]
            key = seat[bucket]
            tally.round_totals[key] = tally.round_totals.get(key, 0) + group[f"sum{position}"]
            if played:
                tally.deals_played += group[f"scored{position}"]
                tally.declarer_wins += group[f"won{position}"]
    for tally in tallies.values():  # in bucket order, as adding the deals in order gives
        tally.round_totals = dict(sorted(tally.round_totals.items()))
    return tallies


def home_clubs(**player_filter) -> dict[int, str]:
    """Player id -> the club shown beside the name (one query; ``player_filter`` selects the
    players): a membership's short name, an active one first, then alphabetical; for a
    player without one, a guest's club (``Player.guest_club``: its short name, else
    ``guest_club_name`` as they typed it); "" for none."""
    return _club_per_player(_shown_clubs(**player_filter))


def _shown_clubs(**player_filter) -> QuerySet:
    return (
        Player.objects.filter(**player_filter)
        .order_by("memberships__status", "memberships__club__short_name")
        .values("id", "memberships__club__short_name", "guest_club__short_name", "guest_club_name")
    )


def _club_per_player(rows: Iterable[Row]) -> dict[int, str]:
    clubs: dict[int, str] = {}
    for row in rows:
        if row["id"] not in clubs:
            clubs[row["id"]] = (
                row["memberships__club__short_name"]
                or row["guest_club__short_name"]
                or row["guest_club_name"]
                or ""
            )
    return clubs


# The standings' queries, built by the ORM once (tournaments.selectors.prepared): at every new
# revision (every deal entered) building them again cost more than running them.
# An entry's fields the standings read (the simultaneous day reads the same of many tournaments)
ENTRY_FIELDS = (
    "id",
    "number",
    "category",
    "withdrawn_after_round",
    "checked_in",
    "player_id",
    "player__first_name",
    "player__last_name",
    "paper_total",
    "team_id",
    "team__name",
    "team__club__short_name",
    "fill_in",
)
_ENTRIES = PreparedValues(
    lambda tournament_id: Entry.objects.filter(tournament_id=tournament_id).values(*ENTRY_FIELDS)
)
_CLUBS = PreparedValues(lambda tournament_id: _shown_clubs(entries__tournament_id=tournament_id))
_ROUNDS = PreparedValues(
    lambda tournament_id: Round.objects.filter(tournament_id=tournament_id).values(
        "number", "state", "awaiting_release"
    )
)
_SEATS = PreparedValues(
    lambda tournament_id: Seat.objects.filter(round__tournament_id=tournament_id).values(
        "id",
        "table_id",
        "position",
        "entry_id",
        "round__number",
        "table__number",
        "table__voided",
    )
)
_SUBSTITUTIONS = PreparedValues(
    lambda tournament_id: Substitution.objects.filter(
        seat__round__tournament_id=tournament_id
    ).values("seat_id", "entry_id", "from_deal")
)
_GROUPS = PreparedValues(
    lambda tournament_id, substituted_tables: grouped_deals(
        Deal.objects.filter(table__round__tournament_id=tournament_id),
        substituted_tables=substituted_tables,
    )
)
_LOT_ORDERS = PreparedValues(
    lambda tournament_id: (
        LotDraw.objects.filter(tournament_id=tournament_id, purpose="tie_break")
        .order_by("performed_at", "pk")
        .values("order")
    )
)


def ranked_from_reads(
    *,
    tournament: Tournament,
    entries: Sequence[Row],
    clubs: dict[int, str],
    rounds: Sequence[Row],
    seats: Sequence[Row],
    substitutions: Sequence[Row],
    groups: Iterable[Row],
    lot_orders: list[list[int]],
) -> tuple[tuple[int, ...], list[StandingRow]]:
    """The round numbers and ranked rows of a tournament from its rows as read (entries, clubs,
    rounds, seats, substitutions, grouped deals, tie-break lots): no query. The tournament's
    standings and a simultaneous day's sections both rank this way, so a section equals its
    tournament's standings."""
    voided_tables = {s["table_id"] for s in seats if s["table__voided"]}
    tallies = tallies_from_groups(
        groups,
        seats=seats,
        substitutions=substitutions,
        bucket="round__number",
        skip_tables=voided_tables,
    )
    round_numbers = tuple(sorted(r["number"] for r in rounds))
    if add_paper_totals(tallies, entries=entries, bucket=lambda entry: 1):
        round_numbers = round_numbers or (1,)
    rows = ranked_rows(
        tournament=tournament,
        entries=entries,
        clubs=clubs,
        tallies=tallies,
        round_numbers=round_numbers,
        lot_orders=lot_orders,
        seated={s["entry_id"] for s in seats} | {sub["entry_id"] for sub in substitutions},
    )
    return round_numbers, rows


def tournament_standings(*, tournament: Tournament) -> Standings:
    """The tournament's standings: 7 queries, whatever the number of players."""
    pk = tournament.pk
    entries = _ENTRIES.rows(pk)
    clubs = _club_per_player(_CLUBS.rows(pk))
    rounds = _ROUNDS.rows(pk)
    seats = _SEATS.rows(pk)
    substitutions = _SUBSTITUTIONS.rows(pk)
    substituted_seats = {sub["seat_id"] for sub in substitutions}
    # Every deal of the tournament, added up per table and status by the database (see
    # grouped_deals): the confirmed ones for the totals, all of them for the open tables.
    substituted_tables = sorted({s["table_id"] for s in seats if s["id"] in substituted_seats})
    groups = _GROUPS.rows(pk, substituted_tables)
    lot_orders = [draw["order"] for draw in _LOT_ORDERS.rows(pk)]

    voided_tables = {s["table_id"] for s in seats if s["table__voided"]}
    round_numbers, rows = ranked_from_reads(
        tournament=tournament,
        entries=entries,
        clubs=clubs,
        rounds=rounds,
        seats=seats,
        substitutions=substitutions,
        groups=groups,
        lot_orders=lot_orders,
    )
    open_tables = _open_tables(
        tournament=tournament, rounds=rounds, seats=seats, groups=groups, voided=voided_tables
    )
    unresolved = _unresolved_groups(rows)
    return Standings(
        tournament=tournament,
        round_numbers=round_numbers,
        rows=tuple(rows),
        open_tables=tuple(open_tables),
        unit=str(tournament.rules_snapshot.get("unit", "points")),
        unresolved_ties=unresolved,
        teams=_team_infos(entries),
        awaiting_release=tuple(r["number"] for r in rounds if r.get("awaiting_release")),
    )


def standings_at_revision(*, tournament: Tournament) -> Standings:
    """:func:`tournament_standings` worked out once per revision and shared by the pages that
    show them (the projector board, the standings page and its live part, the players'
    places): the first of them at a new revision pays, not each (``tournaments.caching``; the
    same for every language). ``tournament`` as read, its revision naming the result."""
    found = revision_cached(
        tournament,
        "standings-data",
        language=False,
        build=lambda: tournament_standings(tournament=tournament),
    )
    return replace(found, tournament=tournament)  # the caller's instance, not a copy


def _team_infos(entries: Sequence[Row]) -> tuple[TeamInfo, ...]:
    teams: dict[int, dict] = {}
    for entry in entries:
        if entry["team_id"] is None:
            continue
        team = teams.setdefault(
            entry["team_id"],
            {"name": entry["team__name"], "club": entry["team__club__short_name"] or "", "ids": []},
        )
        team["ids"].append(entry["id"])
    return tuple(
        TeamInfo(team_id=key, name=team["name"], club=team["club"], entry_ids=tuple(team["ids"]))
        for key, team in teams.items()
    )


def add_paper_totals(tallies: dict[int, Tally], *, entries: Iterable[Row], bucket) -> bool:
    """A tournament imported from a paper list has one total per entry (``paper_total``) and
    no deals: it counts as that entry's result (as round 1 of its tournament)."""
    found = False
    for entry in entries:
        if entry.get("paper_total") is not None:
            tally = tallies[entry["id"]]
            key = bucket(entry)
            tally.round_totals[key] = tally.round_totals.get(key, 0) + entry["paper_total"]
            found = True
    return found


def ranked_rows(
    *,
    tournament: Tournament,
    entries: Sequence[Row],
    clubs: dict[int, str],
    tallies: dict[int, Tally],
    round_numbers: tuple[int, ...],
    lot_orders: list[list[int]],
    seated: set[int] | frozenset[int] = frozenset(),
) -> list[StandingRow]:
    listed = [e for e in entries if was_there(e, tallies=tallies, seated=seated)]

    no_tally = Tally()
    keys = {
        e["id"]: (t.total, _tie_key(tournament.tie_break, t))
        for e in listed
        for t in (tallies.get(e["id"], no_tally),)
    }

    def key(entry: Row) -> tuple:
        return keys[entry["id"]]

    listed.sort(key=lambda e: (key(e), -e["number"]), reverse=True)
    # Fill-ins come after the ranked players (each a group of its own: no place to share).
    fill_ins = [e for e in listed if e.get("fill_in")]
    listed = [e for e in listed if not e.get("fill_in")]
    # Group by (total, tie-break key); inside a group the lot decides, if drawn.
    groups: list[list[Row]] = []
    for entry in listed:
        if groups and key(groups[-1][0]) == key(entry):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    groups += [[entry] for entry in fill_ins]

    rows: list[StandingRow] = []
    position = 0
    for group in groups:
        lot = _lot_rank(lot_orders, [e["id"] for e in group]) if len(group) > 1 else None
        if lot is not None:
            group.sort(key=lambda e: lot[e["id"]])
        for index, entry in enumerate(group):
            tally = tallies.get(entry["id"], no_tally)
            shares_rank = len(group) > 1 and lot is None
            rank = position + 1 if shares_rank else position + index + 1
            rows.append(
                StandingRow(
                    rank=rank,
                    entry_id=entry["id"],
                    number=entry["number"],
                    first_name=entry["player__first_name"],
                    last_name=entry["player__last_name"],
                    category=entry["category"],
                    club=clubs.get(entry["player_id"], ""),
                    round_totals=tuple(tally.round_totals.get(n) for n in round_numbers),
                    total=tally.total,
                    deals_played=tally.deals_played,
                    declarer_wins=tally.declarer_wins,
                    tied=shares_rank,
                    decided_by_lot=lot is not None,
                    withdrawn=entry["withdrawn_after_round"] is not None,
                    fill_in=bool(entry.get("fill_in")),
                    player_id=entry["player_id"],
                )
            )
        position += len(group)
    return rows


def was_there(entry: Row, *, tallies: Mapping[int, Tally], seated: Set[int]) -> bool:
    """Whether a registered entry is ranked: whoever played (a deal counted, a total from a
    paper list) or came (checked in, or seated at a table). A player who withdrew before
    round 1 without a deal, and one who never came (a no-show of the online sign-up: never
    checked in, never drawn), is not: no rank, no "of N"."""
    if entry["id"] in tallies:
        return True
    if entry["withdrawn_after_round"] == 0:
        return False
    return (
        entry["id"] in seated
        or bool(entry.get("checked_in"))
        or entry.get("paper_total") is not None
    )


def no_shows(*, tournament: Tournament) -> list[Entry]:
    """The registered players who never came (``was_there`` false: not checked in, never
    seated nor substituting, no paper total, not withdrawn), by start number; one query."""
    return list(
        Entry.objects.filter(
            tournament=tournament,
            checked_in=False,
            paper_total__isnull=True,
            withdrawn_after_round__isnull=True,
            seats__isnull=True,
            substitutions__isnull=True,
        )
        .select_related("player")
        .order_by("number")
    )


def _unresolved_groups(rows: list[StandingRow]) -> tuple[tuple[int, ...], ...]:
    groups: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        if row.tied:
            groups[row.rank].append(row.entry_id)
    return tuple(tuple(members) for _, members in sorted(groups.items()))


def _open_tables(
    *,
    tournament: Tournament,
    rounds: Sequence[Row],
    seats: Sequence[Row],
    groups: Sequence[Row],
    voided: set[int],
) -> list[OpenTable]:
    """Tables of rounds not yet closed that still miss confirmed deals (``groups``: the
    deals counted per table, see :func:`tournament_standings`)."""
    # a draw not released yet is no table playing (its seats are not shown)
    closed = {
        r["number"] for r in rounds if r["state"] == Round.State.CLOSED or r.get("awaiting_release")
    }
    expected = (
        1 if tournament.entry_mode == Tournament.EntryMode.TOTALS else tournament.deals_per_round
    )
    confirmed: dict[int, int] = defaultdict(int)
    pending: dict[int, int] = defaultdict(int)
    totals_tables: set[int] = set()  # a table typed in as round totals needs just that line
    for group in groups:
        if group["kind"] == Deal.Kind.TOTAL:
            totals_tables.add(group["table_id"])
        if group["status"] == Deal.Status.PENDING:
            pending[group["table_id"]] += group["count"]
        elif group["status"] in (Deal.Status.CONFIRMED, Deal.Status.ANNULLED):
            # An annulled deal is finished business: the table does not wait for it.
            confirmed[group["table_id"]] += group["count"]
    tables = {
        s["table_id"]: (s["round__number"], s["table__number"])
        for s in seats
        if s["round__number"] not in closed and s["table_id"] not in voided
    }
    return [
        OpenTable(
            round_number=round_number,
            table_number=table_number,
            deals_confirmed=confirmed[table_id],
            deals_pending=pending[table_id],
            deals_expected=1 if table_id in totals_tables else expected,
        )
        for table_id, (round_number, table_number) in sorted(tables.items(), key=lambda t: t[1])
        if confirmed[table_id] < (1 if table_id in totals_tables else expected)
    ]


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team_id: int
    name: str
    club: str
    members: tuple[StandingRow, ...]  # members with a result, best first
    registered: int  # members registered
    total: int
    complete: bool
    tied: bool


def team_standings(*, standings: Standings) -> tuple[TeamRow, ...]:
    """The tournament's team ranking, from its standings (no further query). Teams are the
    ones with at least one registered member."""
    rows_by_entry = {row.entry_id: row for row in standings.rows}
    infos = {team.team_id: team for team in standings.teams}
    results = []
    for team in standings.teams:
        played = [rows_by_entry[e] for e in team.entry_ids if e in rows_by_entry]
        results.append(
            ranking.TeamResult(
                key=team.team_id,
                name=team.name,
                members=len(team.entry_ids),
                played=sum(1 for row in played if any(t is not None for t in row.round_totals)),
                total=sum(row.total for row in played),
            )
        )
    out = []
    for ranked in ranking.rank_teams(results, size=Team.SIZE):
        info = infos[cast(int, ranked.team.key)]  # the team ids given to rank_teams
        played = sorted(
            (rows_by_entry[e] for e in info.entry_ids if e in rows_by_entry),
            key=lambda row: -row.total,
        )
        out.append(
            TeamRow(
                rank=ranked.rank,
                team_id=info.team_id,
                name=info.name,
                club=info.club,
                members=tuple(played),
                registered=ranked.team.members,
                total=ranked.team.total,
                complete=ranked.complete,
                tied=ranked.tied,
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class RecordedLot:
    performed_at: object
    seed: int
    order: list[StandingRow | int]  # a row, or the bare entry id if the entry is gone


def recorded_lots(*, tournament: Tournament, standings: Standings) -> list[RecordedLot]:
    """Every tie-break draw recorded for the tournament, with the players in drawn order
    (one query)."""
    by_entry = {row.entry_id: row for row in standings.rows}
    return [
        RecordedLot(
            performed_at=draw["performed_at"],
            seed=draw["seed"],
            order=[by_entry.get(entry_id, entry_id) for entry_id in draw["order"]],
        )
        for draw in LotDraw.objects.filter(tournament=tournament, purpose="tie_break")
        .order_by("performed_at", "pk")
        .values("performed_at", "seed", "order")
    ]
