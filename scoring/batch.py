"""JSON Lines in, JSON Lines out (shared/spec/deal-record.md). Streams: one line at a time."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from scoring.deal import deal_from_record
from scoring.engine import score_deal
from scoring.errors import RuleSourceError, ScoringError
from scoring.rulesource import RuleSource

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
_loads = json.loads
_MAX_SOURCES = 1024


def score_lines(
    lines: Iterable[str], resolve: Callable[[str], RuleSource]
) -> Iterator[tuple[str, bool]]:
    """Yield ``(output_line, ok)`` for every input line, in order (no trailing newline).

    ``resolve`` maps a rule slug to its source and raises KeyError for an unknown one (or
    RuleSourceError for a stored one that does not validate). Each slug is resolved once (up
    to ``_MAX_SOURCES`` of them, so memory stays bounded). Blank lines are skipped.
    """
    sources: dict[str, RuleSource | RuleSourceError | None] = {}
    for line in lines:
        if not line.strip():
            continue
        out: dict[str, Any] = {}
        try:
            try:
                record = _loads(line)
            except ValueError as error:
                raise ScoringError("line", "invalid_json", detail=_json_detail(error)) from None
            if type(record) is not dict:
                raise ScoringError("line", "not_object")
            if "id" in record:
                out["id"] = record["id"]
            slug = record.get("rules")
            if type(slug) is not str:
                raise ScoringError("rules", "required" if slug is None else "not_str")
            try:
                rules = sources[slug]
            except KeyError:
                try:
                    rules = resolve(slug)
                except KeyError:
                    rules = None
                except RuleSourceError as error:  # e.g. a house rule saved before a check existed
                    rules = error
                if len(sources) < _MAX_SOURCES:
                    sources[slug] = rules
            if rules is None:
                raise ScoringError("rules", "unknown_rules", rules=slug)
            if isinstance(rules, RuleSourceError):
                detail = "; ".join(f"{path}: {message}" for path, message in rules.problems)
                raise ScoringError("rules", "invalid_rules", rules=slug, detail=detail)
            result = score_deal(rules, deal_from_record(record))
        except ScoringError as error:
            out["error"] = str(error)
            yield _dumps(out), False
            continue
        # the success line is formatted directly: same text as _dumps, a good deal faster
        head = f'{{"id": {_dumps(out["id"])}, ' if out else "{"
        scores = ", ".join(map(str, result.scores))
        yield f'{head}"scores": [{scores}], "unit": {_dumps(result.unit)}}}', True


def _json_detail(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at column {error.colno}"
    return str(error)
