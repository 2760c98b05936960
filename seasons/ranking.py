"""Season rules as pure functions (no Django, no database).

Season rules (``Season.scoring``):
- ``sum``: every tournament result counts, negative ones included (the championship's rule);
- ``best_n``: only a player's N best results count;
- ``cup``: each tournament gives points by place from a table the organiser edits (place 1
  gets the first number, …; places beyond the table get nothing); equal totals share a place
  and each of them gets that place's points.
A player with fewer than ``min_tournaments`` results is listed after the ranked players,
without a rank. Places by total and team ranking: ``tournaments.ranking``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
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
