"""The facts of the press report (``seasons.press``): a tournament's and a season's, gathered
with a constant number of queries from the standings the pages already cache."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from clubs.ages import AgedPlayer, youngest_and_oldest
from clubs.search import name_sort_key
from seasons import ranking as season_ranking
from seasons.models import PlannedTournament, Season, counted_tournaments
from seasons.press import NextStop, Placed, SeasonFacts, SeasonLead, TournamentFacts
from seasons.selectors.standings import (
    SeasonRow,
    SeasonStandings,
    season_sides,
    season_standings,
)
from tournaments.caching import season_cached
from tournaments.models import Entry, Tournament
from tournaments.selectors.standings import StandingRow, standings_at_revision

PODIUM = 3
# The last place is named (the "Wurstsalat") only where more players than the podium played.
LAST_FROM = PODIUM + 1


def cached_season_standings(season: Season) -> SeasonStandings:
    """The season ranking as the season page caches it (the same key)."""
    return season_cached(season, "standings", build=lambda: season_standings(season=season))


def _placed(row: StandingRow) -> Placed:
    return Placed(
        place=row.rank, name=f"{row.first_name} {row.last_name}", club=row.club, points=row.total
    )


def tournament_facts(*, tournament: Tournament) -> TournamentFacts:
    """What the report says of ``tournament`` (read with its host club and season): its
    standings, the season's leader after it, and the season's next tournament."""
    standings = standings_at_revision(tournament=tournament)
    rows = [row for row in standings.rows if row.rank is not None]
    women = [row for row in rows if row.category == "woman"]
    ages = youngest_and_oldest(
        AgedPlayer(key=row, birth_year=birth_year, agreed=agreed)
        for row, (birth_year, agreed) in _ages_of(tournament, rows)
    )
    season = tournament.season
    lead = None
    next_stop = None
    if season is not None:
        lead = season_lead_after(cached_season_standings(season), tournament=tournament)
        next_stop = next_tournament(season=season, tournament=tournament)
    return TournamentFacts(
        name=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        host=tournament.host_club.name if tournament.host_club_id else "",
        podium=tuple(_placed(row) for row in rows if row.rank <= PODIUM),
        players=len(rows),
        women=len(women),
        youth=sum(1 for row in rows if row.category == "youth"),
        seniors=sum(1 for row in rows if row.category == "senior"),
        best_woman=_placed(women[0]) if women else None,
        youngest=tuple(_placed(row) for row in ages.youngest),
        oldest=tuple(_placed(row) for row in ages.oldest),
        last=_placed(rows[-1]) if len(rows) >= LAST_FROM else None,
        season=lead,
        next_stop=next_stop,
    )


def _ages_of(
    tournament: Tournament, rows: Sequence[StandingRow]
) -> list[tuple[StandingRow, tuple[int | None, bool]]]:
    """Each row with its player's birth year and consent to be named for it (one query)."""
    known = {
        pk: (birth_year, agreed)
        for pk, birth_year, agreed in Entry.objects.filter(tournament=tournament).values_list(
            "pk", "player__birth_year", "player__named_for_age"
        )
    }
    return [(row, known[row.entry_id]) for row in rows if row.entry_id in known]


def season_lead_after(result: SeasonStandings, *, tournament: Tournament) -> SeasonLead | None:
    """The season's leader(s) and the gap counting the tournaments up to ``tournament`` (a
    later one's results are not yet "after this tournament")."""
    ids = [t.pk for t in result.tournaments]
    if tournament.pk not in ids:
        return None
    upto = ids.index(tournament.pk) + 1
    rule = result.rule
    scores = {}
    people: dict[Hashable, SeasonRow] = {}
    for row in result.rows:
        totals = {
            t: total
            for t, total in zip(ids[:upto], row.tournament_totals[:upto], strict=True)
            if total is not None
        }
        if not totals:
            continue
        places = {
            t: place
            for t, place in zip(ids[:upto], row.places[:upto], strict=False)
            if place is not None
        }
        scores[row.player_id] = season_ranking.season_score(totals, rule, places)
        people[row.player_id] = row
    ranked = [
        r
        for r in season_ranking.rank_season(
            scores, name_of=lambda k: name_sort_key(people[k].first_name, people[k].last_name)
        )
        if r.rank is not None
    ]
    if not ranked:
        return None
    leaders = [r for r in ranked if r.rank == 1]
    behind = [r for r in ranked if r.rank != 1]
    return SeasonLead(
        season=result.season.name,
        leaders=tuple(Placed(1, people[r.key].name, people[r.key].club, r.score) for r in leaders),
        gap=(leaders[0].score - behind[0].score) if behind else None,
        runner_up=people[behind[0].key].name if behind else "",
        cup=rule.scoring == season_ranking.CUP,
    )


def next_tournament(*, season: Season, tournament: Tournament) -> NextStop | None:
    """The season's next tournament after ``tournament`` (two queries): a tournament created
    for a later day, or else a later date of the season's calendar."""
    later = (
        counted_tournaments([season.pk])
        .filter(date__gt=tournament.date)
        .select_related("host_club")
        .order_by("date", "pk")
        .first()
    )
    planned = (
        PlannedTournament.objects.filter(season=season, date__gt=tournament.date)
        .order_by("date", "pk")
        .first()
    )
    if later is not None and (planned is None or later.date <= planned.date):
        return NextStop(
            name=later.name,
            date=later.date,
            venue=later.venue,
            host=later.host_club.name if later.host_club_id else "",
        )
    if planned is not None:
        return NextStop(name=planned.note or str(season.name), date=planned.date)
    return None


def _season_placed(row: SeasonRow, rank: int | None = None) -> Placed:
    return Placed(place=rank or row.rank or 0, name=row.name, club=row.club, points=row.total)


def season_facts(*, season: Season) -> SeasonFacts:
    """What the season's report says: the ranking's first three, the gap, the best woman, the
    final and its winner; ``decided`` once the season's last tournament (its final) is
    finished and no other is to come."""
    result = cached_season_standings(season)
    ranked = [row for row in result.rows if row.ranked]
    tournaments: Sequence[Tournament] = result.tournaments
    played = [
        i
        for i, _t in enumerate(tournaments)
        if any(r.tournament_totals[i] is not None for r in result.rows)
    ]
    plan = result.plan
    final = tournaments[-1] if tournaments else None
    decided = bool(
        final is not None
        and played
        and played[-1] == len(tournaments) - 1
        and final.finished_at is not None
        and plan is not None
        and (plan.to_come == 0)
    )
    final_winner = None
    if final is not None and decided:
        index = len(tournaments) - 1
        firsts = [r for r in result.rows if r.places and r.places[index] == 1]
        if len(firsts) == 1:
            final_winner = Placed(
                1, firsts[0].name, firsts[0].club, firsts[0].tournament_totals[index] or 0
            )
    women_side = next(side for side in season_sides(result=result) if side.key == "woman")
    best_woman = women_side.rows[0].row if women_side.rows else None
    podium = [row for row in ranked if row.rank is not None and row.rank <= PODIUM]
    second = next((row for row in ranked if row.rank != 1), None)
    return SeasonFacts(
        season=season.name,
        decided=decided,
        tournaments=len(played),
        players=len(ranked),
        podium=tuple(_season_placed(row) for row in podium),
        gap=(ranked[0].total - second.total) if ranked and second else None,
        best_woman=_season_placed(best_woman) if best_woman else None,
        cup=result.rule.scoring == season_ranking.CUP,
        final=final.name if final_winner and final else "",
        final_winner=final_winner,
        women=sum(1 for row in ranked if row.category == "woman"),
    )
