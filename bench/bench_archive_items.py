"""Benchmark the archive's item-by-item writer (run on demand, not in tests).

Server time (wall and CPU of this process, which is the database's client; the database's
own work on PostgreSQL runs in its server process) to
- import a 4,032-deal archive whole (42 tables of four, 4 rounds of 24 deals);
- import it again as a newer revision with one deal corrected (the item diff: one deal
  written);
- apply a batch of one new deal into a 2,016-deal tournament (28 tables, 3 rounds of 24):
  ``parse_batch`` of its JSON, plan, write; the median of 20.
``--profile`` prints cProfile's top functions of the one-deal batch.

    .venv/bin/python bench/bench_archive_items.py [--postgres] [--profile]

The figures come from a shared machine (2 cores shared by several sessions): read them as
rough.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def measure(func):
    wall, cpu = time.perf_counter(), time.process_time()
    result = func()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.postgres:
        from _support import scratch_database

        os.environ["DATABASE_URL"] = scratch_database("postgres")
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from clubs.models import Club
    from tests.seasons.archive_factory import big_archive, deal_data
    from tournaments.archive_format import item_digest, parse_archive, parse_batch, state_digest
    from tournaments.models import ArchiveItem
    from tournaments.services.archive_write import apply_batch, import_tournament_archive

    Club.objects.create(name="Cegofreunde Testhausen", short_name="CF Test", town="Testhausen")
    kind = "PostgreSQL" if args.postgres else "SQLite"
    print(f"Archive items benchmark ({kind}; a shared machine, figures are rough)")

    big = big_archive(tables=42, rounds=4, deals=24, seed=2)
    raw = json.dumps(big).encode()
    outcome, wall, cpu = measure(lambda: import_tournament_archive(data=parse_archive(raw)))
    print(
        f"  import {outcome.deals:,} deals whole ({len(raw) / 1e6:.1f} MB):"
        f" {wall:6.2f} s wall, {cpu:6.2f} s CPU"
    )
    corrected = json.loads(raw)
    corrected["revision"] += 1
    corrected["rounds"][1]["tables"][3]["deals"][5] = deal_data(2, 4, 6, won=False)
    raw2 = json.dumps(corrected).encode()
    outcome, wall, cpu = measure(lambda: import_tournament_archive(data=parse_archive(raw2)))
    print(
        f"  the same archive, one deal corrected: {wall * 1000:7.0f} ms wall,"
        f" {cpu * 1000:7.0f} ms CPU ({dict(outcome.changes)})"
    )

    small = big_archive(tables=28, rounds=3, deals=24, seed=3)
    tournament = import_tournament_archive(data=small).tournament
    walls, cpus = [], []
    profiler = cProfile.Profile() if args.profile else None
    for n in range(25, 45):
        digests = dict(
            ArchiveItem.objects.filter(tournament=tournament).values_list("key", "digest")
        )
        key = f"deal:r3-t5-d{n}"
        item = {"round": 3, "table": 5, **deal_data(3, 5, n)}
        after = {**digests, key: item_digest(item)}
        body = json.dumps(
            {
                "format": "cego-club/changes",
                "version": 1,
                "archive_id": small["archive_id"],
                "revision": 100 + n,
                "base": state_digest(digests),
                "state": state_digest(after),
                "upserts": {key: item},
                "deletes": [],
            }
        ).encode()
        if profiler is not None:
            profiler.enable()
        _outcome, wall, cpu = measure(
            lambda body=body: apply_batch(batch=parse_batch(body), actor="bench")
        )
        if profiler is not None:
            profiler.disable()
        walls.append(wall)
        cpus.append(cpu)
    print(
        f"  one new deal into 2,016 deals (batch of {len(body)} bytes):"
        f" {statistics.median(walls) * 1000:6.1f} ms wall,"
        f" {statistics.median(cpus) * 1000:6.1f} ms CPU (median of {len(walls)})"
    )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
