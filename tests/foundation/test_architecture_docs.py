"""docs/ARCHITECTURE.md and its area pages (docs/architecture/) name files, modules and functions
and link to each other: each of those must exist (docs/check_references.py), so a page that
describes code moved or renamed since fails here and names the line."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "check_references.py"


def checker():
    spec = importlib.util.spec_from_file_location("check_references", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pages() -> list[Path]:
    return [
        ROOT / "docs" / "ARCHITECTURE.md",
        *sorted((ROOT / "docs" / "architecture").glob("*.md")),
    ]


def test_every_file_name_and_link_the_architecture_pages_mention_exists():
    check = checker().check
    problems = [problem for page in pages() for problem in check(page)]
    assert not problems, "stale mentions (fix the page or the code):\n" + "\n".join(problems)


def test_the_start_page_links_every_area_page():
    start = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [p.name for p in pages()[1:] if f"(architecture/{p.name})" not in start]
    assert not missing, f"not in the index of docs/ARCHITECTURE.md: {missing}"


def test_a_stale_mention_or_link_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "`tournaments/caching.py` `tournaments.caching.season_stamp` `caching.revisions_moved`\n"
        "`tournaments/no_such_module.py` `tournaments.caching.no_such_function`"
        " `caching.no_such_either` [x](no-such-page.md)\n"
        "```\n [1] front.KEPT in api/views.py, front.NO_SUCH_CACHE in api/no_such.py\n```\n",
        encoding="utf-8",
    )
    found = checker().check(page)
    assert [p.rsplit(": ", 1)[-1] for p in found] == [
        "no such file",
        "tournaments/no_such_module.py",
        "tournaments.caching.no_such_function",
        "caching.no_such_either",
        "front.NO_SUCH_CACHE",
        "api/no_such.py",
    ]
