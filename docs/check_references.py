"""Check that the files, names and links docs/ARCHITECTURE.md and docs/architecture/*.md
mention exist.

Run from the checkout: ``python docs/check_references.py [FILE ...]``. It reads every `backticked`
mention that looks like a path (``tournaments/caching.py``, ``views/hall.py``, a folder ``venue/``)
or a dotted name of the project (``tournaments.caching.season_stamp``) and looks for it:
a path in the checkout (a short one, ``services/teams.py``, anywhere under an area), a dotted
name as a module, or as a ``def``/``class``/assignment in the module its prefix names; and
every relative link ``[text](page.md#heading)``. Inside a fenced block (a text diagram) the
words that look like files or dotted names are checked too. Prints what it cannot find; exit
status 1 if anything. Static only: it imports nothing.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("venue", "scoring", "rules", "clubs", "tournaments", "seasons", "ratings",
            "publishing", "signups", "treasury", "printing", "exports", "api", "handbook",
            "cego_club", "tests", "bench", "packaging")  # fmt: skip
# Mentions that look like paths or names but are none: a build's output, a system check's
# id, a URL.
NOT_PATHS = {"dist/release-<version>/", "cego_club.W001", "players/<pk>/results/"}
SKIP_PARTS = {".venv", ".git", "node_modules", "__pycache__", "dist", "build"}
PATH = re.compile(r"^[\w.<>\-]+(/[\w.<>*\-]+)*/?$")
DOTTED = re.compile(r"^[a-z_][\w]*(\.[A-Za-z_][\w]*)+$")
EXTENSIONS = (".py", ".js", ".css", ".html", ".md", ".json", ".txt", ".toml", ".cfg", ".po")


def files() -> list[str]:
    """Every file and folder of the checkout, relative, folders ending in "/"."""
    found = []
    for folder, folders, names in os.walk(ROOT):
        folders[:] = [
            name for name in folders if name not in SKIP_PARTS and not name.startswith(".")
        ]
        relative = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if relative == "." else relative + "/"
        found += [prefix + name + "/" for name in folders] + [prefix + name for name in names]
    return found


ALL = files()


def path_exists(mention: str) -> bool:
    if "<" in mention or "*" in mention:  # a pattern: its folder must exist
        mention = mention.split("<")[0].split("*")[0].rsplit("/", 1)[0] + "/"
        if mention == "/":
            return True
    if (ROOT / mention).exists():
        return True
    tail = "/" + mention
    return any(("/" + name).endswith(tail) for name in ALL)


def module_file(dotted: str) -> Path | None:
    for candidate in (dotted.replace(".", "/") + ".py", dotted.replace(".", "/") + "/__init__.py"):
        if (ROOT / candidate).is_file():
            return ROOT / candidate
    return None


def name_exists(dotted: str) -> bool:
    parts = dotted.split(".")
    if (ROOT / "/".join(parts)).is_dir():
        return True
    for cut in range(len(parts), 0, -1):
        module = module_file(".".join(parts[:cut]))
        if module is None:
            continue
        rest = parts[cut:]
        if not rest:
            return True
        text = module.read_text(encoding="utf-8")
        if module.name == "__init__.py":  # a package: its modules' names count too
            text += "".join(
                p.read_text(encoding="utf-8") for p in module.parent.rglob("*.py") if p != module
            )
        first = re.escape(rest[0])
        return bool(
            re.search(rf"^\s*(async\s+)?(def|class)\s+{first}\b", text, re.M)
            or re.search(rf"^\s*{first}\s*(:[^=\n]*)?=", text, re.M)
            or re.search(rf"\bimport\b[^\n]*\b{first}\b", text)
            or re.search(rf"^\s+{first}\s*(:|=)", text, re.M)  # a field, a member
        )
    return False


@functools.cache
def short_modules(first: str) -> tuple[str, ...]:
    """The project's modules and packages named ``first`` (``draws``: tournaments.services.draws)."""
    found = []
    for name in ALL:
        if name.split("/")[0] not in PACKAGES or name.startswith(("tests/", "bench/")):
            continue
        if name.endswith("/" + first + ".py"):
            found.append(name[: -len(".py")].replace("/", "."))
        elif name.endswith("/" + first + "/") and (ROOT / name / "__init__.py").is_file():
            found.append(name.rstrip("/").replace("/", "."))
    return tuple(found)


def test_exists(mention: str) -> bool:
    path, _, name = mention.partition("::")
    file = ROOT / path
    return file.is_file() and re.search(rf"def {re.escape(name)}\b", file.read_text()) is not None


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(document: Path) -> set[str]:
    return {
        slug(line.lstrip("#"))
        for line in document.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


def broken_links(document: Path) -> list[str]:
    """Links to other files of the checkout (and their headings) that lead nowhere."""
    problems = []
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        if not linked.is_file():
            problems.append(f"{document}: link to {target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            problems.append(f"{document}: link to {target}: no such heading")
    return problems


def mentions(text: str) -> list[tuple[int, str]]:
    """(line number, mention): the `backticked` ones, and inside a fenced block (a text
    diagram) every word that looks like a file (``api/views.py``) or a dotted name."""
    found, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            words = re.findall(r"[A-Za-z_][\w/]*\.py\b|\b[a-z_]+(?:\.[A-Za-z_]\w*)+", line)
            found += [(number, word) for word in words]
        else:
            found += [(number, mention) for mention in re.findall(r"`([^`\n]+)`", line)]
    return found


def found(mention: str) -> bool | None:
    """Whether ``mention`` exists; None where it is no path or name of the project."""
    mention = mention.strip().rstrip(",;:")
    if "::" in mention and mention.startswith("tests/"):
        return test_exists(mention.split(" ")[0])
    head = mention.split(" ")[0].split("(")[0].split(":")[0]
    first = head.split(".")[0]
    if head in NOT_PATHS:
        return None
    if "/" in head and PATH.match(head) and head.endswith((*EXTENSIONS, "/")):
        return None if head.startswith(("/", "http")) else path_exists(head)
    if "/" not in head and head.endswith(EXTENSIONS) and re.fullmatch(r"\w[\w.\-]*", head):
        return any(name.rsplit("/", 1)[-1] == head for name in ALL)
    if DOTTED.match(head) and first in PACKAGES:
        return name_exists(head)
    if DOTTED.match(head) and short_modules(first):
        return any(name_exists(m + head[len(first) :]) for m in short_modules(first))
    return None


def check(document: Path) -> list[str]:
    problems = broken_links(document)
    for number, mention in mentions(document.read_text(encoding="utf-8")):
        if found(mention) is False:
            head = mention.split("::")[0] if "::" in mention else mention
            problems.append(f"{document}:{number}: {head.split(' ')[0].split('(')[0]}")
    return problems


def main(arguments: list[str]) -> int:
    documents = [Path(a).resolve() for a in arguments] or [
        ROOT / "docs" / "ARCHITECTURE.md",
        *sorted((ROOT / "docs" / "architecture").glob("*.md")),
    ]
    problems = [problem for document in documents for problem in check(document)]
    print("\n".join(problems) or "every mention found")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
