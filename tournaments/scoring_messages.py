"""German (and English) wording of the scoring engine's messages, by message code.

The engine is pure Python and speaks English; here each of its templates is marked for
translation with the English template as the message id. A test keeps both lists in step.
"""

from django.utils.translation import gettext_lazy as _

from scoring import RuleSource, ScoringError

MESSAGES = {
    "required": _("is required"),
    "not_object": _("must be a JSON object"),
    "not_int": _("must be a whole number"),
    "not_bool": _("must be true or false"),
    "not_str": _("must be a string"),
    "not_list": _("must be a list"),
    "negative": _("must not be negative"),
    "invalid_json": _("is not valid JSON ({detail})"),
    "unknown_rules": _("there is no rule source called {rules}"),
    "unknown_choice": _("must be one of {choices}"),
    "table_size": _("the rule source {source} is played at tables of {allowed} only"),
    "sitting_out_required": _("at a table of {seats} one seat sits out; say which"),
    "sitting_out_not_allowed": _(
        "nobody sits out at a table of {seats} in the rule source {source}"
    ),
    "seat_range": _("seat {seat} does not exist at a table of {seats}"),
    "seat_sits_out": _("seat {seat} sits out this deal"),
    "unknown_contract": _("the rule source {source} has no contract {contract}"),
    "contract_forbidden": _(
        "{contract} is not played at a table of {seats} in the rule source {source}"
    ),
    "not_applicable": _("does not apply to {contract} in the rule source {source}"),
    "points_range": _("must be between 0 and {total}"),
    "length": _("must have one entry per seat ({seats})"),
    "sitting_out_points": _("the seat sitting out ({seat}) must have 0"),
    "points_sum": _("add up to {sum}, more than the {total} points there are"),
    "points_without_tricks": _("seat {seat} took no trick but has {points} points"),
    "no_trick_points": _("the declarer took no trick, so has 0 points, not {points}"),
    "tricks_range": _("must be between 0 and {tricks}, the tricks of a deal at a table of {seats}"),
    "tricks_sum": _("add up to {sum}, but a deal at a table of {seats} has {tricks} tricks"),
    "tricks_points": _(
        "with {tricks} tricks the declarer counts {low} to {high} points, not {points}"
    ),
    "all_tricks_points": _(
        "with all {tricks} tricks the declarer has all {total} points, not {points}"
    ),
    "seat_tricks_points": _(
        "seat {seat} with {tricks} tricks counts {low} to {high} points, not {points}"
    ),
    "raeuber_impossible": _(
        "no deal ends with these points: the {tricks} tricks are always worth something; "
        "count again"
    ),
    "no_last_round": _("the rule source {source} has no last-round Räuber amount"),
    "unpriced_contract": _(
        "the rule source {source} prints no amount for {contract}; a club sets one in its house "
        "rules"
    ),
    "bonus_excludes": _("{kind} cannot be entered together with {other}"),
    "knocks_range": _("must be between 0 and {max}"),
    "no_knocking": _("the rule source {source} has no knocking"),
    "no_bonuses": _("the rule source {source} has no bonuses"),
    "unknown_bonus": _("the rule source {source} has no bonus {kind}"),
    "bonus_won_required": _("is required for the team bonus {kind}"),
    "bonus_won_not_allowed": _("applies only to team bonuses, not to {kind}"),
    "bonus_duplicate": _("{kind} is entered more than once"),
    "no_ouvert": _("the rule source {source} does not play specials ouvert"),
    "no_penalty": _("the rule source {source} has no penalty scoring"),
    "penalty_kind": _("the rule source {source} has no penalty for {kind}"),
    "written_sum": _("the row adds up to {sum}; a row adds up to 0"),
    "written_impossible": _(
        "{contract}, won: {won} from each defender; lost: {lost} to each defender; "
        "{amount} is not possible"
    ),
    "written_impossible_loser": _(
        "{contract}: the loser pays {paid} to each other player; {amount} is not possible"
    ),
    "written_impossible_declarer": _(
        "{contract}, won: {won} for the declarer; lost: {lost} for the declarer; "
        "{amount} is not possible"
    ),
    "written_defenders_differ": _(
        "{contract}: every defender pays or receives the same amount; type it once or equally"
    ),
    "written_ambiguous": _("for {contract} write every player's amount"),
}


def translate_scoring_error(error: ScoringError, rules: RuleSource | None = None) -> str:
    """The error in the active language, without the field name (shown next to the field).

    Given the rule source, the message names it by its name, never by its slug. A seat is
    numbered as on the sheets, from 1 ("Platz 1 setzt in diesem Spiel aus", never "Platz 0")."""
    template = MESSAGES.get(error.code)
    if template is None:
        return error.message
    params = dict(error.params)
    if isinstance(params.get("seat"), int):
        # the engine counts seat positions from 0; people (sheets, pages) count from 1
        params["seat"] += 1
    if rules is not None and params.get("source") == rules.slug:
        from tournaments.contract_names import rule_source_name

        params["source"] = f"„{rule_source_name(rules)}“"
    return str(template).format(**params)
