"""The deal record (shared/spec/deal-record.md) as a frozen dataclass, and its JSON shape.

:func:`deal_from_record` checks types and shapes only; whether a record makes sense under a
rule source (seats, ranges, contracts) is checked by :func:`scoring.score_deal`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


@dataclass(frozen=True)
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
    last_round: bool | None = None


def _int(value: Any, field: str) -> int:
    if type(value) is not int:
        raise ScoringError(field, "not_int")
    if value < 0:
        raise ScoringError(field, "negative")
    return value


def _bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise ScoringError(field, "not_bool")
    return value


def _str(value: Any, field: str) -> str:
    if type(value) is not str:
        raise ScoringError(field, "not_str")
    return value


def _required(record: Mapping[str, Any], key: str, field: str) -> Any:
    value = record.get(key)
    if value is None:
        raise ScoringError(field, "required")
    return value


def _int_list(value: Any, field: str) -> tuple[int, ...]:
    if type(value) is not list:
        raise ScoringError(field, "not_list")
    for index, item in enumerate(value):
        _int(item, f"{field}[{index}]")
    return tuple(value)


def _bonuses(value: Any, field: str) -> tuple[Bonus, ...]:
    if type(value) is not list:
        raise ScoringError(field, "not_list")
    bonuses = []
    for index, item in enumerate(value):
        where = f"{field}[{index}]"
        if not isinstance(item, Mapping):
            raise ScoringError(where, "not_object")
        won = item.get("won")
        bonuses.append(
            Bonus(
                _str(_required(item, "kind", f"{where}.kind"), f"{where}.kind"),
                _int(_required(item, "seat", f"{where}.seat"), f"{where}.seat"),
                None if won is None else _bool(won, f"{where}.won"),
            )
        )
    return tuple(bonuses)


def _penalty(value: Any, field: str) -> Penalty:
    if not isinstance(value, Mapping):
        raise ScoringError(field, "not_object")
    seat = _int(_required(value, "seat", f"{field}.seat"), f"{field}.seat")
    return Penalty(seat, _str(_required(value, "kind", f"{field}.kind"), f"{field}.kind"))


# the optional fields and how each is checked; absent and null mean "not given"
_OPTIONAL: tuple[tuple[str, Callable[[Any, str], Any]], ...] = (
    ("sitting_out", _int),
    ("after_solo", _bool),
    ("declarer_points", _int),
    ("declarer_tricks", _int),
    ("won", _bool),
    ("points", _int_list),
    ("tricks", _int_list),
    ("last_trick", _int),
    ("ouvert", _bool),
    ("knocks", _int),
    ("bonuses", _bonuses),
    ("penalty", _penalty),
    ("last_round", _bool),
)
_new = object.__new__


def deal_from_record(record: Mapping[str, Any]) -> DealInput:
    """Build a :class:`DealInput` from one parsed JSON object; raise :class:`ScoringError`.

    Unknown fields are ignored, as are ``id`` and ``rules`` (the caller resolves the rules).
    """
    if not isinstance(record, Mapping):
        raise ScoringError("line", "not_object")
    fields = {
        "seats": _int(_required(record, "seats", "seats"), "seats"),
        "contract": _str(_required(record, "contract", "contract"), "contract"),
        "declarer": _int(_required(record, "declarer", "declarer"), "declarer"),
    }
    for key, check in _OPTIONAL:
        if key in record:
            value = record[key]
            if value is not None:
                fields[key] = check(value, key)
    # Every value is checked above, so skip the frozen dataclass's field-by-field __init__
    # (the batch scorer's hot path): unset fields fall back to the class-level defaults.
    deal = _new(DealInput)
    deal.__dict__.update(fields)
    return deal


_SIMPLE_FIELDS = (
    "sitting_out",
    "after_solo",
    "declarer_points",
    "declarer_tricks",
    "won",
    "last_trick",
    "ouvert",
    "knocks",
    "last_round",
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
