"""The printed examples of the rule book score exactly (shared/rules/examples*.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.builtin_sources import load_builtin
from scoring import deal_from_record, score_deal
from scoring.batch import score_lines

DATA = Path(__file__).parent / "data"
INPUT = (DATA / "examples.jsonl").read_text(encoding="utf-8").splitlines()
EXPECTED = (DATA / "examples.expected.jsonl").read_text(encoding="utf-8").splitlines()


def test_the_example_files_pair_up() -> None:
    assert len(INPUT) == len(EXPECTED) == 9
    assert [json.loads(line)["id"] for line in INPUT] == [
        json.loads(line)["id"] for line in EXPECTED
    ]


@pytest.mark.parametrize(("line", "expected"), list(zip(INPUT, EXPECTED, strict=True)))
def test_example_scores_in_process(line: str, expected: str) -> None:
    record = json.loads(line)
    result = score_deal(load_builtin(record["rules"]), deal_from_record(record))
    want = json.loads(expected)
    assert list(result.scores) == want["scores"]
    assert result.unit == want["unit"]


def test_examples_through_score_lines_are_byte_identical() -> None:
    out = list(score_lines(INPUT, load_builtin))
    assert [line for line, _ in out] == EXPECTED
    assert all(ok for _, ok in out)


def test_spec_examples_including_the_error_line() -> None:
    lines = [
        '{"id": "a", "rules": "bb2013", "seats": 4, "contract": "eine_leere", "declarer": 0, "declarer_points": 47}',
        '{"id": "b", "rules": "swm", "seats": 4, "contract": "eine", "declarer": 2, "declarer_points": 41}',
        '{"id": "c", "rules": "swm", "seats": 3, "contract": "cego", "declarer": 0, "declarer_points": 50}',
    ]
    assert list(score_lines(lines, load_builtin)) == [
        ('{"id": "a", "scores": [27, -9, -9, -9], "unit": "cents"}', True),
        ('{"id": "b", "scores": [-20, -20, 60, -20], "unit": "points"}', True),
        ('{"id": "c", "error": "seats: the rule source swm is played at tables of 4 only"}', False),
    ]


def test_per_opponent_amounts_of_the_printed_examples() -> None:
    by_id = {json.loads(line)["id"]: json.loads(line) for line in INPUT}
    expected = {
        "bb-one-pip-won": 9,
        "bb-one-pip-lost": 6,
        "swm-halbe-lost-34-45": 20,
        "swm-eine-won-41-38": 20,
        "swm-ultimo-won": 80,
        "swm-raeuber-announcer-loses": 80,
        "schw-buergermeister": 5,
        "drl-zweier-won-46": 6,
        "drl-anna": 6,
    }
    for key, amount in expected.items():
        record = by_id[key]
        result = score_deal(load_builtin(record["rules"]), deal_from_record(record))
        assert result.per_opponent == amount, key
