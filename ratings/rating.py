"""The rating across seasons as pure functions (no Django, no database): a round's table
turned into a match, and matches into new ratings with openskill's Plackett-Luce model.

**A match** is one table in one round: its players ranked by the points each made at that
table in that round (higher is better; equal points share the rank: 1, 1, 3, 4). Tables are
taken in round order, then by table number; the tables of one round share no player, so their
order inside the round changes nothing. A table with fewer than two players who scored is no
match. A player who sat twice at one table (a substitute for himself) counts once, with both
seats' points.

**A rating** is openskill's pair (mu, sigma): the skill it believes in and how unsure it is.
Everybody starts at mu 25, sigma 25/3 (openskill's defaults). Each match moves mu up for a
player who finished above what the table's ratings expected and down for one below; sigma
shrinks with every match (less so the more matches there were: openskill's tau adds a little
uncertainty back each time, so a rating stays able to move across seasons).

**The number shown** (the "Wertungszahl") is the conservative estimate mu - 3 sigma, openskill's
``ordinal``, scaled to a familiar range: ``1000 + 20 * (mu - 3 sigma)``. A newcomer shows 1000
(the ordinal is 0); a regular of average skill climbs to about 1 350 as the rating grows sure;
the strongest regulars reach 1 500 to 1 600. The ordinal is used rather than mu alone so that a
single lucky tournament does not put a newcomer on top: the number rises as the rating becomes
certain, which is also why it is plainly not the championship's ranking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import permutations, product
from typing import TypeVar

from openskill.models import PlackettLuce

from tournaments.ranking import places

MU = 25.0
SIGMA = 25.0 / 3.0
Z = 3.0  # the conservative estimate's number of sigmas (openskill's ordinal)
DISPLAY_BASE = 1000
DISPLAY_SCALE = 20
# The way ratings are worked out, stored with them (``RatingLock.method``): change it with any
# change here or in ``ratings.selectors.tournament_matches`` that rates the same tournaments
# differently, and the first run after the upgrade replays every season.
METHOD = "plackett-luce/tied-orders-averaged/1"
# Fewer finished tournaments than this: the rating is listed apart, as "vorläufig".
PROVISIONAL_BELOW = 3

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @property
    def display(self) -> int:
        return display_number(self.mu, self.sigma)


NEWCOMER = Skill()


def display_number(mu: float, sigma: float) -> int:
    """The number shown for (mu, sigma): ``1000 + 20 * (mu - 3 sigma)``, rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - Z * sigma))


def is_provisional(tournaments: int) -> bool:
    return tournaments < PROVISIONAL_BELOW


def table_ranks(points: Mapping[K, int]) -> dict[K, int]:
    """Each player's rank at a table by points, best first; equal points share the rank
    (competition ranking: 1, 1, 3)."""
    return places(dict(points))


@dataclass(frozen=True)
class Match:
    round_number: int
    table_number: int
    points: tuple[tuple[int, int], ...]  # (player id, points at that table), by player id

    @property
    def ranks(self) -> dict[int, int]:
        return table_ranks(dict(self.points))


def table_matches(rows: Iterable[tuple[int, int, int, int]]) -> list[Match]:
    """The matches of one tournament from ``(round number, table number, player id, points)``
    rows (a player's seats at one table added up), in round and table order; a table with
    fewer than two players is left out."""
    tables: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for round_number, table_number, player_id, points in rows:
        at = tables[(round_number, table_number)]
        at[player_id] = at.get(player_id, 0) + points
    return [
        Match(round_number=key[0], table_number=key[1], points=tuple(sorted(at.items())))
        for key, at in sorted(tables.items())
        if len(at) >= 2
    ]


@dataclass
class TournamentOutcome:
    """What one tournament did to its players' ratings."""

    tournament_id: int
    before: dict[int, Skill] = field(default_factory=dict)
    after: dict[int, Skill] = field(default_factory=dict)
    matches: dict[int, int] = field(default_factory=dict)  # player -> tables rated


class Rater:
    """Plackett-Luce with openskill's defaults (mu 25, sigma 25/3, tau 25/300)."""

    def __init__(self) -> None:
        self.model = PlackettLuce(mu=MU, sigma=SIGMA)

    def rate_match(self, skills: Mapping[int, Skill], match: Match) -> dict[int, Skill]:
        """The new skills of the match's players (absent from ``skills``: newcomers).

        Ties: openskill 6.2's Plackett-Luce handles equal ranks as the Weng-Lin paper's formula
        does (a tied group shares its terms), and under that formula a player who finished
        behind a tie can move like the tied players: four equal newcomers ranked 1, 1, 3, 4
        come out at mu 25.93, 25.93, 25.93, 22.21, the third as well as the two who beat him.
        That is the formula, not a bug of the library (its issues 155, 173 and 201 discuss
        it). A Cego table is ranked by points, so here a tie is rated in every order it could
        have been broken in (at most 5! = 120 for a table of five all equal) and each player's
        new mu and sigma are the average over those orders: 27.17, 27.17, 24.69, 20.96 for the
        table above. This averaging is our heuristic, not the paper's: tied players of equal
        ratings move alike, and nobody who finished behind a tie gains as much as the tied
        (``tests/ratings/test_rating.py`` holds both properties)."""
        groups: dict[int, list[int]] = defaultdict(list)
        for player, rank in sorted(match.ranks.items(), key=lambda item: (item[1], item[0])):
            groups[rank].append(player)
        before = {player: skills.get(player, NEWCOMER) for player, _points in match.points}
        mu: dict[int, float] = defaultdict(float)
        sigma: dict[int, float] = defaultdict(float)
        orders = list(product(*(permutations(groups[rank]) for rank in sorted(groups))))
        for order in orders:
            players = [player for group in order for player in group]
            teams = [
                [self.model.rating(mu=before[player].mu, sigma=before[player].sigma)]
                for player in players
            ]
            rated = self.model.rate(teams, ranks=[float(place) for place in range(len(players))])
            for player, team in zip(players, rated, strict=True):
                mu[player] += team[0].mu
                sigma[player] += team[0].sigma
        return {
            player: Skill(mu=mu[player] / len(orders), sigma=sigma[player] / len(orders))
            for player in before
        }

    def rate_tournament(
        self, skills: dict[int, Skill], *, tournament_id: int, matches: Iterable[Match]
    ) -> TournamentOutcome:
        """Rate ``matches`` one after the other, updating ``skills`` in place."""
        outcome = TournamentOutcome(tournament_id=tournament_id)
        for match in matches:
            for player, _points in match.points:
                if player not in outcome.before:
                    outcome.before[player] = skills.get(player, NEWCOMER)
                outcome.matches[player] = outcome.matches.get(player, 0) + 1
            skills.update(self.rate_match(skills, match))
        outcome.after = {player: skills[player] for player in outcome.before}
        return outcome

    def replay(
        self, start: Mapping[int, Skill], tournaments: Iterable[tuple[int, list[Match]]]
    ) -> tuple[dict[int, Skill], list[TournamentOutcome]]:
        """Every tournament in the order given, from ``start``: the skills at the end and
        each tournament's outcome."""
        skills = dict(start)
        outcomes = [
            self.rate_tournament(skills, tournament_id=tournament_id, matches=matches)
            for tournament_id, matches in tournaments
        ]
        return skills, outcomes
