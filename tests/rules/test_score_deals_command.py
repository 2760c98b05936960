"""``manage.py score_deals``: the deal-record interface (shared/spec/deal-record.md)."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path("/work/shared/rules/examples.jsonl")
EXPECTED = Path("/work/shared/rules/examples.expected.jsonl")

SWM_EINE = {"rules": "swm", "seats": 4, "contract": "eine", "declarer": 2, "declarer_points": 41}


def run(text: str) -> tuple[list[dict], CommandError | None]:
    out = io.StringIO()
    error = None
    try:
        call_command("score_deals", stdin=io.StringIO(text), stdout=out)
    except CommandError as caught:
        error = caught
    lines = out.getvalue().splitlines()
    return [json.loads(line) for line in lines], error


def jsonl(*records) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def examples() -> tuple[str, list[dict]]:
    if not EXAMPLES.exists():
        pytest.skip("the shared examples are not mounted")
    expected = [json.loads(line) for line in EXPECTED.read_text().splitlines() if line.strip()]
    return EXAMPLES.read_text(encoding="utf-8"), expected


@pytest.mark.django_db
def test_printed_examples_via_call_command():
    text, expected = examples()
    results, error = run(text)
    assert error is None
    assert results == expected


@pytest.mark.django_db
def test_bad_line_in_the_middle_gives_an_error_line_and_the_batch_goes_on():
    results, error = run(
        jsonl(
            {"id": 1, **SWM_EINE},
            "{not json",
            {"id": 3, **SWM_EINE, "declarer_points": 80},
            {"id": 4, "rules": "no_such_rules", "seats": 4},
            {"id": 5, **SWM_EINE},
        )
    )
    assert [r.get("id") for r in results] == [1, None, 3, 4, 5]
    assert results[0] == {"id": 1, "scores": [-20, -20, 60, -20], "unit": "points"}
    assert results[1]["error"].startswith("line: is not valid JSON")
    assert results[2] == {"id": 3, "error": "declarer_points: must be between 0 and 79"}
    assert results[3] == {"id": 4, "error": "rules: there is no rule source called no_such_rules"}
    assert results[4] == results[0] | {"id": 5}
    assert error is not None and error.returncode == 1
    assert "3 of 5" in str(error)


@pytest.mark.django_db
def test_blank_lines_are_skipped_and_give_no_output_line():
    results, error = run("\n" + jsonl(SWM_EINE) + "   \n\n" + jsonl(SWM_EINE) + "\n")
    assert error is None
    assert len(results) == 2


@pytest.mark.django_db
def test_empty_input_gives_empty_output():
    results, error = run("")
    assert results == [] and error is None


def test_house_rules_slug_from_the_database(house_rules):
    results, error = run(
        jsonl(
            {
                "id": "t",
                "rules": house_rules.slug,
                "seats": 4,
                "contract": "trio",
                "declarer": 1,
                "won": True,
            },
            {"id": "e", **SWM_EINE, "rules": house_rules.slug},
            {"id": "x", "rules": "swm", "seats": 4, "contract": "trio", "declarer": 1, "won": True},
        )
    )
    assert results[0] == {"id": "t", "scores": [-20, 60, -20, -20], "unit": "points"}
    assert results[1] == {"id": "e", "scores": [-20, -20, 60, -20], "unit": "points"}
    assert results[2] == {"id": "x", "error": "contract: the rule source swm has no contract trio"}
    assert error is not None and error.returncode == 1


def test_house_rules_are_looked_up_once_per_run(house_rules, django_assert_max_num_queries):
    record = {
        "rules": house_rules.slug,
        "seats": 4,
        "contract": "trio",
        "declarer": 0,
        "won": False,
    }
    with django_assert_max_num_queries(1):
        results, error = run(jsonl(*[record] * 50))
    assert error is None and len(results) == 50


def test_a_stored_house_rule_that_no_longer_validates_gives_a_rules_error(house_rules):
    type(house_rules).objects.filter(pk=house_rules.pk).update(
        data={**house_rules.data, "unit": "dollars"}
    )
    results, error = run(jsonl({**SWM_EINE, "rules": house_rules.slug}))
    assert results[0]["error"].startswith(f"rules: the rule source {house_rules.slug} is not valid")
    assert "unit: must be one of" in results[0]["error"]


# ---------------------------------------------------------------- as a real process


def manage(stdin: bytes, *, database: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if database:
        env["DATABASE_URL"] = database
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "score_deals"],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_subprocess_printed_examples_exactly():
    text, expected = examples()
    proc = manage(text.encode("utf-8"))
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == expected
    assert proc.stdout.endswith(b"\n") and b"\r" not in proc.stdout


def test_subprocess_bad_lines_exit_1_and_keep_order():
    text, expected = examples()
    good = text.encode("utf-8").splitlines()
    stdin = b"\n".join([good[0], b"[1, 2]", good[1], b'{"id": "\xff"}', b"", good[2]]) + b"\n"
    proc = manage(stdin)
    assert proc.returncode == 1
    results = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert results == [
        expected[0],
        {"error": "line: must be a JSON object"},
        expected[1],
        {"error": "line: is not valid UTF-8 (byte 0xff at column 9)"},
        expected[2],
    ]
    assert b"2 of 5 deal records failed" in proc.stderr


def test_subprocess_umlauts_in_ids_are_written_as_utf8():
    record = {"id": "Räuber-Größe", **SWM_EINE}
    proc = manage((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode("utf-8") == (
        '{"id": "Räuber-Größe", "scores": [-20, -20, 60, -20], "unit": "points"}\n'
    )
