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
_MAX_SOURCES = 1024

#: The longest line read as one deal record, in characters (bytes, for the command reading
#: standard input). A real record has a few hundred; a longer line gets an ``error`` line and
#: is never held in memory whole (docs/deal-record.md).
MAX_LINE_LENGTH = 65_536


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


# NaN and Infinity are not JSON: rejected, so that an echoed ``id`` stays valid JSON
_loads = json.JSONDecoder(parse_constant=_no_constant).decode


def score_lines(
    lines: Iterable[str], resolve: Callable[[str], RuleSource]
) -> Iterator[tuple[str, bool]]:
    """Yield ``(output_line, ok)`` for every input line, in order (no trailing newline).

    ``resolve`` maps a rule slug to its source and raises KeyError for an unknown one,
    RuleSourceError for a stored one that does not validate, or ScoringError for a slug it
    cannot look up (e.g. house rules on a database nobody migrated). Each slug is resolved once
    (up to ``_MAX_SOURCES`` of them, so memory stays bounded). Blank lines are skipped; a line
    longer than :data:`MAX_LINE_LENGTH` is an error line.
    """
    sources: dict[str, RuleSource | RuleSourceError | ScoringError | None] = {}
    for line in lines:
        if not line.strip():
            continue
        head = "{"  # '{"id": <the echoed id>, ' once the line's id is known
        try:
            if len(line) > MAX_LINE_LENGTH:
                raise ScoringError("line", "too_long", limit=MAX_LINE_LENGTH)
            try:
                record = _loads(line)
            except ValueError as error:
                raise ScoringError("line", "invalid_json", detail=_json_detail(error)) from None
            except RecursionError:  # e.g. thousands of nested brackets
                raise ScoringError("line", "too_deep") from None
            if type(record) is not dict:
                raise ScoringError("line", "not_object")
            if "id" in record:
                try:
                    head = f'{{"id": {_dumps(record["id"])}, '
                except RecursionError:  # nested just below json's limit, too deep to write
                    raise ScoringError("id", "too_deep") from None
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
                except (RuleSourceError, ScoringError) as error:
                    rules = error  # e.g. a house rule saved before a check existed
                if len(sources) < _MAX_SOURCES:
                    sources[slug] = rules
            if rules is None:
                raise ScoringError("rules", "unknown_rules", rules=slug)
            if isinstance(rules, ScoringError):  # a fresh copy: no traceback piles up
                raise ScoringError(rules.field, rules.code, **rules.params)
            if isinstance(rules, RuleSourceError):
                detail = "; ".join(f"{path}: {message}" for path, message in rules.problems)
                raise ScoringError("rules", "invalid_rules", rules=slug, detail=detail)
            result = score_deal(rules, deal_from_record(record))
        except ScoringError as error:
            yield f'{head}"error": {_dumps(str(error))}}}', False
            continue
        # the line is formatted directly: same text as _dumps of a dict, a good deal faster
        scores = ", ".join(map(str, result.scores))
        yield f'{head}"scores": [{scores}], "unit": {_dumps(result.unit)}}}', True


def _json_detail(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at column {error.colno}"
    return str(error)
