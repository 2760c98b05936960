"""Errors of the scoring engine.

Every message a deal can fail with lives in :data:`MESSAGES`, keyed by a stable code. The
templates use ``{name}`` placeholders only, so a translation layer can use the English template
as its message id and format it with :attr:`ScoringError.params`. The field name is not part of
the template: ``str(error)`` is ``"<field>: <formatted template>"``.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    # shape of a record
    "required": "is required",
    "not_object": "must be a JSON object",
    "not_int": "must be a whole number",
    "not_bool": "must be true or false",
    "not_str": "must be a string",
    "not_list": "must be a list",
    "negative": "must not be negative",
    "invalid_json": "is not valid JSON ({detail})",
    "unknown_rules": "there is no rule source called {rules}",
    "invalid_rules": "the rule source {rules} is not valid ({detail})",
    "unknown_choice": "must be one of {choices}",
    # the table
    "table_size": "the rule source {source} is played at tables of {allowed} only",
    "sitting_out_required": "at a table of {seats} one seat sits out; say which",
    "sitting_out_not_allowed": "nobody sits out at a table of {seats} in the rule source {source}",
    "seat_range": "seat {seat} does not exist at a table of {seats}",
    "seat_sits_out": "seat {seat} sits out this deal",
    # the contract
    "unknown_contract": "the rule source {source} has no contract {contract}",
    "contract_forbidden": "{contract} is not played at a table of {seats} in the rule source {source}",
    "not_applicable": "does not apply to {contract} in the rule source {source}",
    "points_range": "must be between 0 and {total}",
    "length": "must have one entry per seat ({seats})",
    "sitting_out_points": "the seat sitting out ({seat}) must have 0",
    "points_sum": "add up to {sum}, more than the {total} points there are",
    "points_without_tricks": "seat {seat} took no trick but has {points} points",
    "no_trick_points": "the declarer took no trick, so has 0 points, not {points}",
    "tricks_range": "must be between 0 and {tricks}, the tricks of a deal at a table of {seats}",
    "tricks_sum": "add up to {sum}, but a deal at a table of {seats} has {tricks} tricks",
    "tricks_points": "with {tricks} tricks the declarer counts {low} to {high} points, not {points}",
    "all_tricks_points": "with all {tricks} tricks the declarer has all {total} points, not {points}",
    "seat_tricks_points": "seat {seat} with {tricks} tricks counts {low} to {high} points, not {points}",
    "raeuber_impossible": "no deal ends with these points: the {tricks} tricks are always worth something; count again",
    "no_last_round": "the rule source {source} has no last-round Räuber amount",
    "unpriced_contract": "the rule source {source} prints no amount for {contract}; a club sets one in its house rules",
    "bonus_excludes": "{kind} cannot be entered together with {other}",
    "rules_need_migrate": "there is no built-in rule source called {rules}, and house rules cannot be looked up until the database is set up (run python manage.py migrate)",
    "rules_unavailable": "there is no built-in rule source called {rules}, and house rules cannot be looked up ({detail})",
    "too_long": "is longer than {limit} characters, the limit for one deal record",
    "too_deep": "is nested too deeply to be a deal record",
    "knocks_range": "must be between 0 and {max}",
    "no_knocking": "the rule source {source} has no knocking",
    "no_bonuses": "the rule source {source} has no bonuses",
    "unknown_bonus": "the rule source {source} has no bonus {kind}",
    "bonus_won_required": "is required for the team bonus {kind}",
    "bonus_won_not_allowed": "applies only to team bonuses, not to {kind}",
    "bonus_duplicate": "{kind} is entered more than once",
    "no_ouvert": "the rule source {source} does not play specials ouvert",
    "no_penalty": "the rule source {source} has no penalty scoring",
    "penalty_kind": "the rule source {source} has no penalty for {kind}",
    # a deal typed in as written on a paper sheet (scoring.written)
    "written_sum": "the row adds up to {sum}; a row adds up to 0",
    "written_impossible": (
        "{contract}, won: {won} from each defender; lost: {lost} to each defender; "
        "{amount} is not possible"
    ),
    "written_impossible_loser": (
        "{contract}: the loser pays {paid} to each other player; {amount} is not possible"
    ),
    "written_impossible_declarer": (
        "{contract}, won: {won} for the declarer; lost: {lost} for the declarer; "
        "{amount} is not possible"
    ),
    "written_defenders_differ": (
        "{contract}: every defender pays or receives the same amount; type it once or equally"
    ),
    "written_ambiguous": "for {contract} write every player's amount",
}


class ScoringError(ValueError):
    """A deal that cannot be scored: names the record field and what is wrong with it."""

    def __init__(self, field: str, code: str, **params: Any) -> None:
        self.field = field
        self.code = code
        self.params = params
        self.message = MESSAGES[code].format(**params)
        super().__init__(f"{field}: {self.message}")

    def __reduce__(self) -> tuple[Any, ...]:  # keep pickling (multiprocessing) working
        return (_rebuild_scoring_error, (self.field, self.code, self.params))


def _rebuild_scoring_error(field: str, code: str, params: dict[str, Any]) -> ScoringError:
    return ScoringError(field, code, **params)


class RuleSourceError(ValueError):
    """A rule source that does not validate: ``problems`` lists ``(path, message)`` pairs."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = list(problems)
        summary = "; ".join(f"{path}: {message}" for path, message in self.problems)
        super().__init__(f"invalid rule source: {summary}")
