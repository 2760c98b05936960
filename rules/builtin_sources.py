"""The built-in rule sources, one JSON file each in ``rules/builtin/``. Pure Python, no Django."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from scoring import RuleSource, rule_source_from_dict

BUILTIN_DIR = Path(__file__).resolve().parent / "builtin"

BUILTIN_SLUGS: tuple[str, ...] = (
    "swm",
    "bb2013",
    "schwaerzehof",
    "grupp1994",
    "csg2012",
    "weissauer2017",
    "kf2005",
    "cego_online2011",
    "dreierles",
    "officers_cego",
    "dorset_cego",
)


@cache
def _read(slug: str) -> dict[str, Any]:
    if slug not in BUILTIN_SLUGS:
        raise KeyError(slug)
    return json.loads((BUILTIN_DIR / f"{slug}.json").read_text(encoding="utf-8"))


def builtin_data(slug: str) -> dict[str, Any]:
    """A fresh copy of the built-in source's parameters (safe to edit into house rules)."""
    return copy.deepcopy(_read(slug))


@cache
def load_builtin(slug: str) -> RuleSource:
    """The validated built-in rule source; raises KeyError for an unknown slug."""
    return rule_source_from_dict(_read(slug))


def tournament_slugs() -> tuple[str, ...]:
    """The built-in sources offered for tournaments: all but the practice games (two-hand
    Cego, ``practice_only``)."""
    return tuple(slug for slug in BUILTIN_SLUGS if not load_builtin(slug).practice_only)
