"""``manage.py score_deals``: the deal-record interface (shared/spec/deal-record.md)."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.servers import clean_env

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


def manage(
    stdin: bytes, *, database: str | None = None, fresh_shell: bool = False
) -> subprocess.CompletedProcess:
    # fresh_shell: a newcomer's shell after cloning, none of the test run's settings
    env = clean_env() if fresh_shell else dict(os.environ)
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


# ---------------------------------------------------------------- never a traceback (issue 13)


def test_subprocess_on_a_database_nobody_migrated(tmp_path):
    """A newcomer's first try: built-in sources score without the database; a house-rule
    slug is that line's error, naming ``manage.py migrate``; the batch goes on."""
    fresh = tmp_path / "fresh.sqlite3"  # no file at all: a checkout before `migrate`
    records = [
        {"id": 1, **SWM_EINE},
        {"id": 2, **SWM_EINE, "rules": "our_club"},
        {"id": 3, **SWM_EINE, "rules": "dorset_cego", "seats": 2, "declarer": 1},
        {"id": 4, **SWM_EINE, "rules": "our_club"},
    ]
    proc = manage(jsonl(*records).encode(), database=f"sqlite:///{fresh}", fresh_shell=True)
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    assert proc.returncode == 1
    results = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert results[0] == {"id": 1, "scores": [-20, -20, 60, -20], "unit": "points"}
    assert results[1]["id"] == 2 and results[1]["error"].startswith(
        "rules: there is no built-in rule source called our_club"
    )
    assert "python manage.py migrate" in results[1]["error"]
    # Dorset Cego: 41 + 1 bonus point = 42 -> factor 2 x Eine (2) = 4 from the one opponent
    assert results[2] == {"id": 3, "scores": [-4, 4], "unit": "cents"}
    assert results[3] == results[1] | {"id": 4}
    assert b"2 of 4 deal records failed" in proc.stderr
    assert not fresh.exists()  # looking up the house rules created no empty database file


@pytest.mark.django_db
def test_unknown_slug_on_a_migrated_database_is_still_unknown():
    results, error = run(jsonl({**SWM_EINE, "rules": "our_club"}))
    assert results == [{"error": "rules: there is no rule source called our_club"}]


def test_subprocess_deeply_nested_and_overlong_lines_are_error_lines():
    deep = b"[" * 5000
    nested_id = b'{"id": ' + b"[" * 990 + b"]" * 990 + b', "rules": "swm"}'
    overlong = b'{"id": "' + b"x" * (3 * 65_536) + b'"}'
    good = json.dumps(SWM_EINE).encode()
    proc = manage(b"\n".join([good, deep, nested_id, overlong, good]) + b"\n")
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    assert proc.returncode == 1
    results = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(results) == 5
    assert results[0] == results[4] == {"scores": [-20, -20, 60, -20], "unit": "points"}
    assert results[1] == {"error": "line: is nested too deeply to be a deal record"}
    # just below json's own limit: too deep to read or to echo, or read and then incomplete
    assert results[2].get("error") in (
        "line: is nested too deeply to be a deal record",
        "id: is nested too deeply to be a deal record",
        "seats: is required",
    )
    assert results[3] == {
        "error": "line: is longer than 65536 bytes, the limit for one deal record"
    }


def test_subprocess_a_huge_line_is_never_held_in_memory_whole():
    """A 150 MB line once took 500 MB; it is now read in pieces of the line-length limit."""
    huge = b'{"id": "' + b"x" * (150 * 1024 * 1024) + b'"}\n'
    script = (
        "import resource, subprocess, sys\n"
        "proc = subprocess.run([sys.executable, 'manage.py', 'score_deals'],"
        " stdin=sys.stdin.buffer, capture_output=True)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(peak, proc.returncode, proc.stdout.decode().strip())\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], input=huge, capture_output=True, cwd=ROOT, timeout=120
    )
    peak_kib, status, line = proc.stdout.decode().split(" ", 2)
    assert status == "1"
    assert json.loads(line) == {
        "error": "line: is longer than 65536 bytes, the limit for one deal record"
    }
    assert int(peak_kib) < 150 * 1024, f"peak memory {int(peak_kib) // 1024} MB"


def test_nan_in_a_record_is_not_json():
    results, _error = run('{"id": NaN, "rules": "swm"}\n')
    assert results == [{"error": "line: is not valid JSON (NaN is not a number JSON allows)"}]
