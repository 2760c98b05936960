"""A deal as written on a paper sheet: check that the rule source can produce these amounts.

A paper score sheet has the contract and each player's plus or minus, not the card points.
:func:`written_outcomes` lists every score row the engine can produce for a contract at a
table (by scoring representative inputs with :func:`scoring.score_deal`, so no rule is
repeated here); :func:`check_written` matches a written row against them, filling in the
amounts that follow from the declarer's, and otherwise raises :class:`ScoringError` with what
the amounts could be ("Halbe, lost: 20, 40, 60 … to each defender; 25 is not possible").
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scoring.cards import pack_for, raeuber_points_possible, raeuber_seat_range
from scoring.deal import Bonus, DealInput, Penalty
from scoring.engine import score_deal
from scoring.errors import ScoringError
from scoring.rulesource import RuleSource

# lists of possible amounts longer than this are shortened to "a, b, c, d … z"
_SHOWN = 4


@dataclass(frozen=True, slots=True)
class Outcome:
    """One score row the rule source can produce; ``won`` is the declarer side's result for
    games that have one (None for Räuber, Drescher and penalties)."""

    scores: tuple[int, ...]
    won: bool | None
    per_opponent: int | None
    penalty: bool = False


def _knock_options(rules: RuleSource) -> tuple[int | None, ...]:
    if rules.knocking is None:
        return (None,)
    return (None, *range(1, rules.knocking.max + 1))


def _game_inputs(
    rules: RuleSource, seats: int, contract: str, declarer: int, out: int | None
) -> Iterator[DealInput]:
    """Representative inputs covering every amount the contract can score."""
    table = rules.tables[seats]
    kind = rules.contracts[contract].kind
    active = [seat for seat in range(seats) if seat != out]
    base: dict[str, Any] = {
        "seats": seats,
        "contract": contract,
        "declarer": declarer,
        "sitting_out": out,
    }
    for knocks in _knock_options(rules):
        common = {**base, "knocks": knocks}
        if kind == "normal":
            solo_options = (None, True) if contract in rules.ladder_set else (None,)
            for after_solo in solo_options:
                for points in range(table.entered_total + 1):
                    yield DealInput(**common, after_solo=after_solo, declarer_points=points)
                yield DealInput(
                    **common, after_solo=after_solo, declarer_points=0, declarer_tricks=0
                )
        elif kind == "fixed":
            ouvert_options = (None, True) if rules.ouvert_multiplier is not None else (None,)
            for won, ouvert in itertools.product((True, False), ouvert_options):
                yield DealInput(**common, won=won, ouvert=ouvert)
        elif kind == "raeuber":
            yield from _raeuber_inputs(common, rules, seats, active)
        else:
            for taker in active:
                yield DealInput(**common, last_trick=taker)


def _raeuber_inputs(
    common: dict, rules: RuleSource, seats: int, active: list[int]
) -> Iterator[DealInput]:
    """Every set of tied losers, with every number of players who took no trick: a deal that
    can happen for each (the engine refuses points no deal ends with)."""
    table = rules.tables[seats]
    for size in range(1, len(active) + 1):
        for losers in itertools.combinations(active, size):
            others = [seat for seat in active if seat not in losers]
            for empty in range(len(others) + 1):
                points = [0] * seats
                tricks = [0] * seats
                for seat in others[empty:]:
                    points[seat] = tricks[seat] = 1
                for seat in losers:
                    tricks[seat] = 1
                if table.tricks is not None:
                    # every trick is taken by someone: the losers share the spare ones
                    spare = table.tricks - sum(tricks)
                    for index, seat in enumerate(losers):
                        tricks[seat] += spare // size + (index < spare % size)
                for seat in others[empty:]:
                    points[seat] = _fewest(rules, seats, tricks[seat])
                for most in _most_candidates(rules, seats, max(points) + 1):
                    for seat in losers:
                        points[seat] = most
                    if _possible(rules, seats, active, points, tricks):
                        break
                yield DealInput(**common, points=tuple(points), tricks=tuple(tricks))


def _fewest(rules: RuleSource, seats: int, tricks: int) -> int:
    """The fewest points ``tricks`` Räuber tricks count (1 where the pack is not known)."""
    table, counting = rules.tables[seats], rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    if pack is None or table.tricks is None:
        return 1
    return raeuber_seat_range(
        pack,
        tricks,
        active=table.active,
        deal_tricks=table.tricks,
        method=counting.method,
        leftover_deduction=counting.leftover_deduction,
    )[0]


def _most_candidates(rules: RuleSource, seats: int, least: int) -> range:
    return range(max(2, least), rules.tables[seats].entered_total + 1)


def _possible(
    rules: RuleSource, seats: int, active: list[int], points: list[int], tricks: list[int]
) -> bool:
    table, counting = rules.tables[seats], rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    if pack is None or table.tricks is None:
        return sum(points) <= table.entered_total
    return sum(points) <= table.entered_total and raeuber_points_possible(
        pack,
        [points[seat] for seat in active],
        [tricks[seat] for seat in active],
        active=table.active,
        deal_tricks=table.tricks,
        method=counting.method,
        leftover_deduction=counting.leftover_deduction,
    )


def _penalty_inputs(
    rules: RuleSource, seats: int, contract: str, declarer: int, out: int | None
) -> Iterator[DealInput]:
    if rules.penalty is None:
        return
    solo_options = (None, True) if contract in rules.ladder_set else (None,)
    for kind in sorted(rules.penalty.kinds):
        for seat in range(seats):
            if seat == out:
                continue
            for after_solo in solo_options:
                yield DealInput(
                    seats=seats,
                    contract=contract,
                    declarer=declarer,
                    sitting_out=out,
                    after_solo=after_solo,
                    penalty=Penalty(seat, kind),
                )


@lru_cache(maxsize=256)
def _bonus_effects(
    rules: RuleSource, seats: int, contract: str, declarer: int, out: int | None
) -> frozenset[tuple[int, ...]]:
    """Every sum of bonuses one deal can carry, as score changes (the engine scores each)."""
    if not rules.bonuses:
        return frozenset({(0,) * seats})
    kind = rules.contracts[contract].kind
    base = next(_game_inputs(rules, seats, contract, declarer, out))
    plain = score_deal(rules, base).scores
    active = [seat for seat in range(seats) if seat != out]
    per_kind: list[list[tuple[int, ...]]] = []
    for name, rule in rules.bonuses.items():
        if rule.scope == "team" and kind in ("raeuber", "drescher"):
            continue
        claims = [Bonus(name, seat, won) for seat in active for won in _won_options(rule.scope)]
        single = [
            tuple(
                a - b
                for a, b in zip(
                    score_deal(rules, _with_bonuses(base, (claim,))).scores, plain, strict=True
                )
            )
            for claim in claims
        ]
        if rule.unique or rule.scope == "team":
            choices = [(0,) * seats, *single]
        else:  # several players may each hold it
            choices = [
                _add(seats, *combo)
                for count in range(len(single) + 1)
                for combo in itertools.combinations(single, count)
            ]
        per_kind.append(choices)
    return frozenset(_add(seats, *combo) for combo in itertools.product(*per_kind))


def _won_options(scope: str) -> tuple[bool | None, ...]:
    return (True, False) if scope == "team" else (None,)


def _with_bonuses(deal: DealInput, bonuses: tuple[Bonus, ...]) -> DealInput:
    fields = {name: getattr(deal, name) for name in DealInput.__dataclass_fields__}
    fields["bonuses"] = bonuses
    return DealInput(**fields)


def _add(seats: int, *rows: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(row[seat] for row in rows) for seat in range(seats))


@lru_cache(maxsize=256)
def written_outcomes(
    rules: RuleSource, *, seats: int, contract: str, declarer: int, sitting_out: int | None
) -> tuple[Outcome, ...]:
    """Every distinct score row ``contract`` can produce with this declarer at this table.

    Raises :class:`ScoringError` where the deal itself is impossible (unknown or forbidden
    contract, a seat that does not exist or sits out).
    """
    # a bare deal raises the table, contract and seat errors first, each with its field
    try:
        score_deal(
            rules,
            DealInput(seats=seats, contract=contract, declarer=declarer, sitting_out=sitting_out),
        )
    except ScoringError as error:
        if error.code != "required":
            raise
    seen: dict[tuple[int, ...], Outcome] = {}
    for deal in _game_inputs(rules, seats, contract, declarer, sitting_out):
        result = score_deal(rules, deal)
        scores = result.scores
        won = None
        if rules.contracts[contract].kind in ("normal", "fixed"):
            won = scores[declarer] > 0 or (scores[declarer] == 0 and bool(deal.won))
        seen.setdefault(scores, Outcome(scores, won, result.per_opponent))
    for deal in _penalty_inputs(rules, seats, contract, declarer, sitting_out):
        result = score_deal(rules, deal)
        seen.setdefault(result.scores, Outcome(result.scores, None, result.per_opponent, True))
    return tuple(seen.values())


def check_written(
    rules: RuleSource,
    *,
    seats: int,
    contract: str,
    declarer: int,
    sitting_out: int | None,
    amounts: Sequence[int | None],
) -> Outcome:
    """Match a written row; ``None`` marks an amount that follows from the others.

    Returns the matching outcome (its ``scores`` are the complete row). Raises
    :class:`ScoringError` (field ``amounts``) when the row does not add up to zero, when no
    outcome of the rule source has these amounts, or when they leave the row open.
    """
    if len(amounts) != seats:
        raise ScoringError("amounts", "length", seats=seats)
    given = {seat: value for seat, value in enumerate(amounts) if value is not None}
    if not given:
        raise ScoringError("amounts", "required")
    outcomes = written_outcomes(
        rules, seats=seats, contract=contract, declarer=declarer, sitting_out=sitting_out
    )
    if len(given) == seats and sum(given.values()) != 0:
        raise ScoringError("amounts", "written_sum", sum=sum(given.values()))
    effects = _bonus_effects(rules, seats, contract, declarer, sitting_out)
    matches: dict[tuple[int, ...], Outcome] = {}
    for outcome in outcomes:
        for effect in effects:
            row = tuple(a + b for a, b in zip(outcome.scores, effect, strict=True))
            if all(row[seat] == value for seat, value in given.items()):
                matches.setdefault(row, Outcome(row, outcome.won, outcome.per_opponent))
    if len(matches) == 1:
        match = next(iter(matches.values()))
        if sum(match.scores) != 0:  # a declarer-only rule source: the row cannot balance
            raise ScoringError("amounts", "written_sum", sum=sum(match.scores))
        return match
    if matches:
        raise ScoringError("amounts", "written_ambiguous", contract=_name(rules, contract))
    raise _impossible(rules, contract, declarer, outcomes, given)


def _name(rules: RuleSource, contract: str) -> str:
    # Cego's contract names are proper names: the German one in every language
    return rules.contracts[contract].names.de


def _listed(amounts: set[int]) -> str:
    values = sorted(amounts)
    if len(values) <= _SHOWN + 1:
        return ", ".join(str(v) for v in values)
    return ", ".join(str(v) for v in values[:_SHOWN]) + " … " + str(values[-1])


def _impossible(
    rules: RuleSource,
    contract: str,
    declarer: int,
    outcomes: tuple[Outcome, ...],
    given: dict[int, int],
) -> ScoringError:
    name = _name(rules, contract)
    games = [o for o in outcomes if not o.penalty]
    others = [v for seat, v in given.items() if seat != declarer]
    if rules.contracts[contract].kind in ("normal", "fixed"):
        if others and len(set(others)) == 1:
            # the defenders' amount was typed: list what each defender pays or receives
            won = {o.per_opponent or 0 for o in games if o.won}
            lost = {o.per_opponent or 0 for o in games if not o.won}
            return ScoringError(
                "amounts",
                "written_impossible",
                contract=name,
                won=_listed(won) or "—",
                lost=_listed(lost) or "—",
                amount=abs(others[0]),
            )
        written = given.get(declarer)
        declared_won = {abs(o.scores[declarer]) for o in games if o.won}
        declared_lost = {abs(o.scores[declarer]) for o in games if not o.won}
        if others and (written is None or abs(written) in declared_won | declared_lost):
            # the declarer's amount can be; the defenders' amounts differ from each other
            return ScoringError("amounts", "written_defenders_differ", contract=name)
        # the declarer's amount was typed: list the declarer's amounts (the same unit)
        return ScoringError(
            "amounts",
            "written_impossible_declarer",
            contract=name,
            won=_listed(declared_won) or "—",
            lost=_listed(declared_lost) or "—",
            amount=abs(written or 0),
        )
    if others and len(set(others)) == 1:
        written = abs(others[0])
    else:
        written = abs(given.get(declarer, others[0] if others else 0))
    paid = {o.per_opponent or 0 for o in games}
    return ScoringError(
        "amounts", "written_impossible_loser", contract=name, paid=_listed(paid), amount=written
    )
