"""The framework overrides are listed in docs/architecture/framework-overrides.md, with
the versions they were checked against: an installed version that differs fails here, so an
upgrade re-checks the rows that lean on that package before it lands."""

import re
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "architecture" / "framework-overrides.md"
# The packages whose private behaviour the application relies on; each must be in the table.
WATCHED = ("Django", "waitress", "asgiref", "openskill", "msgspec", "weasyprint", "reportlab",
           "segno", "openpyxl", "whitenoise")  # fmt: skip


def checked_against() -> dict[str, str]:
    text = DOCUMENT.read_text(encoding="utf-8")
    table = text.split("Checked against", 1)[1]
    return dict(re.findall(r"^\| ([A-Za-z0-9_.-]+) \| ([0-9][^ |]*) \|$", table, re.M))


def differing(listed: dict[str, str], installed: Callable[[str], str]) -> dict[str, tuple]:
    return {p: (installed(p), then) for p, then in listed.items() if installed(p) != then}


def test_every_watched_package_is_listed_with_the_version_installed():
    listed = checked_against()
    assert set(WATCHED) <= set(listed), f"not in the list: {sorted(set(WATCHED) - set(listed))}"
    found = differing(listed, version)
    assert not found, (
        "installed ≠ checked against: "
        + "; ".join(f"{p} {now} (list: {then})" for p, (now, then) in found.items())
        + ". Re-check that package's rows in docs/architecture/framework-overrides.md (run "
        "the test each names), then raise its version there."
    )


def test_a_version_the_list_was_not_checked_against_is_found():
    listed = checked_against()
    newer = {**{package: version(package) for package in listed}, "waitress": "3.0.3"}
    assert differing(listed, newer.__getitem__) == {"waitress": ("3.0.3", listed["waitress"])}
