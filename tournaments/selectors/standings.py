"""Standings of a tournament and of a season, in a constant number of queries.

Scores belong to whoever sat in a seat at that deal (the seat's entry, or its latest
substitute from that deal on). Only confirmed deals at tables that were not voided count.

Ties: equal totals are ordered by the tournament's tie-break rule, then by a draw by lot that
the organiser performs (``tournaments.services.standings.draw_lots``) and that is recorded as
a ``LotDraw``; until then tied players share a rank and are marked as tied.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When

from clubs.models import Membership
from tournaments import ranking
from tournaments.models import (
    SCORE_FIELDS,
    Deal,
    Entry,
    LotDraw,
    Round,
    Season,
    Seat,
    Substitution,
    Team,
    Tournament,
)


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

    @property
    def finished(self) -> bool:
        return not self.open_tables


@dataclass
class _Tally:
    round_totals: dict[int, int] = field(default_factory=dict)
    deals_played: int = 0
    declarer_wins: int = 0

    @property
    def total(self) -> int:
        return sum(self.round_totals.values())


def _occupant_lookup(
    seats: list[dict], substitutions: list[dict]
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
    *, seats: list[dict], substitutions: list[dict], deals: Iterable[dict], bucket: str
) -> dict[int, _Tally]:
    """Add up every counting deal per entry, in buckets (the seat field ``bucket``: the round
    number for a tournament, the tournament for a season)."""
    timelines = _occupant_lookup(seats, substitutions)
    seat_at: dict[tuple[int, int], int] = {(s["table_id"], s["position"]): s["id"] for s in seats}
    bucket_of_table = {s["table_id"]: s[bucket] for s in seats}
    tallies: dict[int, _Tally] = defaultdict(_Tally)
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


def _tie_key(tie_break: str, tally: _Tally) -> tuple:
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


def _grouped_deals(deals, *, substituted_tables):
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


def _tallies_from_groups(
    groups: Iterable[dict],
    *,
    seats: list[dict],
    substitutions: list[dict],
    bucket: str,
    skip_tables: set[int] = frozenset(),
) -> dict[int, _Tally]:
    """The confirmed rows of :func:`_grouped_deals` added up per entry, in buckets (the seat
    field ``bucket``), as :func:`_tally` adds up the deals one by one."""
    timelines = _occupant_lookup(seats, substitutions)
    seat_at = {(s["table_id"], s["position"]): s for s in seats}
    tallies: dict[int, _Tally] = defaultdict(_Tally)
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


def _season_tallies(season: Season, *, bucket: str) -> dict[int, _Tally]:
    """Every counting deal of the season added up per entry (3 queries). ``bucket``: the seat
    field to group by."""
    seats = list(
        Seat.objects.filter(round__tournament__season=season).values(
            "id", "table_id", "position", "entry_id", bucket
        )
    )
    substitutions = list(
        Substitution.objects.filter(seat__round__tournament__season=season).values(
            "seat_id", "entry_id", "from_deal"
        )
    )
    groups = _grouped_deals(
        Deal.objects.filter(
            table__round__tournament__season=season,
            table__voided=False,
            status=Deal.Status.CONFIRMED,
        ),
        substituted_tables=Substitution.objects.filter(
            seat__round__tournament__season=season
        ).values("seat__table_id"),
    )
    return _tallies_from_groups(groups, seats=seats, substitutions=substitutions, bucket=bucket)


def home_clubs(**membership_filter) -> dict[int, str]:
    """Player id -> the short name of the club shown beside the name: an active membership
    first, then alphabetical (one query)."""
    clubs: dict[int, str] = {}
    for membership in (
        Membership.objects.filter(**membership_filter)
        .order_by("-status", "club__short_name")
        .values("player_id", "club__short_name")
    ):
        clubs.setdefault(membership["player_id"], membership["club__short_name"])
    return clubs


def tournament_standings(*, tournament: Tournament) -> Standings:
    """The tournament's standings: 7 queries, whatever the number of players."""
    entries = list(
        Entry.objects.filter(tournament=tournament).values(
            "id",
            "number",
            "category",
            "withdrawn_after_round",
            "player_id",
            "player__first_name",
            "player__last_name",
            "paper_total",
            "team_id",
            "team__name",
            "team__club__short_name",
        )
    )
    clubs = home_clubs(player__entries__tournament=tournament)
    rounds = list(Round.objects.filter(tournament=tournament).values("number", "state"))
    seats = list(
        Seat.objects.filter(round__tournament=tournament).values(
            "id",
            "table_id",
            "position",
            "entry_id",
            "round__number",
            "table__number",
            "table__voided",
        )
    )
    substitutions = list(
        Substitution.objects.filter(seat__round__tournament=tournament).values(
            "seat_id", "entry_id", "from_deal"
        )
    )
    substituted_seats = {sub["seat_id"] for sub in substitutions}
    # Every deal of the tournament, added up per table and status by the database (see
    # _grouped_deals): the confirmed ones for the totals, all of them for the open tables.
    groups = list(
        _grouped_deals(
            Deal.objects.filter(table__round__tournament=tournament),
            substituted_tables=[s["table_id"] for s in seats if s["id"] in substituted_seats],
        )
    )
    lot_orders = [
        draw["order"]
        for draw in LotDraw.objects.filter(tournament=tournament, purpose="tie_break")
        .order_by("performed_at", "pk")
        .values("order")
    ]

    voided_tables = {s["table_id"] for s in seats if s["table__voided"]}
    tallies = _tallies_from_groups(
        groups,
        seats=seats,
        substitutions=substitutions,
        bucket="round__number",
        skip_tables=voided_tables,
    )
    round_numbers = tuple(sorted(r["number"] for r in rounds))
    if _add_paper_totals(tallies, entries, bucket=lambda entry: 1):
        round_numbers = round_numbers or (1,)
    rows = _ranked_rows(
        tournament=tournament,
        entries=entries,
        clubs=clubs,
        tallies=tallies,
        round_numbers=round_numbers,
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
    )


def _team_infos(entries: list[dict]) -> tuple[TeamInfo, ...]:
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


def _add_paper_totals(tallies: dict[int, _Tally], entries: list[dict], bucket) -> bool:
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


def _ranked_rows(
    *,
    tournament: Tournament,
    entries: list[dict],
    clubs: dict[int, str],
    tallies: dict[int, _Tally],
    round_numbers: tuple[int, ...],
    lot_orders: list[list[int]],
) -> list[StandingRow]:
    # Players who never played a deal and withdrew before round 1 do not appear.
    listed = [e for e in entries if e["id"] in tallies or e["withdrawn_after_round"] != 0]

    def key(entry: dict) -> tuple:
        tally = tallies.get(entry["id"], _Tally())
        return (tally.total, _tie_key(tournament.tie_break, tally))

    listed.sort(key=lambda e: (key(e), -e["number"]), reverse=True)
    # Group by (total, tie-break key); inside a group the lot decides, if drawn.
    groups: list[list[dict]] = []
    for entry in listed:
        if groups and key(groups[-1][0]) == key(entry):
            groups[-1].append(entry)
        else:
            groups.append([entry])

    rows: list[StandingRow] = []
    position = 0
    for group in groups:
        lot = _lot_rank(lot_orders, [e["id"] for e in group]) if len(group) > 1 else None
        if lot is not None:
            group.sort(key=lambda e: lot[e["id"]])
        for index, entry in enumerate(group):
            tally = tallies.get(entry["id"], _Tally())
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
                )
            )
        position += len(group)
    return rows


def _unresolved_groups(rows: list[StandingRow]) -> tuple[tuple[int, ...], ...]:
    groups: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        if row.tied:
            groups[row.rank].append(row.entry_id)
    return tuple(tuple(members) for _, members in sorted(groups.items()))


def _open_tables(
    *,
    tournament: Tournament,
    rounds: list[dict],
    seats: list[dict],
    groups: list[dict],
    voided: set[int],
) -> list[OpenTable]:
    """Tables of rounds not yet closed that still miss confirmed deals (``groups``: the
    deals counted per table, see :func:`tournament_standings`)."""
    closed = {r["number"] for r in rounds if r["state"] == Round.State.CLOSED}
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
class SeasonRow:
    rank: int | None  # None: fewer tournaments than the season's minimum, not ranked
    player_id: int
    first_name: str
    last_name: str
    category: str
    club: str
    tournament_totals: tuple[int | None, ...]  # per tournament of the season, None: absent
    total: int  # the season score under the season's rule (sum, best N or cup points)
    tournaments_played: int
    counted: tuple[bool, ...] = ()  # per tournament: does this result count (best N)?
    places: tuple[int | None, ...] = ()  # per tournament: the place by total
    tied: bool = False

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def ranked(self) -> bool:
        return self.rank is not None

    @property
    def results(self) -> tuple[tuple[int | None, bool], ...]:
        """(total, counts?) per tournament of the season."""
        counted = self.counted or (True,) * len(self.tournament_totals)
        return tuple(zip(self.tournament_totals, counted, strict=True))


@dataclass(frozen=True)
class SeasonTeamRow:
    rank: int
    name: str
    tournament_totals: tuple[int | None, ...]  # None: the team did not play that tournament
    total: int
    complete: bool  # four members who all played, in every tournament it played
    tied: bool


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    tournaments: tuple[Tournament, ...]
    rows: tuple[SeasonRow, ...]
    teams: tuple[SeasonTeamRow, ...] = ()

    @property
    def rule(self) -> ranking.SeasonRule:
        return season_rule(self.season)


def season_rule(season: Season) -> ranking.SeasonRule:
    return ranking.SeasonRule(
        scoring=season.scoring,
        best_of=season.best_of,
        cup_points=tuple(int(p) for p in season.cup_points or ()),
        min_tournaments=season.min_tournaments,
    )


def season_standings(*, season: Season) -> SeasonStandings:
    """The season ranking under the season's rule (``tournaments.ranking``) and the teams'.
    Six queries, whatever the number of players or tournaments."""
    tournaments = tuple(
        Tournament.objects.filter(season=season).select_related("host_club").order_by("date", "pk")
    )
    entries = list(
        Entry.objects.filter(tournament__season=season)
        # In date order: a team is named as it was first registered in the season.
        .order_by("tournament__date", "tournament_id", "number")
        .values(
            "id",
            "tournament_id",
            "player_id",
            "player__first_name",
            "player__last_name",
            "player__category",
            "paper_total",
            "team__name",
        )
    )
    clubs = home_clubs(player__entries__tournament__season=season)
    tallies = _season_tallies(season, bucket="round__tournament_id")
    _add_paper_totals(tallies, entries, bucket=lambda entry: entry["tournament_id"])
    per_player: dict[int, dict[int, int]] = defaultdict(dict)
    people: dict[int, dict] = {}
    for entry in entries:
        people[entry["player_id"]] = entry
        tally = tallies.get(entry["id"])
        if tally is None:
            continue
        for tournament_id, points in tally.round_totals.items():
            totals = per_player[entry["player_id"]]
            totals[tournament_id] = totals.get(tournament_id, 0) + points
    rows = _season_rows(
        season=season,
        tournaments=tournaments,
        per_player=per_player,
        people=people,
        clubs=clubs,
    )
    teams = _season_teams(tournaments=tournaments, entries=entries, tallies=tallies)
    return SeasonStandings(
        season=season, tournaments=tournaments, rows=tuple(rows), teams=tuple(teams)
    )


def _season_rows(
    *,
    season: Season,
    tournaments: tuple[Tournament, ...],
    per_player: dict[int, dict[int, int]],
    people: dict[int, dict],
    clubs: dict[int, str],
) -> list[SeasonRow]:
    rule = season_rule(season)
    by_tournament: dict[int, dict[int, int]] = defaultdict(dict)
    for player_id, totals in per_player.items():
        for tournament_id, total in totals.items():
            by_tournament[tournament_id][player_id] = total
    place: dict[tuple[int, int], int] = {}
    for tournament_id, totals in by_tournament.items():
        for player_id, rank in ranking.places(totals).items():
            place[(tournament_id, player_id)] = rank
    scores = {
        player_id: ranking.season_score(totals, rule, {t: place[(t, player_id)] for t in totals})
        for player_id, totals in per_player.items()
    }

    def name_of(player_id: int) -> str:
        person = people[player_id]
        return f"{person['player__last_name']} {person['player__first_name']}"

    rows = []
    for ranked in ranking.rank_season(scores, name_of=name_of):
        player_id = ranked.key
        totals = per_player[player_id]
        person = people[player_id]
        score = scores[player_id]
        rows.append(
            SeasonRow(
                rank=ranked.rank,
                player_id=player_id,
                first_name=person["player__first_name"],
                last_name=person["player__last_name"],
                category=person["player__category"],
                club=clubs.get(player_id, ""),
                tournament_totals=tuple(totals.get(t.pk) for t in tournaments),
                total=ranked.score,
                tournaments_played=score.played,
                counted=tuple(t.pk in score.counted for t in tournaments),
                places=tuple(place.get((t.pk, player_id)) for t in tournaments),
                tied=ranked.tied,
            )
        )
    return rows


def _season_teams(
    *, tournaments: tuple[Tournament, ...], entries: list[dict], tallies: dict[int, _Tally]
) -> list[SeasonTeamRow]:
    """Teams of the same name add up their tournament totals over the season."""
    names: dict[str, str] = {}
    per_team: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    members: dict[tuple[str, int], int] = defaultdict(int)
    for entry in entries:
        if not entry["team__name"]:
            continue
        key = ranking.team_key(entry["team__name"])
        names.setdefault(key, entry["team__name"])
        members[(key, entry["tournament_id"])] += 1
        tally = tallies.get(entry["id"])
        if tally is not None and tally.round_totals:
            per_team[key][entry["tournament_id"]].append(tally.total)
    results = []
    for key, name in names.items():
        played = per_team.get(key, {})
        if not played:
            continue  # registered, nothing played yet (an upcoming tournament)
        # Complete: four members who all played, in every tournament the team played.
        complete = all(
            members[(key, t)] == Team.SIZE and len(totals) == Team.SIZE
            for t, totals in played.items()
        )
        results.append(
            ranking.TeamResult(
                key=key,
                name=name,
                members=Team.SIZE if complete else 0,
                played=Team.SIZE if complete else 0,
                total=sum(sum(totals) for totals in played.values()),
            )
        )
    rows = []
    for ranked in ranking.rank_teams(results, size=Team.SIZE):
        key = ranked.team.key
        totals = per_team.get(key, {})
        rows.append(
            SeasonTeamRow(
                rank=ranked.rank,
                name=ranked.team.name,
                tournament_totals=tuple(
                    sum(totals[t.pk]) if t.pk in totals else None for t in tournaments
                ),
                total=ranked.team.total,
                complete=ranked.complete,
                tied=ranked.tied,
            )
        )
    return rows


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
        info = infos[ranked.team.key]
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
class SideRow:
    rank: int
    tied: bool
    row: SeasonRow


@dataclass(frozen=True)
class SeasonSide:
    key: str  # woman, youth, senior, last
    rows: tuple[SideRow, ...]


def _category_ranks(rows: list[SeasonRow]) -> tuple[SideRow, ...]:
    ranks = ranking.competition_ranks([row.total for row in rows])
    return tuple(
        SideRow(rank=rank, tied=ranks.count(rank) > 1, row=row)
        for row, rank in zip(rows, ranks, strict=True)
    )


def season_sides(result: SeasonStandings) -> tuple[SeasonSide, ...]:
    """The season's side rankings: women, youth and seniors (each with its own ranks, ranked
    players only) and the last place among the ranked players."""
    ranked = [row for row in result.rows if row.ranked]
    sides = [
        SeasonSide(key, _category_ranks([row for row in ranked if row.category == key]))
        for key in ("woman", "youth", "senior")
    ]
    last_rank = ranked[-1].rank if len(ranked) > 1 else None
    last = [row for row in ranked if row.rank == last_rank]
    sides.append(
        SeasonSide(
            "last",
            tuple(SideRow(rank=row.rank, tied=len(last) > 1, row=row) for row in last),
        )
    )
    return tuple(sides)


@dataclass(frozen=True)
class TournamentRows:
    tournament: Tournament
    round_numbers: tuple[int, ...]
    rows: tuple[StandingRow, ...]


def season_tournament_standings(*, season: Season) -> list[TournamentRows]:
    """Every tournament's standings of the season in one pass: seven queries, whatever the
    number of tournaments, and the deals are streamed, not held (the season workbook)."""
    tournaments = list(Tournament.objects.filter(season=season).order_by("date", "pk"))
    entries = list(
        Entry.objects.filter(tournament__season=season).values(
            "id",
            "tournament_id",
            "number",
            "category",
            "withdrawn_after_round",
            "player_id",
            "player__first_name",
            "player__last_name",
            "paper_total",
        )
    )
    clubs = home_clubs(player__entries__tournament__season=season)
    round_numbers: dict[int, set[int]] = defaultdict(set)
    for round_ in Round.objects.filter(tournament__season=season).values("tournament_id", "number"):
        round_numbers[round_["tournament_id"]].add(round_["number"])
    # Entries belong to one tournament, so the round number is bucket enough.
    tallies = _season_tallies(season, bucket="round__number")
    # Tournaments imported from a paper list: one total per entry, shown as round 1.
    paper = {e["tournament_id"] for e in entries if e["paper_total"] is not None}
    _add_paper_totals(tallies, entries, bucket=lambda entry: 1)
    lots: dict[int, list[list[int]]] = defaultdict(list)
    for draw in (
        LotDraw.objects.filter(tournament__season=season, purpose="tie_break")
        .order_by("performed_at", "pk")
        .values("tournament_id", "order")
    ):
        lots[draw["tournament_id"]].append(draw["order"])
    by_tournament: dict[int, list[dict]] = defaultdict(list)
    for entry in entries:
        by_tournament[entry["tournament_id"]].append(entry)
    result = []
    for tournament in tournaments:
        numbers = tuple(sorted(round_numbers[tournament.pk]))
        if tournament.pk in paper:
            numbers = numbers or (1,)
        rows = _ranked_rows(
            tournament=tournament,
            entries=by_tournament[tournament.pk],
            clubs=clubs,
            tallies=tallies,
            round_numbers=numbers,
            lot_orders=lots[tournament.pk],
        )
        result.append(
            TournamentRows(tournament=tournament, round_numbers=numbers, rows=tuple(rows))
        )
    return result
