"""Benchmark of the scoring engine.

Generates 100,000 mixed valid deal records (seeded) and measures
(a) in-process ``score_deal`` deals per second,
(b) ``score_lines`` over the JSON lines against a floor of plain ``json.loads`` + ``json.dumps``
    of the same lines (goal: within 3x of the floor),
(c) if ``manage.py`` exists: ``python manage.py score_deals`` in a subprocess against
    ``python -c`` reading and writing the same JSON lines.

Run: ``python bench/bench_scoring.py [--deals N] [--seed S] [--no-command]``. Figures come from
whatever machine runs it (the project's is shared by several people: compare runs, not machines).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _support  # noqa: E402

from rules.builtin_sources import load_builtin, tournament_slugs  # noqa: E402
from scoring import deal_from_record, score_deal  # noqa: E402
from scoring.batch import score_lines  # noqa: E402
from scoring.cards import FULL_PACK, count_card_points, pack_for  # noqa: E402


def dealt(rng: random.Random, rules: Any, seats: int) -> list[int]:
    """The table's pack, shuffled (face values)."""
    table, counting = rules.tables[seats], rules.counting
    cards = list(
        pack_for(table.entered_total, counting.method, counting.leftover_deduction) or FULL_PACK
    )
    rng.shuffle(cards)
    return cards


def blind(table: Any, rules: Any, seats: int) -> int:
    counting = rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction) or FULL_PACK
    return len(pack) - table.active * (table.tricks or 11)


def make_record(rng: random.Random, index: int) -> dict[str, Any]:
    """One valid deal record of a random built-in source, table size and contract."""
    # the tournament sources: the same mix as the first figures (two-hand Cego, added later
    # for club evenings, is left out so that figures stay comparable)
    slug = rng.choice(tournament_slugs())
    rules = load_builtin(slug)
    seats = rng.choice(rules.table_sizes)
    table = rules.tables[seats]
    record: dict[str, Any] = {"id": f"d{index}", "rules": slug, "seats": seats}
    out = None
    if table.active < seats:
        out = rng.randrange(seats)
        record["sitting_out"] = out
    active = [seat for seat in range(seats) if seat != out]
    names = [name for name in rules.contracts if name not in table.forbidden]
    # normal games dominate real tournaments
    normal = [n for n in names if rules.contracts[n].kind == "normal"]
    name = rng.choice(normal) if rng.random() < 0.8 else rng.choice(names)
    contract = rules.contracts[name]
    record["contract"] = name
    record["declarer"] = rng.choice(active)
    if contract.kind == "normal":
        record["declarer_points"] = rng.randint(0, table.entered_total)
        if rng.random() < 0.1:
            record["declarer_tricks"] = rng.randint(0, 5)
            if record["declarer_tricks"] == 0:
                record["declarer_points"] = 0  # no trick, no points (else an error since #13)
            else:  # what the tricks and the blind can count (else an error since #20)
                record["declarer_points"] = count_card_points(
                    dealt(rng, rules, seats)[
                        : table.active * record["declarer_tricks"] + blind(table, rules, seats)
                    ],
                    rules.counting.method,
                    rules.counting.leftover_deduction,
                )
        if name in rules.ladder_set and rng.random() < 0.1:
            record["after_solo"] = True
    elif contract.kind == "fixed":
        record["won"] = rng.random() < 0.5
    elif contract.kind == "raeuber":
        # each trick to someone, each player's tricks counted (the blind to nobody)
        points = [0] * seats
        while True:
            cards, start = dealt(rng, rules, seats), 0
            tricks = [0] * seats
            for _trick in range(table.tricks or 11):
                tricks[rng.choice(active)] += 1
            for seat in active:
                pile = cards[start : start + table.active * tricks[seat]]
                start += len(pile)
                points[seat] = (
                    count_card_points(
                        pile, rules.counting.method, rules.counting.leftover_deduction
                    )
                    if pile
                    else 0
                )
            if sum(points) <= table.entered_total:
                break
        record["points"] = points
    else:
        record["last_trick"] = rng.choice(active)
    if rules.knocking is not None and rng.random() < 0.3:
        record["knocks"] = rng.randint(0, rules.knocking.max)
    if rules.bonuses and contract.kind == "normal" and rng.random() < 0.3:
        record["bonuses"] = [{"kind": "ten_trumps", "seat": rng.choice(active)}]
    return record


def timed(label: str, func: Any) -> float:
    """The seconds ``func`` took, printed in this script's format."""
    return _support.timed(label, func, width=44, seconds=True, indent="  ")[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20261120)
    parser.add_argument("--no-command", action="store_true", help="skip the manage.py measurement")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    records = [make_record(rng, i) for i in range(args.deals)]
    lines = [json.dumps(record) + "\n" for record in records]
    n = len(lines)
    print(f"{n} deal records, seed {args.seed}, {sum(map(len, lines)) / 1e6:.1f} MB of JSON lines")

    # (b) score_lines vs the plain JSON floor; first, so that its first run starts with the
    # engine's remembered tables empty, as a fresh score_deals does
    print("(b) JSON lines")
    dumps = json.JSONEncoder(separators=(", ", ": ")).encode

    def floor() -> None:
        for line in lines:
            dumps(json.loads(line))

    failed = 0

    def batch() -> None:
        nonlocal failed
        for _, ok in score_lines(lines, load_builtin):
            failed += not ok

    def measured(label: str, func: Any) -> tuple[float, float]:
        """Wall and CPU seconds (CPU: less disturbed by a busy machine)."""
        cpu = time.process_time()
        wall = timed(label, func)
        return wall, time.process_time() - cpu

    for slug in tournament_slugs():
        load_builtin(slug)  # the sources read, as score_deals reads them on its first lines
    floors = [measured("floor: json.loads + json.dumps", floor) for _ in range(3)]
    batches = [measured("score_lines", batch) for _ in range(3)]
    assert failed == 0, f"{failed // 3} generated records failed to score"
    t_floor, t_batch = min(w for w, _ in floors), min(w for w, _ in batches)
    cpu_floor, cpu_batch = min(c for _, c in floors), min(c for _, c in batches)
    print(f"  floor {n / t_floor:,.0f} lines/s, score_lines {n / t_batch:,.0f} lines/s")
    print(f"  ratio score_lines / floor = {t_batch / t_floor:.2f}x (goal: within 3x)")
    print(
        f"  first (cold) run {batches[0][0] / t_floor:.2f}x; CPU time: "
        f"{cpu_batch / cpu_floor:.2f}x, first run {batches[0][1] / cpu_floor:.2f}x"
    )

    # (a) in-process score_deal on parsed DealInputs
    pairs = [(load_builtin(r["rules"]), deal_from_record(r)) for r in records]
    print("(a) in-process")
    t_a = timed("score_deal over DealInputs", lambda: [score_deal(s, d) for s, d in pairs])
    t_parse = timed(
        "deal_from_record + score_deal over dicts",
        lambda: [score_deal(load_builtin(r["rules"]), deal_from_record(r)) for r in records],
    )
    print(
        f"  score_deal: {n / t_a:,.0f} deals/s; with deal_from_record: {n / t_parse:,.0f} deals/s"
    )

    # (c) the Django management command, if the project has one
    manage = ROOT / "manage.py"
    if args.no_command or not manage.exists():
        print("(c) skipped" + ("" if manage.exists() else ": no manage.py"))
        return 0
    print("(c) subprocess")
    with tempfile.TemporaryDirectory() as tmp:
        infile = Path(tmp) / "deals.jsonl"
        infile.write_text("".join(lines), encoding="utf-8")
        plain = (
            "import json, sys\n"
            "w = sys.stdout.write\n"
            "for line in sys.stdin:\n"
            "    w(json.dumps(json.loads(line)) + '\\n')\n"
        )

        def run(cmd: list[str]) -> tuple[float, int, int]:
            with infile.open("rb") as stdin:
                start = time.perf_counter()
                proc = subprocess.run(cmd, stdin=stdin, capture_output=True, cwd=ROOT)
                elapsed = time.perf_counter() - start
            return elapsed, proc.stdout.count(b"\n"), proc.returncode

        t_plain, c_plain, _ = run([sys.executable, "-c", plain])
        print(f"  python -c plain JSON read/write              {t_plain:8.3f} s ({c_plain} lines)")
        t_cmd, c_cmd, status = run([sys.executable, str(manage), "score_deals"])
        if status != 0 or c_cmd != n:
            print(f"  manage.py score_deals: exit status {status}, {c_cmd} lines out: not measured")
            return 0
        print(f"  manage.py score_deals                        {t_cmd:8.3f} s ({c_cmd} lines)")
        print(f"  ratio command / plain = {t_cmd / t_plain:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
