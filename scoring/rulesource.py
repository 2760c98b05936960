"""Rule sources: the parameters the engine scores a deal with, validated from a JSON-able dict.

A rule source is data. The schema (every key is checked; unknown keys are reported so a typo in
a club's house rules cannot pass unnoticed):

``schema`` (1), ``slug``, ``name`` {de, en}, ``citation`` {source, based_on}, ``unit``,
``distribution``, ``counting``, ``tables``, ``normal``, ``contracts``, and optionally
``ouvert_multiplier``, ``penalty``, ``knocking``, ``bonuses``, ``assumptions``, ``variants``.
See ``scoring/SCHEMA.md`` for the meaning of each parameter.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from scoring.errors import RuleSourceError

SCHEMA_VERSION = 1
UNITS = ("points", "cents", "pfennig", "game_points")
DISTRIBUTIONS = ("each_defender", "declarer_only")
COUNTING_METHODS = ("threes", "pairs")
MODELS = ("fach", "factor_bands", "points_over_35", "dreierles_steps")
MULTIPLIER_ORDERS = ("before_rounding", "after_rounding")
CONTRACT_KINDS = ("normal", "fixed", "raeuber", "drescher")
SITTING_OUT_SCORES = ("defender", "nothing")
TIES_WITH_ANNOUNCER = ("announcer_loses", "announcer_loses_single", "as_other_ties")
TIES = ("tied_pay_single", "pay_jointly")
PENALTY_KINDS = ("revoke", "schinden", "false_challenge")
PENALTY_MODELS = ("multiple", "fixed", "lost_game")
NO_TRICK_DOUBLINGS = ("none", "per_player", "once")
BONUS_SCOPES = ("personal", "team")

_SLUG = re.compile(r"^[a-z][a-z0-9_]{1,59}$")
_IDENT = re.compile(r"^[a-z][a-z0-9_]{0,59}$")
_MISSING: Any = object()


def _round_up(amount: int, step: int) -> int:
    return -(-amount // step) * step


def _multiplied(base: int, multiplier: int, step: int, order: str) -> int:
    """Apply a Solo-style multiplier before or after rounding up to ``step``."""
    if order == "before_rounding":
        return _round_up(base * multiplier, step)
    return _round_up(base, step) * multiplier


# --------------------------------------------------------------------------- value objects


@dataclass(frozen=True, slots=True)
class Names:
    de: str
    en: str


@dataclass(frozen=True, slots=True)
class Citation:
    source: str
    based_on: str


@dataclass(frozen=True, slots=True)
class Counting:
    method: Literal["threes", "pairs"]
    total: int
    win_at: int
    no_trick_zero: bool
    leftover_deduction: int = 1  # a leftover group smaller than a full one: its sum minus this
    # The blind counts to a declarer who takes a trick (Cego); False: the blind cards the
    # declarer did not take count to the defenders (Dreierles).
    blind_to_declarer: bool = True

    @property
    def min_winning_points(self) -> int:
        """The fewest card points a winning side can hold (35 in threes: 35:35 is the defenders')."""
        return min(self.win_at, self.total - self.win_at + 1)


@dataclass(frozen=True, slots=True)
class TableRule:
    seats: int
    active: int
    sitting_out_scores: Literal["defender", "nothing"] | None
    entered_total: int
    declarer_bonus: int
    forbidden: frozenset[str]
    tricks: int | None = None  # tricks in one deal at this table (None: not checked)
    penalty_as_no_trick: frozenset[str] = frozenset()  # penalty kinds scored as a no-trick loss


@dataclass(frozen=True, slots=True)
class FachModel:
    """Fach = ceil((W - over) / step_points); amount = Fach * per_step * value, rounded up."""

    over: int
    step_points: int
    per_step: int
    round_up_to: int
    multiplier_order: Literal["before_rounding", "after_rounding"]
    name: str = "fach"

    def per_defender(self, counting: Counting, points: int, value: int, multiplier: int) -> int:
        won = points >= counting.win_at
        winner = points if won else counting.total - points
        fach = -(-(winner - self.over) // self.step_points)
        base = fach * self.per_step * value
        amount = _multiplied(base, multiplier, self.round_up_to, self.multiplier_order)
        return amount if won else -amount

    def one_step(self, value: int) -> int:
        return self.per_step * value

    def round(self, amount: int) -> int:
        return _round_up(amount, self.round_up_to)


@dataclass(frozen=True, slots=True)
class Band:
    low: int
    high: int
    factor: int


@dataclass(frozen=True, slots=True)
class FactorBandsModel:
    """amount = value * multiplier * factor, the factor looked up by the declarer's points."""

    bands: tuple[Band, ...]
    factors: tuple[int, ...]  # factor for every point value 0..total (derived from bands)
    name: str = "factor_bands"

    def per_defender(self, counting: Counting, points: int, value: int, multiplier: int) -> int:
        return self.factors[points] * value * multiplier

    def one_step(self, value: int) -> int:
        return value

    def round(self, amount: int) -> int:
        return amount


@dataclass(frozen=True, slots=True)
class PointsOver35Model:
    """amount = |points - pivot| * value, rounded up; a pivot:pivot split pays ``tie_amount``."""

    pivot: int
    round_up_to: int
    tie_amount: int
    multiplier_order: Literal["before_rounding", "after_rounding"]
    name: str = "points_over_35"

    def per_defender(self, counting: Counting, points: int, value: int, multiplier: int) -> int:
        if points == self.pivot:
            return -self.tie_amount  # Bürgermeister: each defender receives the tie amount
        won = points >= counting.win_at
        base = (points - self.pivot if won else self.pivot - points) * value
        amount = _multiplied(base, multiplier, self.round_up_to, self.multiplier_order)
        return amount if won else -amount

    def one_step(self, value: int) -> int:
        return value

    def round(self, amount: int) -> int:
        return _round_up(amount, self.round_up_to)


@dataclass(frozen=True, slots=True)
class DreierlesStepsModel:
    """steps = ceil((W - over) / step_points), or ``tie_steps`` when W == over; * value."""

    over: int
    step_points: int
    tie_steps: int
    name: str = "dreierles_steps"

    def per_defender(self, counting: Counting, points: int, value: int, multiplier: int) -> int:
        won = points >= counting.win_at
        winner = points if won else counting.total - points
        steps = (
            -(-(winner - self.over) // self.step_points) if winner > self.over else self.tie_steps
        )
        amount = steps * value * multiplier
        return amount if won else -amount

    def one_step(self, value: int) -> int:
        return value

    def round(self, amount: int) -> int:
        return amount


AmountModel = FachModel | FactorBandsModel | PointsOver35Model | DreierlesStepsModel


@dataclass(frozen=True, slots=True)
class NormalRules:
    model: AmountModel
    ladder: tuple[str, ...]
    after_solo_raise: int
    after_solo_as: Mapping[str, str]  # a ladder game bid after a Solo that is another contract


@dataclass(frozen=True, slots=True)
class NormalContract:
    names: Names
    value: int
    win_multiplier: int = 1
    loss_multiplier: int = 1
    kind: str = "normal"


@dataclass(frozen=True, slots=True)
class FixedContract:
    names: Names
    amount: int
    kind: str = "fixed"


@dataclass(frozen=True, slots=True)
class RaeuberContract:
    names: Names
    amount: int
    announcer_multiplier: int
    no_trick_doubling: Literal["none", "per_player", "once"]
    no_trick_from_points: bool
    tie_with_announcer: Literal["announcer_loses", "announcer_loses_single", "as_other_ties"]
    ties: Literal["tied_pay_single", "pay_jointly"]
    last_round_amount: int | None = None  # by agreement, in a tournament's last round
    kind: str = "raeuber"


@dataclass(frozen=True, slots=True)
class DrescherContract:
    names: Names
    amount: int
    declarer_multiplier: int
    kind: str = "drescher"


Contract = NormalContract | FixedContract | RaeuberContract | DrescherContract


@dataclass(frozen=True, slots=True)
class PenaltyRule:
    model: Literal["multiple", "fixed", "lost_game"]
    multiplier: int  # model "multiple" (and "lost_game": 1): times the game's one-step amount
    amount: int  # model "fixed"
    kinds: frozenset[str]
    # e.g. the Regulated Solo's eightfold Schinden where a revoke only loses the game
    multiplier_by_kind: Mapping[str, int] = field(default_factory=dict)

    def multiplier_for(self, kind: str) -> int:
        return self.multiplier_by_kind.get(kind, self.multiplier)


@dataclass(frozen=True, slots=True)
class KnockingRule:
    max: int
    doubles_bonuses: bool
    max_by_contract: Mapping[str, int] = field(default_factory=dict)

    def max_for(self, contract: str) -> int:
        return self.max_by_contract.get(contract, self.max)


@dataclass(frozen=True, slots=True)
class BonusRule:
    names: Names
    amount: int
    scope: Literal["personal", "team"]
    unique: bool
    excludes: frozenset[str] = frozenset()  # bonuses that cannot be made in the same deal


@dataclass(frozen=True, slots=True)
class Assumption:
    param: str
    de: str
    en: str


@dataclass(frozen=True, slots=True)
class Variant:
    key: str
    names: Names
    enabled: bool


@dataclass(frozen=True)
class RuleSource:
    """A validated rule source. Build it with :func:`rule_source_from_dict`."""

    slug: str
    names: Names
    citation: Citation
    unit: str
    distribution: str
    counting: Counting
    tables: Mapping[int, TableRule]
    normal: NormalRules
    contracts: Mapping[str, Contract]
    ouvert_multiplier: int | None
    penalty: PenaltyRule | None
    knocking: KnockingRule | None
    bonuses: Mapping[str, BonusRule]
    assumptions: tuple[Assumption, ...]
    variants: tuple[Variant, ...]
    unpriced: Mapping[str, Names]  # contracts the sources name without an amount
    practice_only: bool  # not offered for tournaments
    ladder_set: frozenset[str] = field(repr=False)
    source_json: str = field(repr=False, compare=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSource:
        return rule_source_from_dict(data)

    def __hash__(self) -> int:  # the mappings are not hashable; the source text is
        return hash(self.source_json)

    def to_dict(self) -> dict[str, Any]:
        """The dict this source was built from (a fresh copy, equal to the original)."""
        return json.loads(self.source_json)

    @property
    def table_sizes(self) -> tuple[int, ...]:
        return tuple(sorted(self.tables))

    def assumption_for(self, param: str) -> Assumption | None:
        return next((a for a in self.assumptions if a.param == param), None)


# --------------------------------------------------------------------------- validation


class _Checker:
    """Reads a nested dict, recording every problem as (dotted path, message)."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append((path, message))

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if isinstance(value, Mapping):
            return dict(value)
        self.add(path, "must be an object")
        return {}

    def keys(self, d: Mapping[str, Any], path: str, required: set[str], optional: set[str]) -> None:
        for key in d:
            if key not in required and key not in optional:
                self.add(_join(path, key), "is not a known parameter")
        for key in sorted(required):
            if key not in d:
                self.add(_join(path, key), "is required")

    def int_(
        self,
        d: Mapping[str, Any],
        key: str,
        path: str,
        low: int | None = None,
        default: Any = _MISSING,
    ) -> int:
        where = _join(path, key)
        value = d.get(key, default)
        if value is _MISSING:
            return low or 0  # "is required" was reported by keys()
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(where, _int_message(low))
            return low or 0
        if low is not None and value < low:
            self.add(where, _int_message(low))
            return low
        return value

    def bool_(self, d: Mapping[str, Any], key: str, path: str, default: Any = _MISSING) -> bool:
        value = d.get(key, default)
        if value is _MISSING:
            return False
        if not isinstance(value, bool):
            self.add(_join(path, key), "must be true or false")
            return False
        return value

    def choice(
        self,
        d: Mapping[str, Any],
        key: str,
        path: str,
        choices: tuple[str, ...],
        default: Any = _MISSING,
    ) -> Any:
        value = d.get(key, default)
        if value is _MISSING:
            return choices[0]
        if value not in choices:
            self.add(_join(path, key), "must be one of " + ", ".join(choices))
            return choices[0]
        return value

    def text(self, d: Mapping[str, Any], key: str, path: str) -> str:
        value = d.get(key, _MISSING)
        if value is _MISSING:
            return ""
        if not isinstance(value, str) or not value.strip():
            self.add(_join(path, key), "must be a non-empty text")
            return ""
        return value

    def names(self, d: Mapping[str, Any], key: str, path: str) -> Names:
        where = _join(path, key)
        if key not in d:
            return Names("", "")
        raw = self.obj(d[key], where)
        if not raw and not isinstance(d[key], Mapping):
            return Names("", "")
        self.keys(raw, where, {"de", "en"}, set())
        return Names(self.text(raw, "de", where), self.text(raw, "en", where))

    def ident_list(self, value: Any, path: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.add(path, "must be a list of names")
            return []
        return value


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _int_message(low: int | None) -> str:
    if low == 1:
        return "must be a positive whole number"
    if low == 0:
        return "must be a whole number, 0 or more"
    if low is not None:
        return f"must be a whole number of at least {low}"
    return "must be a whole number"


def _merge(base: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``patch`` laid over it: objects merge key by key, anything else replaces."""
    merged = dict(base)
    for key, value in patch.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _resolve(data: Any, dotted: str) -> bool:
    node = data
    for part in dotted.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


_TOP_REQUIRED = {
    "schema",
    "slug",
    "name",
    "citation",
    "unit",
    "distribution",
    "counting",
    "tables",
    "normal",
    "contracts",
}
_TOP_OPTIONAL = {
    "ouvert_multiplier",
    "penalty",
    "knocking",
    "bonuses",
    "assumptions",
    "variants",
    "unpriced_contracts",
    "practice_only",
}


def rule_source_from_dict(data: Mapping[str, Any]) -> RuleSource:
    """Validate ``data`` and build the :class:`RuleSource`; raise :class:`RuleSourceError`."""
    if not isinstance(data, Mapping):
        raise RuleSourceError([("", "must be a JSON object")])
    try:
        source_json = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise RuleSourceError([("", f"must be plain JSON data ({error})")]) from None
    check = _Checker()
    variants, patches = _variants(check, data.get("variants", []))
    effective: Mapping[str, Any] = data
    for variant, patch in zip(variants, patches, strict=True):
        if variant.enabled:
            effective = _merge(effective, patch)
    parts = _build(check, effective)
    already = set(check.problems)
    for index, (variant, patch) in enumerate(zip(variants, patches, strict=True)):
        if not variant.enabled and patch:
            trial = _Checker()
            _build(trial, _merge(effective, patch))
            for path, message in trial.problems:
                if (path, message) not in already:  # only what the variant itself breaks
                    check.add(f"variants.{index}.patch", f"when enabled, {path}: {message}")
    assumptions = _assumptions(check, data.get("assumptions", []), data)
    if check.problems:
        raise RuleSourceError(check.problems)
    return RuleSource(
        **parts, assumptions=assumptions, variants=tuple(variants), source_json=source_json
    )


def _variants(check: _Checker, raw: Any) -> tuple[list[Variant], list[dict[str, Any]]]:
    variants: list[Variant] = []
    patches: list[dict[str, Any]] = []
    if not isinstance(raw, list):
        check.add("variants", "must be a list")
        return variants, patches
    seen: set[str] = set()
    for index, item in enumerate(raw):
        path = f"variants.{index}"
        entry = check.obj(item, path)
        check.keys(entry, path, {"key", "name", "enabled", "patch"}, set())
        key = check.text(entry, "key", path)
        if key and not _IDENT.match(key):
            check.add(_join(path, "key"), "must be lower-case letters, digits and underscores")
        if key in seen:
            check.add(_join(path, "key"), "is used by another variant")
        seen.add(key)
        patch = check.obj(entry.get("patch", {}), _join(path, "patch"))
        if "variants" in patch or "slug" in patch:
            check.add(_join(path, "patch"), "must not change the slug or the variants")
            patch = {}
        variants.append(
            Variant(key, check.names(entry, "name", path), check.bool_(entry, "enabled", path))
        )
        patches.append(patch)
    return variants, patches


def _assumptions(check: _Checker, raw: Any, data: Mapping[str, Any]) -> tuple[Assumption, ...]:
    if not isinstance(raw, list):
        check.add("assumptions", "must be a list")
        return ()
    out = []
    for index, item in enumerate(raw):
        path = f"assumptions.{index}"
        entry = check.obj(item, path)
        check.keys(entry, path, {"param", "de", "en"}, set())
        param = check.text(entry, "param", path)
        if param and not _resolve(data, param):
            check.add(_join(path, "param"), f"names no parameter of this rule source ({param})")
        out.append(Assumption(param, check.text(entry, "de", path), check.text(entry, "en", path)))
    return tuple(out)


def _build(check: _Checker, data: Mapping[str, Any]) -> dict[str, Any]:
    check.keys(data, "", _TOP_REQUIRED, _TOP_OPTIONAL)
    if "schema" in data and data["schema"] != SCHEMA_VERSION:
        check.add("schema", f"must be {SCHEMA_VERSION}")
    slug = data.get("slug")
    if "slug" in data and (not isinstance(slug, str) or not _SLUG.match(slug)):
        check.add(
            "slug",
            "must be 2 to 60 lower-case letters, digits or underscores, starting with a letter",
        )
    citation_raw = check.obj(data.get("citation", {}), "citation")
    check.keys(citation_raw, "citation", {"source", "based_on"}, set())
    citation = Citation(
        check.text(citation_raw, "source", "citation"),
        check.text(citation_raw, "based_on", "citation"),
    )
    counting = _counting(check, check.obj(data.get("counting", {}), "counting"))
    contracts = _contracts(check, data.get("contracts", {}))
    normal = _normal(check, check.obj(data.get("normal", {}), "normal"), counting, contracts)
    tables = _tables(check, data.get("tables", {}), counting, contracts)
    ouvert = data.get("ouvert_multiplier")
    if ouvert is not None:
        ouvert = check.int_(data, "ouvert_multiplier", "", low=1)
    return {
        "slug": slug if isinstance(slug, str) else "",
        "names": check.names(data, "name", ""),
        "citation": citation,
        "unit": check.choice(data, "unit", "", UNITS),
        "distribution": check.choice(data, "distribution", "", DISTRIBUTIONS),
        "counting": counting,
        "tables": tables,
        "normal": normal,
        "contracts": contracts,
        "ouvert_multiplier": ouvert,
        "penalty": _penalty(check, data.get("penalty")),
        "knocking": _knocking(check, data.get("knocking"), contracts),
        "bonuses": _bonuses(check, data.get("bonuses", {})),
        "unpriced": _unpriced(check, data.get("unpriced_contracts", {}), contracts),
        "practice_only": check.bool_(data, "practice_only", "", default=False),
        "ladder_set": frozenset(normal.ladder),
    }


def _counting(check: _Checker, raw: dict[str, Any]) -> Counting:
    check.keys(
        raw,
        "counting",
        {"method", "total", "win_at", "no_trick_zero"},
        {"leftover_deduction", "blind_to_declarer"},
    )
    total = check.int_(raw, "total", "counting", low=1)
    win_at = check.int_(raw, "win_at", "counting", low=1)
    if "win_at" in raw and win_at > total:
        check.add("counting.win_at", f"must not be more than the total ({total})")
        win_at = total
    return Counting(
        check.choice(raw, "method", "counting", COUNTING_METHODS),
        total,
        win_at,
        check.bool_(raw, "no_trick_zero", "counting"),
        check.int_(raw, "leftover_deduction", "counting", low=0, default=1),
        check.bool_(raw, "blind_to_declarer", "counting", default=True),
    )


def _tables(
    check: _Checker, raw_tables: Any, counting: Counting, contracts: Mapping[str, Contract]
) -> dict[int, TableRule]:
    tables: dict[int, TableRule] = {}
    raw_tables = check.obj(raw_tables, "tables")
    if isinstance(raw_tables, dict) and not raw_tables:
        check.add("tables", "must allow at least one table size")
    for key, item in raw_tables.items():
        path = f"tables.{key}"
        if not (isinstance(key, str) and key.isdigit() and 2 <= int(key) <= 9):
            check.add(path, "a table size must be a whole number from 2 to 9")
            continue
        seats = int(key)
        raw = check.obj(item, path)
        check.keys(
            raw,
            path,
            {"active"},
            {
                "sitting_out_scores",
                "entered_total",
                "declarer_bonus",
                "forbidden",
                "tricks",
                "penalty_as_no_trick",
            },
        )
        active = check.int_(raw, "active", path, low=2)
        if active not in (seats, seats - 1):
            check.add(
                _join(path, "active"), f"must be {seats} or {seats - 1}: at most one seat sits out"
            )
        sitting_out_scores = None
        if active == seats - 1:
            if "sitting_out_scores" in raw:
                sitting_out_scores = check.choice(
                    raw, "sitting_out_scores", path, SITTING_OUT_SCORES
                )
            else:
                check.add(_join(path, "sitting_out_scores"), "is required when a seat sits out")
        elif "sitting_out_scores" in raw:
            check.add(_join(path, "sitting_out_scores"), "applies only when a seat sits out")
        entered_total = check.int_(raw, "entered_total", path, low=1, default=counting.total)
        bonus = check.int_(raw, "declarer_bonus", path, low=0, default=0)
        if entered_total + bonus != counting.total:
            check.add(
                _join(path, "entered_total"),
                f"plus the declarer_bonus ({bonus}) must make the counting total ({counting.total})",
            )
        forbidden = check.ident_list(raw.get("forbidden", []), _join(path, "forbidden"))
        for name in forbidden:
            if name not in contracts:
                check.add(
                    _join(path, "forbidden"), f"names a contract this rule source lacks ({name})"
                )
        tricks = check.int_(raw, "tricks", path, low=1) if "tricks" in raw else None
        as_no_trick = check.ident_list(
            raw.get("penalty_as_no_trick", []), _join(path, "penalty_as_no_trick")
        )
        for kind in as_no_trick:
            if kind not in PENALTY_KINDS:
                check.add(
                    _join(path, "penalty_as_no_trick"), "must name only " + ", ".join(PENALTY_KINDS)
                )
        tables[seats] = TableRule(
            seats,
            active,
            sitting_out_scores,
            entered_total,
            bonus,
            frozenset(forbidden),
            tricks,
            frozenset(as_no_trick),
        )
    return tables


def _normal(
    check: _Checker, raw: dict[str, Any], counting: Counting, contracts: Mapping[str, Contract]
) -> NormalRules:
    model_name = check.choice(raw, "model", "normal", MODELS)
    common = {"model", "ladder", "after_solo_raise", "after_solo_as"}
    per_model = {
        "fach": {"over", "step_points", "per_step", "round_up_to", "multiplier_order"},
        "factor_bands": {"bands"},
        "points_over_35": {"pivot", "round_up_to", "tie_amount", "multiplier_order"},
        "dreierles_steps": {"over", "step_points", "tie_steps"},
    }[model_name]
    check.keys(raw, "normal", common - {"after_solo_as"} | per_model, {"after_solo_as"})
    model: AmountModel
    lowest_win = counting.min_winning_points
    if model_name == "fach":
        over = check.int_(raw, "over", "normal", low=0)
        if over >= lowest_win:
            check.add(
                "normal.over",
                f"must be less than {lowest_win}, the fewest points a winning side holds",
            )
        model = FachModel(
            over,
            check.int_(raw, "step_points", "normal", low=1),
            check.int_(raw, "per_step", "normal", low=1),
            check.int_(raw, "round_up_to", "normal", low=1),
            check.choice(raw, "multiplier_order", "normal", MULTIPLIER_ORDERS),
        )
    elif model_name == "factor_bands":
        model = _bands(check, raw.get("bands", []), counting)
    elif model_name == "points_over_35":
        pivot = check.int_(raw, "pivot", "normal", low=1)
        if "pivot" in raw and (pivot * 2 != counting.total or pivot != counting.win_at - 1):
            check.add("normal.pivot", "must be half the counting total, one below counting.win_at")
        model = PointsOver35Model(
            pivot,
            check.int_(raw, "round_up_to", "normal", low=1),
            check.int_(raw, "tie_amount", "normal", low=1),
            check.choice(raw, "multiplier_order", "normal", MULTIPLIER_ORDERS),
        )
    else:
        over = check.int_(raw, "over", "normal", low=0)
        if over > lowest_win:
            check.add(
                "normal.over",
                f"must be at most {lowest_win}, the fewest points a winning side holds",
            )
        model = DreierlesStepsModel(
            over,
            check.int_(raw, "step_points", "normal", low=1),
            check.int_(raw, "tie_steps", "normal", low=1),
        )
    ladder = check.ident_list(raw.get("ladder", []), "normal.ladder")
    previous = 0
    for index, name in enumerate(ladder):
        contract = contracts.get(name)
        if not isinstance(contract, NormalContract):
            check.add(
                f"normal.ladder.{index}", f"names no normal contract of this rule source ({name})"
            )
            continue
        if contract.value <= previous:
            check.add(
                f"contracts.{name}.value", "must be higher than the value of the ladder step below"
            )
        previous = contract.value
    if len(set(ladder)) != len(ladder):
        check.add("normal.ladder", "must name each contract once")
    after_solo_as: dict[str, str] = {}
    for name, target in check.obj(raw.get("after_solo_as", {}), "normal.after_solo_as").items():
        where = f"normal.after_solo_as.{name}"
        if name not in ladder:
            check.add(where, f"names no contract of normal.ladder ({name})")
        elif not isinstance(contracts.get(target), NormalContract) or target in ladder:
            check.add(where, f"must name a normal contract outside the ladder, not {target!r}")
        else:
            after_solo_as[name] = target
    return NormalRules(
        model,
        tuple(ladder),
        check.int_(raw, "after_solo_raise", "normal", low=0),
        after_solo_as,
    )


def _bands(check: _Checker, raw: Any, counting: Counting) -> FactorBandsModel:
    if not isinstance(raw, list) or not raw:
        check.add("normal.bands", "must be a non-empty list")
        return FactorBandsModel((), ())
    bands: list[Band] = []
    for index, item in enumerate(raw):
        path = f"normal.bands.{index}"
        entry = check.obj(item, path)
        check.keys(entry, path, {"from", "to", "factor"}, set())
        low = check.int_(entry, "from", path, low=0)
        high = check.int_(entry, "to", path, low=0)
        factor = check.int_(entry, "factor", path)
        if high < low:
            check.add(_join(path, "to"), "must not be below from")
        if factor == 0:
            check.add(_join(path, "factor"), "must not be 0")
        elif low < counting.win_at <= high:
            check.add(path, f"must not straddle the winning line ({counting.win_at})")
        elif (factor > 0) != (low >= counting.win_at):
            check.add(_join(path, "factor"), "must be positive exactly for winning points")
        bands.append(Band(low, high, factor))
    factors: list[int | None] = [None] * (counting.total + 1)
    for index, band in enumerate(bands):
        for point in range(band.low, band.high + 1):
            if point > counting.total:
                check.add(
                    f"normal.bands.{index}.to",
                    f"must not exceed the counting total ({counting.total})",
                )
                break
            if factors[point] is not None:
                check.add(f"normal.bands.{index}", f"overlaps another band at {point}")
                break
            factors[point] = band.factor
    missing = [point for point, factor in enumerate(factors) if factor is None]
    if missing:
        check.add(
            "normal.bands",
            f"must cover every point value 0..{counting.total}; missing {_ranges(missing)}",
        )
    return FactorBandsModel(tuple(bands), tuple(f or 0 for f in factors))


def _ranges(points: list[int]) -> str:
    spans: list[str] = []
    start = prev = points[0]
    for point in [*points[1:], None]:
        if point is not None and point == prev + 1:
            prev = point
            continue
        spans.append(str(start) if start == prev else f"{start}-{prev}")
        if point is not None:
            start = prev = point
    return ", ".join(spans)


def _contracts(check: _Checker, raw_contracts: Any) -> dict[str, Contract]:
    contracts: dict[str, Contract] = {}
    raw_contracts = check.obj(raw_contracts, "contracts")
    if isinstance(raw_contracts, dict) and not raw_contracts:
        check.add("contracts", "must list at least one contract")
    for key, item in raw_contracts.items():
        path = f"contracts.{key}"
        if not _IDENT.match(key):
            check.add(path, "a contract name must be lower-case letters, digits and underscores")
            continue
        raw = check.obj(item, path)
        kind = check.choice(raw, "kind", path, CONTRACT_KINDS)
        names = check.names(raw, "name", path)
        contract: Contract
        if kind == "normal":
            check.keys(raw, path, {"kind", "name", "value"}, {"win_multiplier", "loss_multiplier"})
            contract = NormalContract(
                names,
                check.int_(raw, "value", path, low=1),
                check.int_(raw, "win_multiplier", path, low=1, default=1),
                check.int_(raw, "loss_multiplier", path, low=1, default=1),
            )
        elif kind == "fixed":
            check.keys(raw, path, {"kind", "name", "amount"}, set())
            contract = FixedContract(names, check.int_(raw, "amount", path, low=1))
        elif kind == "raeuber":
            check.keys(
                raw,
                path,
                {"kind", "name", "amount", "tie_with_announcer", "ties"},
                {
                    "announcer_multiplier",
                    "no_trick_doubling",
                    "no_trick_from_points",
                    "last_round_amount",
                },
            )
            last_round = None
            if raw.get("last_round_amount") is not None:
                last_round = check.int_(raw, "last_round_amount", path, low=1)
            contract = RaeuberContract(
                names,
                check.int_(raw, "amount", path, low=1),
                check.int_(raw, "announcer_multiplier", path, low=1, default=1),
                _no_trick_doubling(check, raw.get("no_trick_doubling", False), path),
                check.bool_(raw, "no_trick_from_points", path, default=False),
                check.choice(raw, "tie_with_announcer", path, TIES_WITH_ANNOUNCER),
                check.choice(raw, "ties", path, TIES),
                last_round,
            )
        else:
            check.keys(raw, path, {"kind", "name", "amount"}, {"declarer_multiplier"})
            contract = DrescherContract(
                names,
                check.int_(raw, "amount", path, low=1),
                check.int_(raw, "declarer_multiplier", path, low=1, default=1),
            )
        contracts[key] = contract
    return contracts


def _penalty(check: _Checker, raw: Any) -> PenaltyRule | None:
    if raw is None:
        return None
    raw = check.obj(raw, "penalty")
    model = check.choice(raw, "model", "penalty", PENALTY_MODELS)
    if model == "multiple":
        check.keys(raw, "penalty", {"model", "multiplier", "kinds"}, {"multiplier_by_kind"})
        multiplier, amount = check.int_(raw, "multiplier", "penalty", low=1), 0
    elif model == "lost_game":  # the offender loses the game: once its single amount
        check.keys(raw, "penalty", {"model", "kinds"}, {"multiplier_by_kind"})
        multiplier, amount = 1, 0
    else:
        check.keys(raw, "penalty", {"model", "amount", "kinds"}, set())
        multiplier, amount = 0, check.int_(raw, "amount", "penalty", low=1)
    kinds = check.ident_list(raw.get("kinds", []), "penalty.kinds")
    if not kinds:
        check.add("penalty.kinds", "must name at least one of " + ", ".join(PENALTY_KINDS))
    for kind in kinds:
        if kind not in PENALTY_KINDS:
            check.add("penalty.kinds", "must name only " + ", ".join(PENALTY_KINDS))
    by_kind: dict[str, int] = {}
    where = "penalty.multiplier_by_kind"
    for kind, value in check.obj(raw.get("multiplier_by_kind", {}), where).items():
        if kind not in kinds:
            check.add(_join(where, kind), "must name one of penalty.kinds")
        by_kind[kind] = check.int_({kind: value}, kind, where, low=1)
    return PenaltyRule(model, multiplier, amount, frozenset(kinds), by_kind)


def _knocking(check: _Checker, raw: Any, contracts: Mapping[str, Contract]) -> KnockingRule | None:
    if raw is None:
        return None
    raw = check.obj(raw, "knocking")
    check.keys(raw, "knocking", {"max", "doubles_bonuses"}, {"max_by_contract"})
    by_contract: dict[str, int] = {}
    where = "knocking.max_by_contract"
    for name, limit in check.obj(raw.get("max_by_contract", {}), where).items():
        if name not in contracts:
            check.add(_join(where, name), f"names a contract this rule source lacks ({name})")
        by_contract[name] = check.int_({name: limit}, name, where, low=0)
    return KnockingRule(
        check.int_(raw, "max", "knocking", low=1),
        check.bool_(raw, "doubles_bonuses", "knocking"),
        by_contract,
    )


def _no_trick_doubling(
    check: _Checker, value: Any, path: str
) -> Literal["none", "per_player", "once"]:
    """``true``/``false`` (schema 1 as first published) or one of NO_TRICK_DOUBLINGS."""
    if value is True:
        return "per_player"
    if value is False:
        return "none"
    if value in NO_TRICK_DOUBLINGS:
        return value  # a string of the JSON, one of these
    check.add(
        _join(path, "no_trick_doubling"),
        "must be true, false or one of " + ", ".join(NO_TRICK_DOUBLINGS),
    )
    return "none"


def _unpriced(check: _Checker, raw: Any, contracts: Mapping[str, Contract]) -> dict[str, Names]:
    """Contracts a source names without printing an amount: a club prices them in its house
    rules (then they are in ``contracts`` and no longer unpriced)."""
    unpriced: dict[str, Names] = {}
    for key, item in check.obj(raw, "unpriced_contracts").items():
        path = f"unpriced_contracts.{key}"
        if not _IDENT.match(key):
            check.add(path, "a contract name must be lower-case letters, digits and underscores")
            continue
        entry = check.obj(item, path)
        check.keys(entry, path, {"name"}, set())
        names = check.names(entry, "name", path)
        if key not in contracts:
            unpriced[key] = names
    return unpriced


def _bonuses(check: _Checker, raw: Any) -> dict[str, BonusRule]:
    bonuses: dict[str, BonusRule] = {}
    for key, item in check.obj(raw, "bonuses").items():
        path = f"bonuses.{key}"
        if not _IDENT.match(key):
            check.add(path, "a bonus name must be lower-case letters, digits and underscores")
            continue
        entry = check.obj(item, path)
        check.keys(entry, path, {"name", "amount", "scope", "unique"}, {"excludes"})
        excludes = check.ident_list(entry.get("excludes", []), _join(path, "excludes"))
        bonuses[key] = BonusRule(
            check.names(entry, "name", path),
            check.int_(entry, "amount", path, low=1),
            check.choice(entry, "scope", path, BONUS_SCOPES),
            check.bool_(entry, "unique", path),
            frozenset(excludes),
        )
    for key, bonus in bonuses.items():
        for other in sorted(bonus.excludes):
            if other not in bonuses or other == key:
                check.add(f"bonuses.{key}.excludes", f"must name other bonuses ({other})")
    return bonuses
