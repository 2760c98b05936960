"""Scoring one deal under one rule source. Pure functions; every rule comes from the source."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.cards import (
    declarer_points_range,
    pack_for,
    raeuber_points_possible,
    raeuber_seat_range,
)
from scoring.deal import DealInput
from scoring.errors import ScoringError
from scoring.rulesource import (
    Contract,
    Counting,
    DrescherContract,
    FixedContract,
    NormalContract,
    RaeuberContract,
    RuleSource,
    TableRule,
)


@dataclass(frozen=True, slots=True)
class DealResult:
    scores: tuple[int, ...]
    unit: str
    per_opponent: int | None = None


def _allowed(sizes: tuple[int, ...]) -> str:
    words = [str(size) for size in sizes]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class _Ledger:
    """Scores of one deal, filled by payments between a central player and the others."""

    __slots__ = ("scores", "each")

    def __init__(self, seats: int, each: bool) -> None:
        self.scores = [0] * seats
        self.each = each  # distribution "each_defender"; else "declarer_only"

    def settle(self, central: int, others: Sequence[int], amount: int) -> None:
        """``central`` receives ``amount`` from each of ``others`` (pays, if negative)."""
        if self.each:
            self.scores[central] += amount * len(others)
            for seat in others:
                self.scores[seat] -= amount
        else:
            self.scores[central] += amount


def score_deal(rules: RuleSource, deal: DealInput) -> DealResult:
    """Score ``deal`` under ``rules``; raise :class:`ScoringError` naming the offending field."""
    seats = deal.seats
    table = rules.tables.get(seats)
    if table is None:
        raise ScoringError(
            "seats",
            "table_size",
            source=rules.slug,
            allowed=_allowed(rules.table_sizes),
            seats=seats,
        )
    out = deal.sitting_out
    if table.active < seats:
        if out is None:
            raise ScoringError("sitting_out", "sitting_out_required", seats=seats)
        _active_seat(out, seats, None, "sitting_out")
    elif out is not None:
        raise ScoringError("sitting_out", "sitting_out_not_allowed", seats=seats, source=rules.slug)
    name = deal.contract
    contract = rules.contracts.get(name)
    if contract is None:
        if name in rules.unpriced:
            raise ScoringError("contract", "unpriced_contract", source=rules.slug, contract=name)
        raise ScoringError("contract", "unknown_contract", source=rules.slug, contract=name)
    if name in table.forbidden:
        raise ScoringError(
            "contract", "contract_forbidden", contract=name, seats=seats, source=rules.slug
        )
    declarer = _active_seat(deal.declarer, seats, out, "declarer")
    payers, defenders = _seating(seats, out, table.sitting_out_scores == "defender", declarer)
    knocks = deal.knocks
    factor = 1
    if knocks is not None:
        if rules.knocking is None:
            raise ScoringError("knocks", "no_knocking", source=rules.slug)
        limit = rules.knocking.max_for(name)  # e.g. Dreierles: 3 in a Räuber, 2 in a bid game
        if knocks > limit:
            raise ScoringError("knocks", "knocks_range", max=limit)
        factor = 2**knocks
    ledger = _Ledger(seats, rules.distribution == "each_defender")
    if deal.penalty is not None:
        # scored as the penalty instead: the game's own fields and bonuses do not count
        per: int | None = _penalty(rules, deal, contract, table, ledger, payers, out)
        return DealResult(tuple(ledger.scores), rules.unit, per)
    _check_applicable(rules, deal, contract)
    kind = contract.kind
    if kind == "normal":
        per = _normal(rules, deal, contract, table, factor)  # type: ignore[arg-type]
        ledger.settle(declarer, defenders, per)
    elif kind == "fixed":
        per = _fixed(rules, deal, contract) * factor  # type: ignore[arg-type]
        ledger.settle(declarer, defenders, per)
    elif kind == "raeuber":
        per = _raeuber(rules, deal, contract, table, ledger, payers, out, factor)  # type: ignore[arg-type]
    else:
        per = _drescher(deal, contract, ledger, payers, out, factor)  # type: ignore[arg-type]
    if deal.bonuses:
        _bonuses(rules, deal, ledger, payers, out, declarer, defenders, factor)
    return DealResult(tuple(ledger.scores), rules.unit, None if per is None else abs(per))


@lru_cache(maxsize=1024)
def _seating(
    seats: int, out: int | None, out_pays: bool, declarer: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who pays and receives (active players, and the seat sitting out if it scores like a
    defender), and which of them are the declarer's opponents."""
    payers = tuple(seat for seat in range(seats) if seat != out or out_pays)
    return payers, tuple(seat for seat in payers if seat != declarer)


def _active_seat(seat: int, seats: int, out: int | None, field: str) -> int:
    if seat >= seats:
        raise ScoringError(field, "seat_range", seat=seat, seats=seats)
    if seat == out:
        raise ScoringError(field, "seat_sits_out", seat=seat)
    return seat


# fields each contract kind does not use, in the order they are reported
_ORDER = (
    "declarer_points",
    "declarer_tricks",
    "after_solo",
    "won",
    "ouvert",
    "points",
    "tricks",
    "last_round",
)
_USED = {
    "normal": {"declarer_points", "declarer_tricks", "after_solo"},
    "fixed": {"won", "ouvert"},
    "raeuber": {"points", "tricks", "last_round"},
    "drescher": {"last_trick"},
}
_UNUSED = {
    kind: [f for f in (*_ORDER, "last_trick") if f not in used] for kind, used in _USED.items()
}
_FLAGS = frozenset({"after_solo", "ouvert", "last_round"})  # false flags are harmless anywhere


_UNUSED_SETS = {kind: frozenset(fields) for kind, fields in _UNUSED.items()}


def _check_applicable(rules: RuleSource, deal: DealInput, contract: Contract) -> None:
    """A field the contract does not use is an error: it hints at a wrongly entered deal."""
    if _UNUSED_SETS[contract.kind].isdisjoint(deal.__dict__):
        # the batch's DealInputs hold only the fields given (the rest are the class's None
        # defaults), so most deals are done with one set operation
        return
    for field in _UNUSED[contract.kind]:
        value = getattr(deal, field)
        if value is not None and (value or field not in _FLAGS):
            raise ScoringError(field, "not_applicable", contract=deal.contract, source=rules.slug)


def _normal(
    rules: RuleSource, deal: DealInput, contract: NormalContract, table: TableRule, factor: int
) -> int:
    points = deal.declarer_points
    if points is None:
        raise ScoringError("declarer_points", "required")
    if points > table.entered_total:
        raise ScoringError("declarer_points", "points_range", total=table.entered_total)
    counting = rules.counting
    tricks = deal.declarer_tricks
    if tricks is not None and table.tricks is not None and tricks > table.tricks:
        raise ScoringError("declarer_tricks", "tricks_range", tricks=table.tricks, seats=deal.seats)
    if tricks == 0 and counting.no_trick_zero:
        if points:  # no trick: the blind went to the defenders, so nothing was counted
            raise ScoringError("declarer_points", "no_trick_points", points=points)
        points = 0  # no bonus point either
    else:
        if tricks:
            _check_declarer_points(counting, table, tricks, points)
        points += table.declarer_bonus
    contract, value = _game_value(rules, deal, contract)
    multiplier = contract.win_multiplier if points >= counting.win_at else contract.loss_multiplier
    return rules.normal.model.per_defender(counting, points, value, multiplier) * factor


@lru_cache(maxsize=256)
def _declarer_range(counting: Counting, table: TableRule, tricks: int) -> tuple[int, int] | None:
    """What a declarer with ``tricks`` can count at ``table`` (None: a pack not known here)."""
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    if pack is None or table.tricks is None or len(pack) < table.active * table.tricks:
        return None
    return declarer_points_range(
        pack,
        active=table.active,
        deal_tricks=table.tricks,
        tricks=tricks,
        blind_to_declarer=counting.blind_to_declarer,
        method=counting.method,
        leftover_deduction=counting.leftover_deduction,
    )


def _check_declarer_points(counting: Counting, table: TableRule, tricks: int, points: int) -> None:
    """Card points the declarer's tricks (and blind) cannot count are an error."""
    bounds = _declarer_range(counting, table, tricks)
    if bounds is None or bounds[0] <= points <= bounds[1]:
        return
    if bounds[0] == bounds[1]:
        raise ScoringError(
            "declarer_points", "all_tricks_points", tricks=tricks, total=bounds[0], points=points
        )
    raise ScoringError(
        "declarer_points",
        "tricks_points",
        tricks=tricks,
        low=bounds[0],
        high=bounds[1],
        points=points,
    )


def _check_raeuber_points(
    counting: Counting,
    table: TableRule,
    points: Sequence[int],
    tricks: Sequence[int] | None,
    active: Sequence[int],
) -> None:
    """Räuber points no deal can end with are an error: each player's tricks count at least
    their cards' fewest points, at most their most, and the tricks of a deal add up."""
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    if pack is None or table.tricks is None or len(pack) < table.active * table.tricks:
        return
    if raeuber_points_possible(
        pack,
        [points[seat] for seat in active],
        None if tricks is None else [tricks[seat] for seat in active],
        active=table.active,
        deal_tricks=table.tricks,
        method=counting.method,
        leftover_deduction=counting.leftover_deduction,
    ):
        return
    if tricks is not None:
        for seat in active:
            if not tricks[seat]:
                continue  # no trick and points: reported above
            low, high = raeuber_seat_range(
                pack,
                tricks[seat],
                active=table.active,
                deal_tricks=table.tricks,
                method=counting.method,
                leftover_deduction=counting.leftover_deduction,
            )
            if not low <= points[seat] <= high:
                raise ScoringError(
                    f"points[{seat}]",
                    "seat_tricks_points",
                    seat=seat,
                    tricks=tricks[seat],
                    low=low,
                    high=high,
                    points=points[seat],
                )
    raise ScoringError("points", "raeuber_impossible", tricks=table.tricks)


def _game_value(
    rules: RuleSource, deal: DealInput, contract: NormalContract
) -> tuple[NormalContract, int]:
    """The contract actually played and its value, given a Solo bid before it."""
    if deal.after_solo and deal.contract in rules.ladder_set:
        target = rules.normal.after_solo_as.get(deal.contract)
        if target is not None:  # e.g. a Cego bid after a Solo is the Gegensolo
            played = rules.contracts[target]
            assert isinstance(played, NormalContract)
            return played, played.value
        return contract, contract.value + rules.normal.after_solo_raise
    return contract, contract.value


def _fixed(rules: RuleSource, deal: DealInput, contract: FixedContract) -> int:
    if deal.won is None:
        raise ScoringError("won", "required")
    amount = contract.amount
    if deal.ouvert:
        if rules.ouvert_multiplier is None:
            raise ScoringError("ouvert", "no_ouvert", source=rules.slug)
        amount *= rules.ouvert_multiplier
    return amount if deal.won else -amount


def _raeuber(
    rules: RuleSource,
    deal: DealInput,
    contract: RaeuberContract,
    table: TableRule,
    ledger: _Ledger,
    payers: Sequence[int],
    out: int | None,
    factor: int,
) -> int | None:
    seats = deal.seats
    points = deal.points
    if points is None:
        raise ScoringError("points", "required")
    if len(points) != seats:
        raise ScoringError("points", "length", seats=seats)
    limit = table.entered_total
    for seat, value in enumerate(points):
        if value > limit:
            raise ScoringError(f"points[{seat}]", "points_range", total=limit)
    if out is not None and points[out]:
        raise ScoringError(f"points[{out}]", "sitting_out_points", seat=out)
    if sum(points) > limit:
        raise ScoringError("points", "points_sum", sum=sum(points), total=limit)
    tricks = deal.tricks
    if tricks is not None:
        if len(tricks) != seats:
            raise ScoringError("tricks", "length", seats=seats)
        if table.tricks is not None and sum(tricks) != table.tricks:
            # every trick is taken by exactly one player
            raise ScoringError(
                "tricks", "tricks_sum", sum=sum(tricks), tricks=table.tricks, seats=seats
            )
        if out is not None and tricks[out]:
            raise ScoringError(f"tricks[{out}]", "sitting_out_points", seat=out)
        for seat, count in enumerate(tricks):
            if count == 0 and points[seat]:
                raise ScoringError(
                    f"tricks[{seat}]", "points_without_tricks", seat=seat, points=points[seat]
                )
    active = [seat for seat in range(seats) if seat != out]
    _check_raeuber_points(rules.counting, table, points, tricks, active)
    amount = contract.amount
    if deal.last_round:
        if contract.last_round_amount is None:
            raise ScoringError("last_round", "no_last_round", source=rules.slug)
        amount = contract.last_round_amount
    amount *= factor
    if contract.no_trick_doubling != "none":
        if tricks is not None:
            empty = sum(1 for seat in active if tricks[seat] == 0)
        elif contract.no_trick_from_points:
            empty = sum(1 for seat in active if points[seat] == 0)
        else:
            empty = 0
        # doubled for each player without a trick, or once if anyone took none
        amount <<= empty if contract.no_trick_doubling == "per_player" else min(empty, 1)
    most = max(points[seat] for seat in active)
    tied = [seat for seat in active if points[seat] == most]
    announcer = deal.declarer
    if len(tied) > 1 and announcer in tied and contract.tie_with_announcer != "as_other_ties":
        multiplier = (
            contract.announcer_multiplier if contract.tie_with_announcer == "announcer_loses" else 1
        )
        tied = [announcer]
    else:
        multiplier = contract.announcer_multiplier if tied == [announcer] else 1
    if len(tied) == 1:
        loser = tied[0]
        paid = amount * multiplier
        ledger.settle(loser, [seat for seat in payers if seat != loser], -paid)
        return paid
    receivers = [seat for seat in payers if seat not in tied]
    if not receivers or len(tied) == len(active):
        return None  # every active player tied: nobody lost (not even to a sitting-out seat)
    paid = amount if contract.ties == "tied_pay_single" else -(-amount // len(tied))
    for loser in tied:
        ledger.settle(loser, receivers, -paid)
    return paid


def _drescher(
    deal: DealInput,
    contract: DrescherContract,
    ledger: _Ledger,
    payers: Sequence[int],
    out: int | None,
    factor: int,
) -> int:
    if deal.last_trick is None:
        raise ScoringError("last_trick", "required")
    taker = _active_seat(deal.last_trick, deal.seats, out, "last_trick")
    paid = contract.amount * factor
    if taker == deal.declarer:
        paid *= contract.declarer_multiplier
    ledger.settle(taker, [seat for seat in payers if seat != taker], -paid)
    return paid


def _penalty(
    rules: RuleSource,
    deal: DealInput,
    contract: Contract,
    table: TableRule,
    ledger: _Ledger,
    payers: Sequence[int],
    out: int | None,
) -> int:
    penalty = deal.penalty
    assert penalty is not None
    rule = rules.penalty
    if rule is None:
        raise ScoringError("penalty", "no_penalty", source=rules.slug)
    if penalty.kind not in rule.kinds:
        raise ScoringError("penalty.kind", "penalty_kind", source=rules.slug, kind=penalty.kind)
    offender = _active_seat(penalty.seat, deal.seats, out, "penalty.seat")
    if penalty.kind in table.penalty_as_no_trick:
        # e.g. the Schwärzehof's Soloschinder at three: the game as lost without a trick
        if isinstance(contract, NormalContract):
            played, value = _game_value(rules, deal, contract)
            paid = -rules.normal.model.per_defender(
                rules.counting, 0, value, played.loss_multiplier
            )
        else:
            paid = contract.amount
    elif rule.model == "fixed":
        paid = rule.amount
    elif isinstance(contract, NormalContract):
        played, value = _game_value(rules, deal, contract)
        model = rules.normal.model
        multiplier = rule.multiplier_for(penalty.kind)
        paid = model.round(model.one_step(value * played.loss_multiplier) * multiplier)
    else:
        paid = contract.amount * rule.multiplier_for(penalty.kind)
    ledger.settle(offender, [seat for seat in payers if seat != offender], -paid)
    return paid


def _bonuses(
    rules: RuleSource,
    deal: DealInput,
    ledger: _Ledger,
    payers: Sequence[int],
    out: int | None,
    declarer: int,
    defenders: Sequence[int],
    factor: int,
) -> None:
    if not rules.bonuses:
        raise ScoringError("bonuses", "no_bonuses", source=rules.slug)
    knocking = rules.knocking
    multiplier = factor if knocking is not None and knocking.doubles_bonuses else 1
    seen: set[tuple[str, int]] = set()
    kinds = {bonus.kind for bonus in deal.bonuses}
    for index, bonus in enumerate(deal.bonuses):
        where = f"bonuses[{index}]"
        rule = rules.bonuses.get(bonus.kind)
        if rule is None:
            raise ScoringError(f"{where}.kind", "unknown_bonus", source=rules.slug, kind=bonus.kind)
        clash = rule.excludes & kinds
        if clash:  # e.g. a silent and an announced Pfeife in one deal
            raise ScoringError(f"{where}.kind", "bonus_excludes", kind=bonus.kind, other=min(clash))
        seat = _active_seat(bonus.seat, deal.seats, out, f"{where}.seat")
        key = (bonus.kind, -1 if rule.unique else seat)
        if key in seen:
            raise ScoringError(f"{where}.kind", "bonus_duplicate", kind=bonus.kind)
        seen.add(key)
        amount = rule.amount * multiplier
        if rule.scope == "personal":
            if bonus.won is not None:
                raise ScoringError(f"{where}.won", "bonus_won_not_allowed", kind=bonus.kind)
            ledger.settle(seat, [other for other in payers if other != seat], amount)
            continue
        if bonus.won is None:
            raise ScoringError(f"{where}.won", "bonus_won_required", kind=bonus.kind)
        if rules.contracts[deal.contract].kind in ("raeuber", "drescher"):
            raise ScoringError(
                f"{where}.kind", "not_applicable", contract=deal.contract, source=rules.slug
            )
        # a team bonus goes to the side that made it; a failed one to the other side
        declarer_side = (seat == declarer) == bonus.won
        ledger.settle(declarer, defenders, amount if declarer_side else -amount)
