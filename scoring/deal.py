"""The deal record (shared/spec/deal-record.md) as a frozen dataclass, and its JSON shape.

:func:`deal_from_record` checks types and shapes only; whether a record makes sense under a
rule source (seats, ranges, contracts) is checked by :func:`scoring.score_deal`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import ScoringError


@dataclass(frozen=True, slots=True)
class Bonus:
    kind: str
    seat: int
    won: bool | None = None


@dataclass(frozen=True, slots=True)
class Penalty:
    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class DealInput:
    seats: int
    contract: str
    declarer: int
    sitting_out: int | None = None
    after_solo: bool | None = None
    declarer_points: int | None = None
    declarer_tricks: int | None = None
    won: bool | None = None
    points: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    last_trick: int | None = None
    ouvert: bool | None = None
    knocks: int | None = None
    bonuses: tuple[Bonus, ...] = ()
    penalty: Penalty | None = None


def _int(record: Mapping[str, Any], key: str, field: str, required: bool = False) -> int | None:
    value = record.get(key)
    if value is None:
        if required:
            raise ScoringError(field, "required")
        return None
    if type(value) is not int:
        raise ScoringError(field, "not_int")
    if value < 0:
        raise ScoringError(field, "negative")
    return value


def _bool(record: Mapping[str, Any], key: str, field: str) -> bool | None:
    value = record.get(key)
    if value is None or type(value) is bool:
        return value
    raise ScoringError(field, "not_bool")


def _str(record: Mapping[str, Any], key: str, field: str) -> str:
    value = record.get(key)
    if value is None:
        raise ScoringError(field, "required")
    if type(value) is not str:
        raise ScoringError(field, "not_str")
    return value


def _int_list(record: Mapping[str, Any], key: str) -> tuple[int, ...] | None:
    value = record.get(key)
    if value is None:
        return None
    if type(value) is not list:
        raise ScoringError(key, "not_list")
    for index, item in enumerate(value):
        if type(item) is not int:
            raise ScoringError(f"{key}[{index}]", "not_int")
        if item < 0:
            raise ScoringError(f"{key}[{index}]", "negative")
    return tuple(value)


def _bonuses(record: Mapping[str, Any]) -> tuple[Bonus, ...]:
    value = record.get("bonuses")
    if value is None:
        return ()
    if type(value) is not list:
        raise ScoringError("bonuses", "not_list")
    bonuses = []
    for index, item in enumerate(value):
        where = f"bonuses[{index}]"
        if not isinstance(item, Mapping):
            raise ScoringError(where, "not_object")
        bonuses.append(
            Bonus(
                _str(item, "kind", f"{where}.kind"),
                _int(item, "seat", f"{where}.seat", required=True),  # type: ignore[arg-type]
                _bool(item, "won", f"{where}.won"),
            )
        )
    return tuple(bonuses)


def _penalty(record: Mapping[str, Any]) -> Penalty | None:
    value = record.get("penalty")
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ScoringError("penalty", "not_object")
    seat = _int(value, "seat", "penalty.seat", required=True)
    return Penalty(seat, _str(value, "kind", "penalty.kind"))  # type: ignore[arg-type]


def deal_from_record(record: Mapping[str, Any]) -> DealInput:
    """Build a :class:`DealInput` from one parsed JSON object; raise :class:`ScoringError`.

    Unknown fields are ignored, as are ``id`` and ``rules`` (the caller resolves the rules).
    """
    if not isinstance(record, Mapping):
        raise ScoringError("line", "not_object")
    return DealInput(
        seats=_int(record, "seats", "seats", required=True),  # type: ignore[arg-type]
        contract=_str(record, "contract", "contract"),
        declarer=_int(record, "declarer", "declarer", required=True),  # type: ignore[arg-type]
        sitting_out=_int(record, "sitting_out", "sitting_out"),
        after_solo=_bool(record, "after_solo", "after_solo"),
        declarer_points=_int(record, "declarer_points", "declarer_points"),
        declarer_tricks=_int(record, "declarer_tricks", "declarer_tricks"),
        won=_bool(record, "won", "won"),
        points=_int_list(record, "points"),
        tricks=_int_list(record, "tricks"),
        last_trick=_int(record, "last_trick", "last_trick"),
        ouvert=_bool(record, "ouvert", "ouvert"),
        knocks=_int(record, "knocks", "knocks"),
        bonuses=_bonuses(record),
        penalty=_penalty(record),
    )


_SIMPLE_FIELDS = (
    "sitting_out",
    "after_solo",
    "declarer_points",
    "declarer_tricks",
    "won",
    "last_trick",
    "ouvert",
    "knocks",
)


def deal_to_record(deal: DealInput) -> dict[str, Any]:
    """The deal as a JSON-able record (no ``id``/``rules``), leaving out unset fields."""
    record: dict[str, Any] = {
        "seats": deal.seats,
        "contract": deal.contract,
        "declarer": deal.declarer,
    }
    for name in _SIMPLE_FIELDS:
        value = getattr(deal, name)
        if value is not None:
            record[name] = value
    if deal.points is not None:
        record["points"] = list(deal.points)
    if deal.tricks is not None:
        record["tricks"] = list(deal.tricks)
    if deal.bonuses:
        record["bonuses"] = [
            {"kind": b.kind, "seat": b.seat} | ({} if b.won is None else {"won": b.won})
            for b in deal.bonuses
        ]
    if deal.penalty is not None:
        record["penalty"] = {"seat": deal.penalty.seat, "kind": deal.penalty.kind}
    return record
