"""Every kind of bad record gives one error naming the field (table-driven)."""

from __future__ import annotations

import json
import re
import string
from typing import Any

import pytest

from rules.builtin_sources import load_builtin
from scoring import MESSAGES, ScoringError, deal_from_record, score_deal
from scoring.batch import score_lines

SWM = {"rules": "swm", "seats": 4, "contract": "cego", "declarer": 0, "declarer_points": 50}
BB = {"rules": "bb2013", "seats": 4, "contract": "cego", "declarer": 0, "declarer_points": 50}
DRL = {"rules": "dreierles", "seats": 3, "contract": "dreier", "declarer": 0, "declarer_points": 40}
DROP = object()


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    record = dict(base)
    for key, value in changes.items():
        if value is DROP:
            record.pop(key, None)
        else:
            record[key] = value
    return record


# (record, field, code, full message or None)
BAD: list[tuple[dict[str, Any], str, str, str | None]] = [
    (with_(SWM, seats=DROP), "seats", "required", "seats: is required"),
    (with_(SWM, seats="4"), "seats", "not_int", "seats: must be a whole number"),
    (with_(SWM, seats=True), "seats", "not_int", None),
    (with_(SWM, seats=4.0), "seats", "not_int", None),
    (
        with_(SWM, seats=3),
        "seats",
        "table_size",
        "seats: the rule source swm is played at tables of 4 only",
    ),
    (
        with_(BB, seats=6),
        "seats",
        "table_size",
        "seats: the rule source bb2013 is played at tables of 3, 4 or 5 only",
    ),
    (with_(BB, seats=5), "sitting_out", "sitting_out_required", None),
    (
        with_(BB, seats=5, sitting_out=5),
        "sitting_out",
        "seat_range",
        "sitting_out: seat 5 does not exist at a table of 5",
    ),
    (with_(BB, sitting_out=1), "sitting_out", "sitting_out_not_allowed", None),
    (with_(SWM, sitting_out=-1), "sitting_out", "negative", None),
    (with_(SWM, contract=DROP), "contract", "required", None),
    (with_(SWM, contract=7), "contract", "not_str", None),
    (
        with_(SWM, contract="drescher"),
        "contract",
        "unknown_contract",
        "contract: the rule source swm has no contract drescher",
    ),
    (with_(BB, contract="halbe"), "contract", "unknown_contract", None),
    (
        with_(BB, seats=3, contract="piccolo", declarer_points=DROP, won=True),
        "contract",
        "contract_forbidden",
        "contract: piccolo is not played at a table of 3 in the rule source bb2013",
    ),
    (with_(SWM, declarer=DROP), "declarer", "required", None),
    (
        with_(SWM, declarer=4),
        "declarer",
        "seat_range",
        "declarer: seat 4 does not exist at a table of 4",
    ),
    (with_(SWM, declarer=-1), "declarer", "negative", "declarer: must not be negative"),
    (
        with_(BB, seats=5, sitting_out=0),
        "declarer",
        "seat_sits_out",
        "declarer: seat 0 sits out this deal",
    ),
    (with_(SWM, declarer_points=DROP), "declarer_points", "required", None),
    (
        with_(SWM, declarer_points=80),
        "declarer_points",
        "points_range",
        "declarer_points: must be between 0 and 79",
    ),
    (
        with_(BB, declarer_points=71),
        "declarer_points",
        "points_range",
        "declarer_points: must be between 0 and 70",
    ),
    (
        with_(BB, seats=3, declarer_points=70),
        "declarer_points",
        "points_range",
        "declarer_points: must be between 0 and 69",
    ),
    (with_(SWM, declarer_points="40"), "declarer_points", "not_int", None),
    (with_(SWM, declarer_points=40.5), "declarer_points", "not_int", None),
    (with_(SWM, declarer_tricks=-2), "declarer_tricks", "negative", None),
    (
        with_(SWM, contract="piccolo", won=True),
        "declarer_points",
        "not_applicable",
        "declarer_points: does not apply to piccolo in the rule source swm",
    ),
    (
        with_(SWM, contract="piccolo", declarer_points=DROP, won=True, declarer_tricks=1),
        "declarer_tricks",
        "not_applicable",
        None,
    ),
    (with_(SWM, contract="piccolo", declarer_points=DROP), "won", "required", "won: is required"),
    (
        with_(SWM, contract="piccolo", declarer_points=DROP, won="yes"),
        "won",
        "not_bool",
        "won: must be true or false",
    ),
    (with_(SWM, won=True), "won", "not_applicable", None),
    (with_(SWM, after_solo="yes"), "after_solo", "not_bool", None),
    (
        with_(SWM, contract="piccolo", declarer_points=DROP, won=True, after_solo=True),
        "after_solo",
        "not_applicable",
        None,
    ),
    (with_(SWM, contract="raeuber", declarer_points=DROP), "points", "required", None),
    (
        with_(SWM, contract="raeuber", declarer_points=DROP, points=[1, 2, 3]),
        "points",
        "length",
        "points: must have one entry per seat (4)",
    ),
    (
        with_(SWM, contract="raeuber", declarer_points=DROP, points=[80, 0, 0, 0]),
        "points[0]",
        "points_range",
        None,
    ),
    (
        with_(SWM, contract="raeuber", declarer_points=DROP, points=[40, 20, 10, 10]),
        "points",
        "points_sum",
        None,
    ),
    (
        with_(SWM, contract="raeuber", declarer_points=DROP, points=[1, "2", 3, 4]),
        "points[1]",
        "not_int",
        None,
    ),
    (
        with_(SWM, contract="raeuber", declarer_points=DROP, points="1,2"),
        "points",
        "not_list",
        None,
    ),
    (
        with_(SWM, contract="raeuber", declarer_points=DROP, points=[1, -2, 3, 4]),
        "points[1]",
        "negative",
        None,
    ),
    (
        with_(
            BB,
            seats=5,
            sitting_out=4,
            contract="raeuber",
            declarer_points=DROP,
            points=[20, 20, 10, 5, 3],
        ),
        "points[4]",
        "sitting_out_points",
        None,
    ),
    (
        with_(
            BB,
            contract="raeuber",
            declarer_points=DROP,
            points=[30, 20, 15, 5],
            tricks=[4, 4, 0, 3],
        ),
        "tricks[2]",
        "points_without_tricks",
        "tricks[2]: seat 2 took no trick but has 15 points",
    ),
    (
        with_(
            BB, contract="raeuber", declarer_points=DROP, points=[30, 20, 15, 5], tricks=[3, 3, 3]
        ),
        "tricks",
        "length",
        None,
    ),
    (with_(SWM, points=[30, 20, 15, 5]), "points", "not_applicable", None),
    (with_(BB, contract="drescher", declarer_points=DROP), "last_trick", "required", None),
    (
        with_(BB, contract="drescher", declarer_points=DROP, last_trick=4),
        "last_trick",
        "seat_range",
        None,
    ),
    (with_(BB, last_trick=1), "last_trick", "not_applicable", None),
    (
        with_(SWM, contract="piccolo", declarer_points=DROP, won=True, ouvert=True),
        "ouvert",
        "no_ouvert",
        "ouvert: the rule source swm does not play specials ouvert",
    ),
    (with_(SWM, ouvert=True), "ouvert", "not_applicable", None),
    (with_(SWM, ouvert=1), "ouvert", "not_bool", None),
    (with_(SWM, knocks=1), "knocks", "no_knocking", "knocks: the rule source swm has no knocking"),
    (with_(DRL, knocks=3), "knocks", "knocks_range", "knocks: must be between 0 and 2"),
    (with_(DRL, knocks="1"), "knocks", "not_int", None),
    (with_(SWM, bonuses=[{"kind": "ten_trumps", "seat": 0}]), "bonuses", "no_bonuses", None),
    (with_(DRL, bonuses={"kind": "trull"}), "bonuses", "not_list", None),
    (with_(DRL, bonuses=["trull"]), "bonuses[0]", "not_object", None),
    (with_(DRL, bonuses=[{"seat": 0}]), "bonuses[0].kind", "required", None),
    (with_(DRL, bonuses=[{"kind": "trull"}]), "bonuses[0].seat", "required", None),
    (
        with_(DRL, bonuses=[{"kind": "schneider", "seat": 0}]),
        "bonuses[0].kind",
        "unknown_bonus",
        "bonuses[0].kind: the rule source dreierles has no bonus schneider",
    ),
    (with_(DRL, bonuses=[{"kind": "trull", "seat": 3}]), "bonuses[0].seat", "seat_range", None),
    (
        with_(DRL, bonuses=[{"kind": "pfeife_announced", "seat": 0}]),
        "bonuses[0].won",
        "bonus_won_required",
        None,
    ),
    (
        with_(DRL, bonuses=[{"kind": "trull", "seat": 0, "won": True}]),
        "bonuses[0].won",
        "bonus_won_not_allowed",
        None,
    ),
    (
        with_(DRL, bonuses=[{"kind": "four_kings", "seat": 0}, {"kind": "four_kings", "seat": 1}]),
        "bonuses[1].kind",
        "bonus_duplicate",
        None,
    ),
    (
        with_(DRL, bonuses=[{"kind": "ten_trumps", "seat": 0}, {"kind": "ten_trumps", "seat": 0}]),
        "bonuses[1].kind",
        "bonus_duplicate",
        None,
    ),
    (
        with_(
            DRL,
            contract="raeuber",
            declarer_points=DROP,
            points=[30, 20, 10],
            bonuses=[{"kind": "pfeife", "seat": 0, "won": True}],
        ),
        "bonuses[0].kind",
        "not_applicable",
        None,
    ),
    (
        with_(DRL, seats=4, sitting_out=2, bonuses=[{"kind": "trull", "seat": 2}]),
        "bonuses[0].seat",
        "seat_sits_out",
        None,
    ),
    (
        with_(DRL, penalty={"seat": 1, "kind": "revoke"}),
        "penalty",
        "no_penalty",
        "penalty: the rule source dreierles has no penalty scoring",
    ),
    # contradictions (issue 13, item 7)
    (
        with_(SWM, declarer_tricks=0),
        "declarer_points",
        "no_trick_points",
        "declarer_points: the declarer took no trick, so has 0 points, not 50",
    ),
    (
        with_(SWM, declarer_tricks=12),
        "declarer_tricks",
        "tricks_range",
        "declarer_tricks: must be between 0 and 11, the tricks of a deal at a table of 4",
    ),
    (
        with_(BB, seats=3, declarer_tricks=14, declarer_points=40),
        "declarer_tricks",
        "tricks_range",
        "declarer_tricks: must be between 0 and 13, the tricks of a deal at a table of 3",
    ),
    (
        with_(
            BB,
            contract="raeuber",
            declarer_points=DROP,
            points=[20, 20, 15, 5],
            tricks=[30, 30, 30, 30],
        ),
        "tricks",
        "tricks_sum",
        "tricks: add up to 120, but a deal at a table of 4 has 11 tricks",
    ),
    (
        with_(BB, contract="raeuber", declarer_points=DROP, points=[30, 30, 10, 1]),
        "points",
        "points_sum",
        "points: add up to 71, more than the 70 points there are",
    ),
    (
        with_(
            DRL,
            bonuses=[
                {"kind": "pfeife", "seat": 0, "won": True},
                {"kind": "pfeife_announced", "seat": 0, "won": True},
            ],
        ),
        "bonuses[0].kind",
        "bonus_excludes",
        "bonuses[0].kind: pfeife cannot be entered together with pfeife_announced",
    ),
    (with_(DRL, knocks=3), "knocks", "knocks_range", "knocks: must be between 0 and 2"),
    (
        with_(DRL, contract="raeuber", declarer_points=DROP, points=[30, 20, 10], knocks=4),
        "knocks",
        "knocks_range",
        "knocks: must be between 0 and 3",
    ),
    (
        with_(BB, rules="weissauer2017", contract="trio", declarer_points=DROP, won=True),
        "contract",
        "unpriced_contract",
        "contract: the rule source weissauer2017 prints no amount for trio; a club sets one in "
        "its house rules",
    ),
    (with_(SWM, last_round=True), "last_round", "not_applicable", None),
    (with_(SWM, last_round="yes"), "last_round", "not_bool", None),
    (
        with_(
            BB, contract="raeuber", declarer_points=DROP, points=[30, 20, 10, 5], last_round=True
        ),
        "last_round",
        "no_last_round",
        "last_round: the rule source bb2013 has no last-round Räuber amount",
    ),
    (with_(SWM, penalty={"seat": 1, "kind": "cheating"}), "penalty.kind", "penalty_kind", None),
    (with_(SWM, penalty={"seat": 9, "kind": "revoke"}), "penalty.seat", "seat_range", None),
    (with_(SWM, penalty={"kind": "revoke"}), "penalty.seat", "required", None),
    (with_(SWM, penalty={"seat": 1}), "penalty.kind", "required", None),
    (with_(SWM, penalty="revoke"), "penalty", "not_object", None),
]


@pytest.mark.parametrize(("record", "field", "code", "message"), BAD)
def test_bad_record_names_the_field(
    record: dict[str, Any], field: str, code: str, message: str | None
) -> None:
    with pytest.raises(ScoringError) as caught:
        score_deal(load_builtin(record["rules"]), deal_from_record(record))
    error = caught.value
    assert (error.field, error.code) == (field, code), str(error)
    assert str(error).startswith(f"{field}: ")
    assert str(error) == f"{field}: {MESSAGES[code].format(**error.params)}"
    if message is not None:
        assert str(error) == message
    # the batch scorer reports the same sentence and keeps going
    lines = [json.dumps({"id": "x", **record}), json.dumps(SWM)]
    (first, ok1), (_, ok2) = score_lines(lines, load_builtin)
    assert json.loads(first) == {"id": "x", "error": str(error)}
    assert (ok1, ok2) == (False, True)


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ('{"id": "a", "rules": "swm"', "line: is not valid JSON"),
        ("not json at all", "line: is not valid JSON"),
        ("[1, 2]", "line: must be a JSON object"),
        ('"swm"', "line: must be a JSON object"),
        ('{"id": "q", "seats": 4}', "rules: is required"),
        ('{"id": "q", "rules": 4}', "rules: must be a string"),
        ('{"id": "q", "rules": "nope", "seats": 4}', "rules: there is no rule source called nope"),
    ],
)
def test_batch_line_level_errors(line: str, error: str) -> None:
    [(out, ok)] = list(score_lines([line], load_builtin))
    assert not ok
    assert json.loads(out)["error"].startswith(error)


def test_batch_echoes_id_only_when_given_and_skips_blank_lines() -> None:
    lines = [
        json.dumps({k: v for k, v in SWM.items()}) + "\n",
        "\n",
        "   \n",
        json.dumps({"id": 7, **SWM}),
    ]
    out = list(score_lines(lines, load_builtin))
    assert [json.loads(line) for line, _ in out] == [
        {"scores": [60, -20, -20, -20], "unit": "points"},
        {"id": 7, "scores": [60, -20, -20, -20], "unit": "points"},
    ]


def test_batch_resolves_each_slug_once() -> None:
    calls: list[str] = []

    def resolve(slug: str):  # type: ignore[no-untyped-def]
        calls.append(slug)
        return load_builtin(slug)

    lines = [json.dumps(SWM)] * 50 + [json.dumps(BB)] * 50 + [json.dumps(with_(SWM, rules="x"))] * 3
    assert sum(ok for _, ok in score_lines(lines, resolve)) == 100
    assert calls == ["swm", "bb2013", "x"]


def test_batch_is_lazy() -> None:
    def endless():  # type: ignore[no-untyped-def]
        while True:
            yield json.dumps(SWM)

    stream = score_lines(endless(), load_builtin)
    assert [next(stream)[1] for _ in range(1000)] == [True] * 1000


def test_message_templates_use_named_placeholders_only() -> None:
    for code, template in MESSAGES.items():
        fields = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
        assert all(re.fullmatch(r"[a-z_]+", name) for name in fields), code
        assert not template.endswith("."), code


def test_unknown_fields_id_and_rules_are_ignored_by_deal_from_record() -> None:
    deal = deal_from_record({**SWM, "id": "z", "rules": "whatever", "table": 12, "note": "x"})
    assert deal.seats == 4 and deal.declarer_points == 50


def test_not_an_object() -> None:
    with pytest.raises(ScoringError) as caught:
        deal_from_record([1, 2])  # type: ignore[arg-type]
    assert caught.value.field == "line"


def test_batch_reports_a_rule_source_that_does_not_validate() -> None:
    from rules.builtin_sources import builtin_data
    from scoring import RuleSourceError, rule_source_from_dict

    def resolve(slug: str):  # type: ignore[no-untyped-def]
        data = builtin_data("swm")
        data["contracts"]["piccolo"]["amount"] = 0
        return rule_source_from_dict(data)

    [(line, ok)] = list(score_lines([json.dumps(SWM)], resolve))
    assert not ok
    assert json.loads(line)["error"] == (
        "rules: the rule source swm is not valid "
        "(contracts.piccolo.amount: must be a positive whole number)"
    )
    assert issubclass(RuleSourceError, ValueError)


def test_rule_sources_hash_by_their_data() -> None:
    assert hash(load_builtin("swm")) == hash(load_builtin("swm"))
    assert len({load_builtin("swm"), load_builtin("bb2013"), load_builtin("swm")}) == 2


def test_batch_slug_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import scoring.batch

    monkeypatch.setattr(scoring.batch, "_MAX_SOURCES", 2)
    calls: list[str] = []

    def resolve(slug: str):  # type: ignore[no-untyped-def]
        calls.append(slug)
        return load_builtin(slug)

    slugs = ["swm", "bb2013", "x1", "x2", "swm", "x1"]
    out = list(score_lines([json.dumps(with_(SWM, rules=s)) for s in slugs], resolve))
    assert [ok for _, ok in out] == [True, True, False, False, True, False]
    assert calls == ["swm", "bb2013", "x1", "x2", "x1"]
