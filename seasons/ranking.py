"""Season rules as pure functions (no Django, no database).

Season rules (``Season.scoring``):
- ``sum``: every tournament result counts, negative ones included (the championship's rule);
- ``best_n``: only a player's N best results count;
- ``cup``: each tournament gives points by place from a table the organiser edits (place 1
  gets the first number, …; places beyond the table get nothing); equal totals share a place
  and each of them gets that place's points.
A player with fewer than ``min_tournaments`` results is listed after the ranked players,
without a rank. Beside the ranking: the final's qualification (``qualification``), counted
against the season's plan (``season_plan``: how many tournaments are still to come), and the
change of place (``movements``). Places by total and team ranking: ``tournaments.ranking``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from tournaments.ranking import Key, competition_ranks

SUM = "sum"


BEST_N = "best_n"


CUP = "cup"


@dataclass(frozen=True)
class SeasonRule:
    scoring: str = SUM
    best_of: int | None = None
    cup_points: tuple[int, ...] = ()
    min_tournaments: int = 1

    def __post_init__(self) -> None:
        if self.scoring not in (SUM, BEST_N, CUP):
            raise ValueError(f"unknown season rule {self.scoring!r}")
        if self.scoring == BEST_N and (self.best_of is None or self.best_of < 1):
            raise ValueError("the best-N rule needs N >= 1")
        if self.min_tournaments < 1:
            raise ValueError("min_tournaments must be at least 1")


def cup_points_for(place: int, table: Sequence[int]) -> int:
    return table[place - 1] if 1 <= place <= len(table) else 0


@dataclass(frozen=True)
class SeasonScore:
    score: int  # what the season ranking sorts by
    counted: frozenset  # the tournaments whose result counts towards it
    played: int
    ranked: bool  # enough tournaments played to be ranked


def season_score(
    results: dict[Key, int], rule: SeasonRule, place_of: dict[Key, int] | None = None
) -> SeasonScore:
    """One player's season score from ``results`` (tournament -> total) under ``rule``.

    ``place_of`` (tournament -> place) is needed for cup points.
    """
    played = len(results)
    ranked = played >= rule.min_tournaments
    if rule.scoring == SUM:
        return SeasonScore(sum(results.values()), frozenset(results), played, ranked)
    if rule.scoring == BEST_N:
        # Best first; among equal results the earlier key wins, so the choice is stable.
        best = sorted(results.items(), key=lambda item: -item[1])[: rule.best_of]
        return SeasonScore(
            sum(total for _, total in best), frozenset(k for k, _ in best), played, ranked
        )
    if place_of is None:
        raise ValueError("cup points need each tournament's places")
    points = sum(cup_points_for(place_of[key], rule.cup_points) for key in results)
    return SeasonScore(points, frozenset(results), played, ranked)


@dataclass(frozen=True)
class Ranked:
    key: Hashable
    rank: int | None  # None: not ranked (too few tournaments)
    score: int
    tied: bool


def rank_season(
    scores: dict[Key, SeasonScore], *, name_of: Callable[[Key], str] = str
) -> list[Ranked]:
    """Ranked players by score (ties share a rank, listed by name), then the unranked ones."""
    ranked = sorted(
        (k for k, s in scores.items() if s.ranked), key=lambda k: (-scores[k].score, name_of(k))
    )
    unranked = sorted(
        (k for k, s in scores.items() if not s.ranked),
        key=lambda k: (-scores[k].played, -scores[k].score, name_of(k)),
    )
    ranks = competition_ranks([scores[k].score for k in ranked])
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    rows = [
        Ranked(key=k, rank=r, score=scores[k].score, tied=counts[r] > 1)
        for k, r in zip(ranked, ranks, strict=True)
    ]
    rows += [Ranked(key=k, rank=None, score=scores[k].score, tied=False) for k in unranked]
    return rows


@dataclass(frozen=True)
class Qualification:
    """Where a player stands against the season's "at least N tournaments for the final"."""

    needed: int  # the season's N
    played: int
    missing: int  # tournaments still to play (0: qualified)
    # enough tournaments of the season are still to come; None: nobody knows (the season's
    # plan is unknown), so the player is told how many are missing, never "out of reach"
    reachable: bool | None

    @property
    def qualified(self) -> bool:
        return self.missing == 0


def qualification(
    *, played: int, needed: int | None, remaining: int | None
) -> Qualification | None:
    """``played`` tournaments against the season's rule of ``needed`` (None: no final rule);
    ``remaining``: the season's tournaments still to come (``SeasonPlan.to_come``; None:
    unknown), so that a player who can no longer get there is told so instead of "noch 3
    Turniere", and nobody is told so while the season's plan is unknown."""
    if needed is None:
        return None
    if needed < 1 or played < 0 or (remaining is not None and remaining < 0):
        raise ValueError("needed >= 1, played and remaining >= 0")
    missing = max(0, needed - played)
    if missing == 0:
        reachable: bool | None = True
    elif remaining is None:
        reachable = None
    else:
        reachable = missing <= remaining
    return Qualification(needed=needed, played=played, missing=missing, reachable=reachable)


@dataclass(frozen=True)
class SeasonPlan:
    """What the final's column assumes about the season's tournaments: how many it holds in
    all, how many have results, how many are over without any, how many are still to come
    (``planned == played + lapsed + to_come`` whenever the plan is known)."""

    planned: int | None  # None: the season names neither planned dates nor a planned number
    played: int  # tournaments with at least one result
    lapsed: int  # their day is past without any result (a tournament, or a planned date)
    to_come: int | None  # None: unknown (no plan, and the season has not ended)

    @property
    def known(self) -> bool:
        return self.planned is not None


def open_planned_dates(planned: Iterable[dt.date], held: Iterable[dt.date]) -> list[dt.date]:
    """The planned dates no tournament has taken yet: each tournament takes one planned date
    of its own day (two planned on one day need two tournaments that day), so a tournament
    created for a planned date is counted once, never as the plan and itself."""
    left = Counter(planned) - Counter(held)
    return sorted(left.elements())


def season_plan(
    *,
    today: dt.date,
    ends_on: dt.date,
    tournaments: Iterable[tuple[dt.date, bool]],
    planned_dates: Iterable[dt.date] = (),
    planned_count: int | None = None,
) -> SeasonPlan:
    """The season's tournaments as the final's column counts them.

    ``tournaments``: (date, has any result) of each tournament of the season created so far;
    ``planned_dates``: the season's calendar (a tournament on a planned date takes it);
    ``planned_count``: how many tournaments the season holds in all (None: not said). A
    tournament with results is played; one without, whose day is past, is over (not to come),
    and so is a planned date past without a tournament; from today on both are to come. A
    planned number beyond the dates known is that many more tournaments to come until the
    season's last day, over after it; a number below the tournaments and dates known is
    outdated (they count). Without planned dates or a number the plan is unknown: nothing is
    known to come while the season runs, and only the tournaments created are after its end.
    """
    created = list(tournaments)
    planned_dates = list(planned_dates)
    if planned_count is not None and planned_count < 1:
        raise ValueError("planned_count must be at least 1")
    played = sum(1 for _, scored in created if scored)
    lapsed = sum(1 for day, scored in created if not scored and day < today)
    to_come = sum(1 for day, scored in created if not scored and day >= today)
    open_dates = open_planned_dates(planned_dates, (day for day, _ in created))
    lapsed += sum(1 for day in open_dates if day < today)
    to_come += sum(1 for day in open_dates if day >= today)
    over = today > ends_on
    if not planned_dates and planned_count is None:
        return SeasonPlan(
            planned=None, played=played, lapsed=lapsed, to_come=to_come if over else None
        )
    known = len(created) + len(open_dates)
    undated = max(0, (planned_count or 0) - known)
    if over:
        lapsed += undated
    else:
        to_come += undated
    return SeasonPlan(planned=known + undated, played=played, lapsed=lapsed, to_come=to_come)


UP, DOWN, SAME, NEW = "up", "down", "same", "new"


@dataclass(frozen=True)
class Movement:
    """A player's change of rank since the season's previous tournament."""

    kind: str  # up, down, same, new (not ranked before)
    by: int = 0  # places gained or lost


def movements(before: dict[Key, int | None], after: dict[Key, int | None]) -> dict[Key, Movement]:
    """Each player ranked ``after`` (key -> rank, None: not ranked) against the ranks
    ``before``: up or down by how many places, the same, or new (not ranked before). The
    unranked get none."""
    result: dict[Key, Movement] = {}
    for key, rank in after.items():
        if rank is None:
            continue
        previous = before.get(key)
        if previous is None:
            result[key] = Movement(NEW)
        elif previous > rank:
            result[key] = Movement(UP, previous - rank)
        elif previous < rank:
            result[key] = Movement(DOWN, rank - previous)
        else:
            result[key] = Movement(SAME)
    return result


# Who can still win: before and during the season's final (``chances``).
LEADER, NEEDS, ANY_RESULT, OUT_OF_REACH = "leader", "needs", "any_result", "out_of_reach"


@dataclass(frozen=True)
class Contender:
    """One player going into (or through) the season's final, as ``chances`` reads them.

    ``results``/``places``: the season's tournaments *other than the final* (tournament ->
    total, tournament -> place; the places are needed for cup points only); ``final_total``
    and ``final_place``: the final's result so far (None: none yet); ``can_play``: the
    player may still score in the final (before it: anyone; during it: an entry that has not
    withdrawn)."""

    key: Hashable
    results: dict[Key, int]
    places: dict[Key, int]
    final_total: int | None = None
    final_place: int | None = None
    can_play: bool = True


@dataclass(frozen=True)
class Chance:
    """What a contender needs in the (rest of the) final to pass the leader.

    ``kind``: LEADER (first, alone or sharing the place); NEEDS (``points``, see below);
    ANY_RESULT (a result in the final is enough: a player who is not ranked yet and ranked
    with it above the leader); OUT_OF_REACH (nothing the final gives passes the leader).
    ``points`` under NEEDS: sum, "this many points more than the leader" in the rest of the
    final (exact: if the leader plays no further deal, that many points); best N, this many
    further points in the final if the leader does not improve; cup, this many cup points
    more than the leader (the final's places may still change both sides). ``bound``: the
    most the rest of the final can swing (cup points, bounded by the table), None where
    points are not bounded (game points)."""

    key: Hashable
    kind: str
    score: int  # the season score now
    points: int | None = None
    bound: int | None = None


def _with_final(contender: Contender, final_key: Key, total: int | None, place: int | None):
    results = dict(contender.results)
    places = dict(contender.places)
    if total is not None:
        results[final_key] = total
        if place is not None:
            places[final_key] = place
    return results, places


def current_score(contender: Contender, rule: SeasonRule, *, final_key: Key) -> SeasonScore:
    """The contender's season score as it stands (the final's result so far included)."""
    results, places = _with_final(
        contender, final_key, contender.final_total, contender.final_place
    )
    return season_score(results, rule, places if rule.scoring == CUP else None)


def _best_n_needed(prior: Sequence[int], n: int, target: int) -> int | None:
    """The smallest final result x with best-n(prior + [x]) > target; None: any x does."""
    best = sorted(prior, reverse=True)
    if len(best) < n:
        return target - sum(best) + 1
    top = best[:n]
    if sum(top) > target:
        return None
    # best-n(prior + [x]) = sum(top) + max(0, x - weakest counted)
    return target - sum(top) + top[-1] + 1


def chances(contenders: Sequence[Contender], rule: SeasonRule, *, final_key: Key) -> list[Chance]:
    """Each contender's chance to pass the season's leader in the final (``final_key``: the
    final's tournament key, absent from every ``results``), in the order given.

    The leader: the best season score as it stands among the ranked players (the final's
    results so far included); equal scores share the place (the season's tie rule), so all of
    them are LEADER, and to *pass* means a higher score than every one of them. A player with
    too few tournaments to be ranked even with the final is OUT_OF_REACH, and so is one who
    can no longer score in it. Empty when nobody is ranked."""
    now = {c.key: current_score(c, rule, final_key=final_key) for c in contenders}
    ranked = [score.score for score in now.values() if score.ranked]
    if not ranked:
        return []
    top = max(ranked)
    leaders = [c for c in contenders if now[c.key].ranked and now[c.key].score == top]
    cup_max = max((*rule.cup_points, 0)) if rule.scoring == CUP else 0
    result: list[Chance] = []
    for contender in contenders:
        score = now[contender.key]
        if score.ranked and score.score == top:
            result.append(Chance(contender.key, LEADER, score.score))
            continue
        in_final = contender.can_play or contender.final_total is not None
        played_after = len(contender.results) + (1 if in_final else 0)
        if played_after < rule.min_tournaments:
            result.append(Chance(contender.key, OUT_OF_REACH, score.score))
            continue
        gap = top - score.score
        if rule.scoring == SUM:
            # "more than the leader": a contender who can score no more passes only if every
            # leader can still lose points
            if contender.can_play or all(c.can_play for c in leaders):
                result.append(Chance(contender.key, NEEDS, score.score, points=gap + 1))
            else:
                result.append(Chance(contender.key, OUT_OF_REACH, score.score))
        elif rule.scoring == BEST_N:
            # the leader's best N never fall: only the contender's own final can do it
            assert rule.best_of is not None
            needed = _best_n_needed(list(contender.results.values()), rule.best_of, top)
            if not contender.can_play:
                result.append(Chance(contender.key, OUT_OF_REACH, score.score))
            elif needed is None:
                result.append(Chance(contender.key, ANY_RESULT, score.score))
            else:
                so_far = contender.final_total or 0
                result.append(Chance(contender.key, NEEDS, score.score, points=needed - so_far))
        else:
            # the final's places may still change for whoever has a result in it: the
            # contender may rise to the table's best, every leader fall to nothing; passing all
            # leaders is bounded by the one with the fewest cup points to lose
            own_now = cup_points_for(contender.final_place or 0, rule.cup_points)
            can_rise = contender.can_play or contender.final_place is not None
            leaders_now = min(cup_points_for(c.final_place or 0, rule.cup_points) for c in leaders)
            bound = (cup_max - own_now if can_rise else 0) + leaders_now
            if gap + 1 > bound:
                result.append(Chance(contender.key, OUT_OF_REACH, score.score, bound=bound))
            else:
                result.append(
                    Chance(contender.key, NEEDS, score.score, points=gap + 1, bound=bound)
                )
    return result
