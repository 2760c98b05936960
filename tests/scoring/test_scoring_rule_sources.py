"""Rule sources: round-trips, validation with (path, message) problems, loader."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from rules.builtin_sources import BUILTIN_DIR, BUILTIN_SLUGS, builtin_data, load_builtin
from scoring import RuleSource, RuleSourceError, rule_source_from_dict


def test_builtin_slugs_match_the_files() -> None:
    assert sorted(BUILTIN_SLUGS) == sorted(p.stem for p in BUILTIN_DIR.glob("*.json"))
    assert len(BUILTIN_SLUGS) == 11


def test_every_builtin_round_trips(builtin_slug: str) -> None:
    data = builtin_data(builtin_slug)
    source = rule_source_from_dict(data)
    assert source.to_dict() == data
    assert json.dumps(source.to_dict()) == json.dumps(data)  # key order too
    assert rule_source_from_dict(source.to_dict()) == source
    assert source.slug == builtin_slug == data["slug"]
    assert load_builtin(builtin_slug) == source


def test_load_builtin_is_cached_and_builtin_data_is_a_copy() -> None:
    assert load_builtin("swm") is load_builtin("swm")
    data = builtin_data("swm")
    data["contracts"]["piccolo"]["amount"] = 1
    assert builtin_data("swm")["contracts"]["piccolo"]["amount"] == 40
    assert load_builtin("swm").contracts["piccolo"].amount == 40  # type: ignore[union-attr]


def test_unknown_builtin_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        load_builtin("nope")
    with pytest.raises(KeyError):
        builtin_data("nope")


def test_to_dict_is_a_fresh_copy() -> None:
    source = load_builtin("bb2013")
    first = source.to_dict()
    first["unit"] = "points"
    assert source.to_dict()["unit"] == "cents"


def test_every_builtin_has_names_citation_and_contract_names(builtin_slug: str) -> None:
    source = load_builtin(builtin_slug)
    assert source.names.de and source.names.en
    assert source.citation.source and source.citation.based_on
    for contract in source.contracts.values():
        assert contract.names.de and contract.names.en


def test_no_builtin_scores_specials_with_piccolo_at_three_where_forbidden() -> None:
    for slug in ("bb2013", "schwaerzehof"):
        assert {"piccolo", "bettel", "raeuber"} <= load_builtin(slug).tables[3].forbidden


Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return edit


def _delete(path: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        del node[int(last) if isinstance(node, list) else last]

    return edit


def _enable(key: str, *more: Edit) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for variant in data["variants"]:
            if variant["key"] == key:
                variant["enabled"] = True
        for other in more:
            other(data)

    return edit


# (slug, edit, expected problem path, expected message or its start)
BAD_SOURCES: list[tuple[str, Edit, str, str]] = [
    (
        "swm",
        _set("contracts.piccolo.amount", 0),
        "contracts.piccolo.amount",
        "must be a positive whole number",
    ),
    (
        "swm",
        _set("contracts.piccolo.amount", 2.5),
        "contracts.piccolo.amount",
        "must be a positive whole number",
    ),
    (
        "swm",
        _set("contracts.piccolo.amount", "40"),
        "contracts.piccolo.amount",
        "must be a positive whole number",
    ),
    ("swm", _delete("contracts.piccolo.amount"), "contracts.piccolo.amount", "is required"),
    (
        "swm",
        _set("contracts.piccolo.amout", 3),
        "contracts.piccolo.amout",
        "is not a known parameter",
    ),
    (
        "swm",
        _set("contracts.piccolo.kind", "lottery"),
        "contracts.piccolo.kind",
        "must be one of normal, fixed, raeuber, drescher",
    ),
    (
        "swm",
        _set("contracts.Trio", {"kind": "fixed", "amount": 20, "name": {"de": "T", "en": "T"}}),
        "contracts.Trio",
        "a contract name",
    ),
    (
        "swm",
        _set("contracts.trio", {"kind": "fixed", "amount": 20}),
        "contracts.trio.name",
        "is required",
    ),
    (
        "swm",
        _set("contracts.trio", {"kind": "fixed", "amount": 20, "name": {"de": "", "en": "Trio"}}),
        "contracts.trio.name.de",
        "must be a non-empty text",
    ),
    (
        "swm",
        _set("contracts.eine.value", 1),
        "contracts.eine.value",
        "must be higher than the value of the ladder step below",
    ),
    (
        "swm",
        _set("normal.ladder", ["cego", "ultimo"]),
        "normal.ladder.1",
        "names no normal contract of this rule source (ultimo)",
    ),
    (
        "swm",
        _set("normal.ladder", ["cego", "cego"]),
        "normal.ladder",
        "must name each contract once",
    ),
    (
        "swm",
        _set("normal.after_solo_as", {"solo": "gegensolo"}),
        "normal.after_solo_as.solo",
        "names no contract of normal.ladder (solo)",
    ),
    (
        "swm",
        _set("normal.after_solo_as", {"cego": "eine"}),
        "normal.after_solo_as.cego",
        "must name a normal contract outside the ladder, not 'eine'",
    ),
    (
        "swm",
        _set("normal.after_solo_as", {"cego": "ultimo"}),
        "normal.after_solo_as.cego",
        "must name a normal contract outside the ladder",
    ),
    ("swm", _set("normal.over", 40), "normal.over", "must be less than 40"),
    ("swm", _set("normal.round_up_to", 0), "normal.round_up_to", "must be a positive whole number"),
    (
        "swm",
        _set("normal.multiplier_order", "sometimes"),
        "normal.multiplier_order",
        "must be one of",
    ),
    ("swm", _set("normal.bands", []), "normal.bands", "is not a known parameter"),
    (
        "swm",
        _set("normal.model", "dice"),
        "normal.model",
        "must be one of fach, factor_bands, points_over_35, dreierles_steps",
    ),
    ("swm", _set("unit", "euro"), "unit", "must be one of points, cents, pfennig, game_points"),
    (
        "swm",
        _set("distribution", "nobody"),
        "distribution",
        "must be one of each_defender, declarer_only",
    ),
    ("swm", _set("counting.win_at", 80), "counting.win_at", "must not be more than the total (79)"),
    ("swm", _set("counting.method", "fours"), "counting.method", "must be one of threes, pairs"),
    ("swm", _set("tables", {}), "tables", "must allow at least one table size"),
    (
        "swm",
        _set("tables.12", {"active": 4}),
        "tables.12",
        "a table size must be a whole number from 2 to 9",
    ),
    (
        "swm",
        _set("tables.5", {"active": 4}),
        "tables.5.sitting_out_scores",
        "is required when a seat sits out",
    ),
    (
        "swm",
        _set("tables.5", {"active": 3, "sitting_out_scores": "defender"}),
        "tables.5.active",
        "must be 5 or 4",
    ),
    (
        "swm",
        _set("tables.4", {"active": 4, "sitting_out_scores": "nothing"}),
        "tables.4.sitting_out_scores",
        "applies only when a seat sits out",
    ),
    (
        "swm",
        _set("tables.3", {"active": 3, "entered_total": 69}),
        "tables.3.entered_total",
        "plus the declarer_bonus (0) must make the counting total (79)",
    ),
    (
        "swm",
        _set("tables.4.forbidden", ["drescher"]),
        "tables.4.forbidden",
        "names a contract this rule source lacks (drescher)",
    ),
    (
        "swm",
        _set("penalty.kinds", ["revoke", "cheating"]),
        "penalty.kinds",
        "must name only revoke, schinden, false_challenge",
    ),
    (
        "swm",
        _set("penalty.multiplier", -8),
        "penalty.multiplier",
        "must be a positive whole number",
    ),
    ("swm", _set("ouvert_multiplier", 0), "ouvert_multiplier", "must be a positive whole number"),
    ("swm", _set("schema", 2), "schema", "must be 1"),
    ("swm", _set("slug", "Swm!"), "slug", "must be 2 to 60 lower-case letters"),
    ("swm", _delete("counting"), "counting", "is required"),
    ("swm", _set("colour", "blue"), "colour", "is not a known parameter"),
    (
        "swm",
        _set("assumptions.0.param", "normal.nothing"),
        "assumptions.0.param",
        "names no parameter of this rule source (normal.nothing)",
    ),
    ("swm", _set("assumptions.0.en", ""), "assumptions.0.en", "must be a non-empty text"),
    (
        "swm",
        _set("contracts.raeuber.ties", "coin_toss"),
        "contracts.raeuber.ties",
        "must be one of tied_pay_single, pay_jointly",
    ),
    (
        "swm",
        _set("contracts.raeuber.announcer_multiplier", 0),
        "contracts.raeuber.announcer_multiplier",
        "must be a positive whole number",
    ),
    (
        "bb2013",
        _set("normal.bands.3.to", 14),
        "normal.bands",
        "must cover every point value 0..70; missing 15",
    ),
    (
        "bb2013",
        _delete("normal.bands.15"),
        "normal.bands",
        "must cover every point value 0..70; missing 70",
    ),
    ("bb2013", _set("normal.bands.3.to", 16), "normal.bands.4", "overlaps another band at 16"),
    (
        "bb2013",
        _set("normal.bands.8", {"from": 36, "to": 40, "factor": -1}),
        "normal.bands.8.factor",
        "must be positive exactly for winning points",
    ),
    (
        "bb2013",
        _set("normal.bands.8", {"from": 36, "to": 40, "factor": 0}),
        "normal.bands.8.factor",
        "must not be 0",
    ),
    (
        "bb2013",
        _set("normal.bands.15.to", 71),
        "normal.bands.15.to",
        "must not exceed the counting total (70)",
    ),
    (
        "bb2013",
        _set("normal.bands.7", {"from": 31, "to": 36, "factor": -1}),
        "normal.bands.7",
        "must not straddle the winning line (36)",
    ),
    (
        "bb2013",
        _set("contracts.gegensolo.win_multiplier", 0),
        "contracts.gegensolo.win_multiplier",
        "must be a positive whole number",
    ),
    (
        "bb2013",
        _set("variants.0.patch.contracts.halbe.value", 0),
        "variants.0.patch",
        "when enabled, contracts.halbe.value: must be a positive whole number",
    ),
    (
        "bb2013",
        _enable("halbe", _set("variants.0.patch.contracts.eine.value", 2)),
        "contracts.eine.value",
        "must be higher than the value of the ladder step below",
    ),
    ("bb2013", _set("variants.1.key", "halbe"), "variants.1.key", "is used by another variant"),
    ("bb2013", _set("variants.1.enabled", "yes"), "variants.1.enabled", "must be true or false"),
    ("schwaerzehof", _set("normal.pivot", 36), "normal.pivot", "must be half the counting total"),
    (
        "schwaerzehof",
        _set("penalty.amount", 0),
        "penalty.amount",
        "must be a positive whole number",
    ),
    (
        "dreierles",
        _set("normal.tie_steps", 0),
        "normal.tie_steps",
        "must be a positive whole number",
    ),
    ("dreierles", _set("knocking.max", 0), "knocking.max", "must be a positive whole number"),
    (
        "dreierles",
        _set("bonuses.trull.scope", "club"),
        "bonuses.trull.scope",
        "must be one of personal, team",
    ),
    (
        "dreierles",
        _set("tables.4.sitting_out_scores", "half"),
        "tables.4.sitting_out_scores",
        "must be one of defender, nothing",
    ),
]


@pytest.mark.parametrize(("slug", "edit", "path", "message"), BAD_SOURCES)
def test_bad_rule_source_problems(slug: str, edit: Edit, path: str, message: str) -> None:
    data = builtin_data(slug)
    edit(data)
    with pytest.raises(RuleSourceError) as caught:
        rule_source_from_dict(data)
    problems = caught.value.problems
    assert any(p == path and m.startswith(message) for p, m in problems), problems
    assert len(problems) == len(set(problems)), problems


def test_several_problems_are_reported_together() -> None:
    data = builtin_data("swm")
    data["contracts"]["piccolo"]["amount"] = 0
    data["contracts"]["bettel"]["amount"] = -1
    data["unit"] = "euro"
    with pytest.raises(RuleSourceError) as caught:
        rule_source_from_dict(data)
    assert sorted(p for p, _ in caught.value.problems) == [
        "contracts.bettel.amount",
        "contracts.piccolo.amount",
        "unit",
    ]
    assert "contracts.piccolo.amount: must be a positive whole number" in str(caught.value)


@pytest.mark.parametrize("bad", [None, [], "swm", 3])
def test_not_an_object(bad: Any) -> None:
    with pytest.raises(RuleSourceError) as caught:
        rule_source_from_dict(bad)
    assert caught.value.problems == [("", "must be a JSON object")]


def test_not_json_data() -> None:
    data = builtin_data("swm")
    data["citation"]["source"] = {1, 2}
    with pytest.raises(RuleSourceError) as caught:
        rule_source_from_dict(data)
    assert caught.value.problems[0][0] == ""


def test_a_house_rule_copy_validates_and_keeps_its_changes() -> None:
    data = builtin_data("bb2013")
    data["slug"] = "cego_club_villingen"
    data["contracts"]["quarto"] = {
        "kind": "fixed",
        "amount": 25,
        "name": {"de": "Quarto", "en": "Quarto"},
    }
    data["tables"]["3"]["forbidden"].append("quarto")
    data["variants"][0]["enabled"] = True
    source = RuleSource.from_dict(data)
    assert source.to_dict() == data
    assert "halbe" in source.contracts and source.normal.ladder[1] == "halbe"
    assert source.contracts["quarto"].amount == 25  # type: ignore[union-attr]
    assert "quarto" in source.tables[3].forbidden


def test_factor_band_table_of_bb2013() -> None:
    model = load_builtin("bb2013").normal.model
    expected = [-8] + [-7] * 5 + [-6] * 5 + [-5] * 5 + [-4] * 5 + [-3] * 5 + [-2] * 5 + [-1] * 5
    expected += [1] * 5 + [2] * 5 + [3] * 5 + [4] * 5 + [5] * 5 + [6] * 5 + [7] * 4 + [8]
    assert list(model.factors) == expected  # type: ignore[union-attr]


def test_a_missing_setting_is_reported_once() -> None:
    data = builtin_data("swm")
    data["tables"]["5"] = {"active": 4}
    with pytest.raises(RuleSourceError) as caught:
        rule_source_from_dict(data)
    assert caught.value.problems == [
        ("tables.5.sitting_out_scores", "is required when a seat sits out")
    ]


def test_a_base_problem_is_not_repeated_for_every_variant() -> None:
    data = builtin_data("bb2013")
    data["contracts"]["gegensolo"]["win_multiplier"] = 0
    with pytest.raises(RuleSourceError) as caught:
        rule_source_from_dict(data)
    assert caught.value.problems == [
        ("contracts.gegensolo.win_multiplier", "must be a positive whole number")
    ]
