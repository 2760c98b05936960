"""Who can still win the season (issue 41 item 1): the season's final, and what each
contender needs in it (``seasons.ranking.chances``), read from the season standings.

**The final** is the season's last tournament (by date, then as created), and only once the
season's plan is known (planned dates or a planned number, ``Season.planned_tournaments``):
without a plan nobody can tell whether another tournament follows. **Before the final**: it
has no result yet and is the only tournament of the plan still to come (every other one is
played or over). **During the final**: it has results and is not finished; every deal
entered gives the season page a new revision, so the chances follow it. Once the final is
finished there is nothing left to win: the block goes (the season's press report follows)."""

from __future__ import annotations

from dataclasses import dataclass

from seasons import ranking
from seasons.selectors.standings import SeasonRow, SeasonStandings
from tournaments.models import Entry, Tournament

BEFORE, DURING = "before", "during"

# The contenders shown: the first this many rows of the season ranking.
CHANCES_SHOWN = 10


@dataclass(frozen=True)
class SeasonChances:
    final: Tournament
    phase: str  # BEFORE or DURING
    rule: ranking.SeasonRule
    rows: tuple[tuple[SeasonRow, ranking.Chance], ...]  # the ranking's order
    leaders: tuple[SeasonRow, ...]
    # the most cup points the final gives (None: game points, not bounded)
    cup_max: int | None

    @property
    def leader_names(self) -> tuple[str, ...]:
        return tuple(row.name for row in self.leaders)


def season_final(result: SeasonStandings) -> tuple[Tournament, str] | None:
    """(the final, BEFORE or DURING), or None when the season is not at its final."""
    plan = result.plan
    if not result.tournaments or plan is None or not plan.known:
        return None
    final = result.tournaments[-1]
    index = len(result.tournaments) - 1
    scored = any(row.tournament_totals[index] is not None for row in result.rows)
    if not scored and plan.to_come == 1:
        return final, BEFORE
    if scored and plan.to_come == 0 and final.finished_at is None:
        return final, DURING
    return None


def season_chances(result: SeasonStandings, *, shown: int = CHANCES_SHOWN) -> SeasonChances | None:
    """What each of the ranking's first ``shown`` rows needs in the final to pass the leader.
    No query before the final; one during it (who is entered and has not withdrawn)."""
    found = season_final(result)
    if found is None:
        return None
    final, phase = found
    index = len(result.tournaments) - 1
    ids = [t.pk for t in result.tournaments]
    playing: set[int] | None = None
    if phase == DURING:
        playing = set(
            Entry.objects.filter(tournament=final, withdrawn_after_round__isnull=True).values_list(
                "player_id", flat=True
            )
        )
    contenders = []
    for row in result.rows:
        results = {
            t: total
            for t, total in zip(ids[:index], row.tournament_totals[:index], strict=True)
            if total is not None
        }
        places = {
            t: place
            for t, place in zip(ids[:index], (row.places or ())[:index], strict=False)
            if place is not None
        }
        final_total = row.tournament_totals[index]
        final_place = row.places[index] if row.places else None
        contenders.append(
            ranking.Contender(
                key=row.player_id,
                results=results,
                places=places,
                final_total=final_total,
                final_place=final_place,
                can_play=playing is None or row.player_id in playing,
            )
        )
    rule = result.rule
    told = {c.key: c for c in ranking.chances(contenders, rule, final_key=final.pk)}
    if not told:
        return None
    leaders = tuple(row for row in result.rows if told[row.player_id].kind == ranking.LEADER)
    rows = tuple((row, told[row.player_id]) for row in result.rows[:shown])
    cup_max = max((*rule.cup_points, 0)) if rule.scoring == ranking.CUP else None
    return SeasonChances(
        final=final, phase=phase, rule=rule, rows=rows, leaders=leaders, cup_max=cup_max
    )
