"""Benchmark every tournament-day printout of a 160-player round (40 tables), first click in a
freshly started server process, and the cached second click.

The parent builds a scratch SQLite database once (160 players, two rounds played through the
result service, prize money by place). Then, for each printout and each run, a new Python
process starts Django with the venue's settings (DEBUG off), signs the organiser in and fetches
the PDF twice through Django's test client: the first click pays for everything a fresh
server has not done yet (loading the URLs and views, ReportLab, the fonts, the selectors'
queries, the drawing), the second is served from the cache. Nothing is warmed up.

    .venv/bin/python bench/bench_printouts.py [--runs 5] [--players 160] [--root PATH]

``--root`` runs the child processes on another checkout of the project (the same database
schema), e.g. an export of ``main`` to compare with. Shared 2-core machine: the figures are
indicative; the load average is printed. Goal: every first click under 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRINTOUTS = {
    "score sheets": "rounds/{round}/print/score-sheets.pdf",
    "seat plan": "rounds/{round}/print/seat-plan.pdf",
    "table cards": "rounds/{round}/print/table-cards.pdf",
    "standings": "print/standings.pdf",
    "prize list": "print/prizes.pdf",
}


def child(url: str, clicks: int, before: str | None = None) -> None:
    """In a fresh process: Django set up (the server started), then the clicks, timed.
    ``before``: a page the organiser opens first (untimed), e.g. the round's draw page, where
    the score sheets' link is; what it starts in the background is waited for."""
    import threading

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="organisator"))
    if before:
        assert client.get(before).status_code == 200
        for thread in threading.enumerate():
            if thread.name == "printout-fonts":
                thread.join()
    times, cpu = [], []
    for _ in range(clicks):
        began, began_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)  # this process's, its threads' included
        assert response.status_code == 200, response.status_code
        assert response.content.startswith(b"%PDF")
    print(json.dumps({"times": times, "cpu": cpu, "bytes": len(response.content)}))


def build(players: int) -> tuple[str, int]:
    """The scratch database: its URL and the tournament's primary key."""
    from _support import build_tournament, scratch_database, setup_django

    database = scratch_database("sqlite")
    setup_django(database)
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole

    tournament = build_tournament(players=players, rounds_played=2, rounds=3)
    tournament.prize_shares_cents = [10000, 6000, 4000, 3000, 2000, 1000]
    tournament.venue = "Stadthalle Bräunlingen"
    tournament.save()
    user = get_user_model().objects.create_user("organisator", password="cego-demo")
    ClubRole.objects.create(user=user, club=tournament.host_club, role="organiser")
    return database, tournament.pk


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--clicks", type=int, default=4, help="per process (first + cached)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout the server runs")
    parser.add_argument("--only", action="append", choices=list(PRINTOUTS))
    parser.add_argument("--keep", action="store_true", help="keep the database, print its URL")
    parser.add_argument("--database", help="a database kept before (--keep): not built again")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument(
        "--from-draw-page",
        action="store_true",
        help="click from the round's draw page, opened first (its URLs loaded, its fonts read)",
    )
    parser.add_argument("--before", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # the code of --root, on PYTHONPATH
        child(args.child, args.clicks, args.before)
        return
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    if args.database:
        database, pk = args.database, 1
        os.environ.setdefault("BENCH_STATIC_ROOT", tempfile.mkdtemp())
    else:
        database, pk = build(args.players)
    static = os.environ["BENCH_STATIC_ROOT"]
    environment = {
        **os.environ,
        "DATABASE_URL": database,
        "DJANGO_SETTINGS_MODULE": "settings_bench",
        "BENCH_STATIC_ROOT": static,
        "ALLOWED_HOSTS": "testserver",
        "PYTHONPATH": f"{args.root}{os.pathsep}{ROOT / 'bench'}",
    }
    print(f"{args.players} players, round 2 ({args.players // 4} tables); code: {args.root}")
    print(
        f"{'printout':<14} {'first click':>12} {'(min-max)':>15} {'its CPU':>9} {'(min-max)':>11}"
        f" {'cached':>9} {'size':>9}"
    )
    for name, path in PRINTOUTS.items():
        if args.only and name not in args.only:
            continue
        url = f"/tournaments/{pk}/" + path.format(round=2)
        firsts, first_cpu, cached, size = [], [], [], 0
        for _ in range(args.runs):
            result = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", url]
                + ["--clicks", str(args.clicks)]
                + (
                    ["--before", f"/tournaments/{pk}/rounds/2/draw/"] if args.from_draw_page else []
                ),
                cwd=args.root,
                env=environment,
                capture_output=True,
                text=True,
                check=False,
            )
            if result.returncode:
                raise SystemExit(f"{name}: {result.stderr[-2000:]}")
            report = json.loads(result.stdout.strip().splitlines()[-1])
            firsts.append(report["times"][0])
            first_cpu.append(report["cpu"][0])
            cached.extend(report["times"][1:])
            size = report["bytes"]
        print(
            f"{name:<14} {statistics.median(firsts) * 1000:9.0f} ms"
            f"  ({min(firsts) * 1000:5.0f}-{max(firsts) * 1000:5.0f})"
            f" {statistics.median(first_cpu) * 1000:6.0f} ms"
            f" ({min(first_cpu) * 1000:4.0f}-{max(first_cpu) * 1000:4.0f})"
            f" {statistics.median(cached) * 1000:6.1f} ms {size // 1024:5d} KiB"
        )
    print(f"median of {args.runs} fresh processes; load average (1 min): {os.getloadavg()[0]:.1f}")
    if args.keep:
        print(f"database kept: --database {database}")
    elif not args.database:
        Path(database.removeprefix("sqlite:///")).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
