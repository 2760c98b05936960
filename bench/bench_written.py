"""How fast the engine checks a deal typed in as written (scoring.written).

The first check of a contract at a table builds every row the rule source can produce (cached
per rule source, contract, declarer and seat sitting out); later checks only match. Figures come
from whatever machine runs this (a shared one in CI)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin  # noqa: E402
from scoring import DealInput, score_deal  # noqa: E402
from scoring.written import check_written, written_outcomes  # noqa: E402


def main() -> None:
    start = time.perf_counter()
    built = 0
    for slug in BUILTIN_SLUGS:
        rules = load_builtin(slug)
        for seats, table in rules.tables.items():
            out = 0 if table.active < seats else None
            declarer = 1
            for contract in rules.contracts:
                if contract in table.forbidden:
                    continue
                written_outcomes(
                    rules, seats=seats, contract=contract, declarer=declarer, sitting_out=out
                )
                built += 1
    cold = time.perf_counter() - start
    print(f"{'outcome tables built (every source, size, contract)':<52} {built:6d}")
    print(f"{'  total, cold':<52} {cold * 1000:8.1f} ms ({cold * 1000 / built:.2f} ms each)")
    rules = load_builtin("swm")
    rows = [
        score_deal(rules, DealInput(seats=4, contract="eine", declarer=1, declarer_points=p)).scores
        for p in range(80)
    ]
    start = time.perf_counter()
    repeat = 200
    for _ in range(repeat):
        for row in rows:
            check_written(
                rules, seats=4, contract="eine", declarer=1, sitting_out=None, amounts=row
            )
    warm = time.perf_counter() - start
    checks = repeat * len(rows)
    print(f"{'check_written, warm (swm, Eine)':<52} {checks / warm:8.0f} lines/s")


if __name__ == "__main__":
    main()
