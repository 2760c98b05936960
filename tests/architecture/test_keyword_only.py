"""Services and selectors take their arguments by name (docs/ARCHITECTURE.md, "Conventions
that bite"): a public function of a ``services`` or ``selectors`` module has at most one
positional parameter, so a caller writes ``enter_deal(table=t, number=3)``, never two values
whose order a later change could swap unnoticed.

Read from the source (``ast``), every module the layer map of ``test_imports`` calls a service
or a selector. The tournament day's are being converted: ``NOT_YET`` names those still taking
more than one positional parameter and only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.test_imports import AREAS, layer_of

ROOT = Path(__file__).resolve().parents[2]

# Public functions of the tournament day's services and selectors that still take more than
# one positional parameter: remove an entry when its function gets its ``*``; add none.
NOT_YET = {
    "tournaments.caching.revision_cached_parts",
}


def positional_heavy(source: str) -> list[tuple[str, int, list[str]]]:
    """The public module-level functions of ``source`` taking more than one positional
    parameter: (name, line, the positional parameters)."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith(
            "_"
        ):
            positional = [arg.arg for arg in node.args.posonlyargs + node.args.args]
            if len(positional) > 1:
                found.append((node.name, node.lineno, positional))
    return found


def _service_and_selector_modules() -> dict[str, Path]:
    modules = {}
    for area in AREAS:
        for path in sorted((ROOT / area).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            dotted = dotted.removesuffix(".__init__")
            if layer_of(dotted) in ("services", "selectors"):
                modules[dotted] = path
    return modules


def test_services_and_selectors_take_their_arguments_by_name():
    modules = _service_and_selector_modules()
    assert "clubs.services.imports" in modules and "seasons.selectors.standings" in modules
    assert "publishing.laptop.services" in modules and "signups.selectors" in modules
    offending = [
        f"{path.relative_to(ROOT)}:{line} {name}({', '.join(params)}, …): put a * first"
        for module, path in modules.items()
        for name, line, params in positional_heavy(path.read_text(encoding="utf-8"))
        if f"{module}.{name}" not in NOT_YET
    ]
    assert not offending, "\n".join(offending)


def test_a_function_taking_two_values_in_order_would_be_caught():
    source = (
        "def settle(table, number, *, user): ...\n"
        "def fine(*, table, number): ...\n"
        "def one(table, *, number): ...\n"
        "def _private(a, b): ...\n"
    )
    assert positional_heavy(source) == [("settle", 1, ["table", "number"])]
