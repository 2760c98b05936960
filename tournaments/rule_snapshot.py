"""The tournament's pinned rule source (``Tournament.rules_snapshot``, taken when it was
created): every deal, sheet and form is scored and labelled from it."""

from __future__ import annotations

import functools
import json

from scoring import RuleSource, rule_source_from_dict
from tournaments.models import (
    Tournament,
)


def rule_source_of(tournament: Tournament) -> RuleSource:
    """The tournament's pinned rule source, built once per snapshot (every deal asks)."""
    try:
        text = json.dumps(tournament.rules_snapshot, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return rule_source_from_dict(tournament.rules_snapshot)  # raises the error
    return _rule_source_from_json(text)


@functools.lru_cache(maxsize=64)
def _rule_source_from_json(text: str) -> RuleSource:
    """A RuleSource is frozen: one copy per snapshot serves every thread."""
    return rule_source_from_dict(json.loads(text))
