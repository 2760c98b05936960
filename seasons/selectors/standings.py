"""A season's standings under its rule (``seasons.ranking``): every tournament's totals
added up from the grouped deal sums that the tournament standings use too
(``tournaments.selectors.standings.grouped_deals``); side rankings; teams of a season; each
tournament's rows for the workbook. A constant number of queries."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from django.utils import timezone

from clubs.search import name_sort_key
from seasons import ranking as season_ranking
from seasons.models import PlannedTournament, Season, TournamentResult
from seasons.selectors.results import fresh_results
from seasons.selectors.series import counted_tournament_ids, season_tournaments
from tournaments import ranking
from tournaments.models import (
    Deal,
    Entry,
    LotDraw,
    Round,
    Seat,
    Substitution,
    Team,
    Tournament,
)
from tournaments.selectors.standings import (
    Row,
    StandingRow,
    Tally,
    add_paper_totals,
    grouped_deals,
    home_clubs,
    ranked_rows,
    tallies_from_groups,
)


def _season_tallies(season: Season, *, bucket: str) -> dict[int, Tally]:
    """Every counting deal of the season added up per entry (3 queries). ``bucket``: the seat
    field to group by."""
    counted = counted_tournament_ids(season_ids=[season.pk])
    seats = list(
        Seat.objects.filter(round__tournament_id__in=counted).values(
            "id", "table_id", "position", "entry_id", bucket
        )
    )
    substitutions = list(
        Substitution.objects.filter(seat__round__tournament_id__in=counted).values(
            "seat_id", "entry_id", "from_deal"
        )
    )
    groups = grouped_deals(
        Deal.objects.filter(
            table__round__tournament_id__in=counted,
            table__voided=False,
            status=Deal.Status.CONFIRMED,
        ),
        substituted_tables=Substitution.objects.filter(
            seat__round__tournament_id__in=counted
        ).values("seat__table_id"),
    )
    return tallies_from_groups(groups, seats=seats, substitutions=substitutions, bucket=bucket)


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
    # Cup seasons only: per tournament (place, cup points), None where absent.
    cup: tuple[tuple[int, int] | None, ...] = ()
    # The season's final rule (None: it has none): qualified, or how many tournaments to go.
    qualification: season_ranking.Qualification | None = None
    # The change of rank since the season's previous tournament (None: unranked, or the first)
    movement: season_ranking.Movement | None = None

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def ranked(self) -> bool:
        return self.rank is not None

    @property
    def cup_results(self) -> tuple[tuple[tuple[int, int] | None, int | None], ...]:
        """((place, cup points) or None, the tournament's own total) per tournament."""
        return tuple(zip(self.cup, self.tournament_totals, strict=True))

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
    # What the final's column assumes: planned, played, over without results, to come.
    plan: season_ranking.SeasonPlan | None = None

    @property
    def rule(self) -> season_ranking.SeasonRule:
        return season_rule(season=self.season)


def season_rule(*, season: Season) -> season_ranking.SeasonRule:
    return season_ranking.SeasonRule(
        scoring=season.scoring,
        best_of=season.best_of,
        cup_points=tuple(int(p) for p in season.cup_points or ()),
        min_tournaments=season.min_tournaments,
    )


def season_standings(*, season: Season, today: dt.date | None = None) -> SeasonStandings:
    """The season ranking under the season's rule (``tournaments.ranking``) and the teams',
    from each tournament's stored results (``seasons.selectors.results``). Eight queries (one
    of them the series memberships: ``seasons.selectors.series``), whatever the number of
    players, tournaments or deals (and the working out of any
    tournament whose revision moved since its results were stored). ``today`` (the server's
    date unless given) tells the tournaments to come from those whose day is past."""
    return seasons_standings(seasons=[season], today=today)[season.pk]


def seasons_standings(
    *, seasons: Sequence[Season], today: dt.date | None = None
) -> dict[int, SeasonStandings]:
    """:func:`season_standings` of several seasons at once (season id -> standings), in the
    same eight queries whatever the number of seasons (the roll of honour)."""
    if not seasons:
        return {}
    today = today or timezone.localdate()
    season_ids = [season.pk for season in seasons]
    # Home and also-counting tournaments of each season (issue 41), each read once.
    of_season = season_tournaments(seasons=seasons)
    counted = counted_tournament_ids(season_ids=season_ids)
    tournaments = tuple({t.pk: t for ts in of_season.values() for t in ts}.values())
    entries = list(
        Entry.objects.filter(tournament_id__in=counted)
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
    clubs = home_clubs(entries__tournament_id__in=counted)
    # Each tournament's totals as stored at its revision (worked out again where it moved).
    fresh_results(tournaments=tournaments)
    totals_of = dict(
        TournamentResult.objects.filter(tournament_id__in=counted, total__isnull=False).values_list(
            "entry_id", "total"
        )
    )
    entries_by_tournament: dict[int, list[Row]] = defaultdict(list)
    for row in entries:
        entries_by_tournament[row["tournament_id"]].append(row)
    entries_of: dict[int, list[Row]] = {
        season_id: [e for t in ts for e in entries_by_tournament[t.pk]]
        for season_id, ts in of_season.items()
    }
    planned_of: dict[int, list[dt.date]] = defaultdict(list)
    for season_id, day in PlannedTournament.objects.filter(season_id__in=season_ids).values_list(
        "season_id", "date"
    ):
        planned_of[season_id].append(day)
    result = {}
    for season in seasons:
        own = of_season[season.pk]
        own_entries = entries_of[season.pk]
        per_player: dict[int, dict[int, int]] = defaultdict(dict)
        people: dict[int, Row] = {}
        for entry in own_entries:
            people[entry["player_id"]] = entry
            total = totals_of.get(entry["id"])
            if total is None:
                continue
            totals = per_player[entry["player_id"]]
            totals[entry["tournament_id"]] = totals.get(entry["tournament_id"], 0) + total
        scored = {t for totals in per_player.values() for t in totals}
        plan = season_ranking.season_plan(
            today=today,
            ends_on=season.ends_on,
            tournaments=[(t.date, t.pk in scored) for t in own],
            planned_dates=planned_of[season.pk],
            planned_count=season.planned_tournaments,
        )
        rows = _season_rows(
            season=season,
            tournaments=own,
            per_player=per_player,
            people=people,
            clubs=clubs,
            remaining=plan.to_come,
        )
        teams = _season_teams(tournaments=own, entries=own_entries, totals_of=totals_of)
        result[season.pk] = SeasonStandings(
            season=season, tournaments=own, rows=tuple(rows), teams=tuple(teams), plan=plan
        )
    return result


def _season_rows(
    *,
    season: Season,
    tournaments: tuple[Tournament, ...],
    per_player: dict[int, dict[int, int]],
    people: Mapping[int, Row],
    clubs: dict[int, str],
    remaining: int | None,
) -> list[SeasonRow]:
    """``remaining``: the season's tournaments still to come (``SeasonPlan.to_come``)."""
    rule = season_rule(season=season)
    by_tournament: dict[int, dict[int, int]] = defaultdict(dict)
    for player_id, totals in per_player.items():
        for tournament_id, total in totals.items():
            by_tournament[tournament_id][player_id] = total
    place: dict[tuple[int, int], int] = {}
    for tournament_id, totals in by_tournament.items():
        for player_id, rank in ranking.places(totals).items():
            place[(tournament_id, player_id)] = rank
    scores = {
        player_id: season_ranking.season_score(
            totals, rule, {t: place[(t, player_id)] for t in totals}
        )
        for player_id, totals in per_player.items()
    }

    # each name folded once (it orders the ranking now and the one before the last tournament)
    names: dict[int, str] = {}

    def name_of(player_id: int) -> str:
        name = names.get(player_id)
        if name is None:
            person = people[player_id]
            name = names[player_id] = name_sort_key(
                person["player__first_name"], person["player__last_name"]
            )
        return name

    current = season_ranking.rank_season(scores, name_of=name_of)
    # Tournaments with results in date order: the last one's change of ranks is shown.
    played_ids = [t.pk for t in tournaments if t.pk in by_tournament]
    moved: dict[int, season_ranking.Movement] = {}
    if len(played_ids) > 1:
        last = played_ids[-1]
        before = {
            player_id: season_ranking.season_score(
                {t: v for t, v in totals.items() if t != last},
                rule,
                {t: place[(t, player_id)] for t in totals if t != last},
            )
            for player_id, totals in per_player.items()
            if any(t != last for t in totals)
        }
        moved = season_ranking.movements(
            {cast(int, r.key): r.rank for r in season_ranking.rank_season(before, name_of=name_of)},
            {cast(int, r.key): r.rank for r in current},
        )
    ids = [t.pk for t in tournaments]  # read once: every row has a cell per tournament
    rows = []
    for ranked in current:
        player_id = cast(int, ranked.key)  # the player ids given to rank_season
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
                tournament_totals=tuple(totals.get(t) for t in ids),
                total=ranked.score,
                tournaments_played=score.played,
                counted=tuple(t in score.counted for t in ids),
                places=tuple(place.get((t, player_id)) for t in ids),
                tied=ranked.tied,
                cup=_cup_cells(rule, tuple(place.get((t, player_id)) for t in ids)),
                qualification=season_ranking.qualification(
                    played=score.played,
                    needed=season.final_min_tournaments,
                    remaining=remaining,
                ),
                movement=moved.get(player_id),
            )
        )
    return rows


def _cup_cells(
    rule: season_ranking.SeasonRule, places: tuple[int | None, ...]
) -> tuple[tuple[int, int] | None, ...]:
    """Under cup points, each tournament's (place, cup points): what the season's total adds
    up, so that it is shown instead of the tournament's own points."""
    if rule.scoring != season_ranking.CUP:
        return ()
    return tuple(
        None if p is None else (p, season_ranking.cup_points_for(p, rule.cup_points))
        for p in places
    )


def _season_teams(
    *,
    tournaments: tuple[Tournament, ...],
    entries: Sequence[Row],
    totals_of: Mapping[int, int | None],
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
        total = totals_of.get(entry["id"])
        if total is not None:
            per_team[key][entry["tournament_id"]].append(total)
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
        key = cast(str, ranked.team.key)  # the team keys given to rank_teams
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
class SideRow:
    rank: int | None  # as SeasonRow's: set on every ranked row, the only ones shown here
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


def season_sides(*, result: SeasonStandings) -> tuple[SeasonSide, ...]:
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
    """Every tournament's standings of the season in one pass: nine queries, whatever the
    number of tournaments, and the deals are streamed, not held (the season workbook)."""
    tournaments = list(season_tournaments(seasons=[season])[season.pk])
    counted = counted_tournament_ids(season_ids=[season.pk])
    entries = list(
        Entry.objects.filter(tournament_id__in=counted).values(
            "id",
            "tournament_id",
            "number",
            "category",
            "withdrawn_after_round",
            "checked_in",
            "player_id",
            "player__first_name",
            "player__last_name",
            "paper_total",
        )
    )
    seated = set(
        Seat.objects.filter(round__tournament_id__in=counted).values_list("entry_id", flat=True)
    )
    clubs = home_clubs(entries__tournament_id__in=counted)
    round_numbers: dict[int, set[int]] = defaultdict(set)
    for round_ in Round.objects.filter(tournament_id__in=counted).values("tournament_id", "number"):
        round_numbers[round_["tournament_id"]].add(round_["number"])
    # Entries belong to one tournament, so the round number is bucket enough.
    tallies = _season_tallies(season, bucket="round__number")
    # Tournaments imported from a paper list: one total per entry, shown as round 1.
    paper = {e["tournament_id"] for e in entries if e["paper_total"] is not None}
    add_paper_totals(tallies, entries=entries, bucket=lambda entry: 1)
    lots: dict[int, list[list[int]]] = defaultdict(list)
    for draw in (
        LotDraw.objects.filter(tournament_id__in=counted, purpose="tie_break")
        .order_by("performed_at", "pk")
        .values("tournament_id", "order")
    ):
        lots[draw["tournament_id"]].append(draw["order"])
    by_tournament: dict[int, list[Row]] = defaultdict(list)
    for entry in entries:
        by_tournament[entry["tournament_id"]].append(entry)
    result = []
    for tournament in tournaments:
        numbers = tuple(sorted(round_numbers[tournament.pk]))
        if tournament.pk in paper:
            numbers = numbers or (1,)
        rows = ranked_rows(
            tournament=tournament,
            entries=by_tournament[tournament.pk],
            clubs=clubs,
            tallies=tallies,
            round_numbers=numbers,
            lot_orders=lots[tournament.pk],
            seated=seated,
        )
        result.append(
            TournamentRows(tournament=tournament, round_numbers=numbers, rows=tuple(rows))
        )
    return result
