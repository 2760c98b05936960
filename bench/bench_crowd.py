"""A crowd on the venue, and the phones beside it (issue 29, items 2 and 3).

Starts the venue as an organiser does (``manage.py venue --data DIR --port N --bind
127.0.0.1 --no-qr``) on a fresh data folder with a 160-player tournament (2 rounds entered,
round 3 drawn: 40 tables), and beside it a trivial WSGI application ("ok") on waitress with
the venue's own settings (threads, connection limit, backlog) for comparison. Then:

1. **Rate.** wrk (Debian's) with C open connections (--connections, default 50 and 500), each
   asking again as soon as it is answered, against the trivial app and against the
   spectators' pages (standings page, its live part, the projector's board): requests/s,
   p50/p99, and the server's CPU per request (user + system from /proc, what the machine's
   load disturbs least). The ratio to the trivial app by rate and by CPU per request.
2. **Phones beside the crowd.** For each --phone-crowds C (default 200 and 500): wrk holds C
   connections on the standings page and its live part while 40 phones (each a device of its
   own: bench_entry.Phone) send a deal every --deal-seconds on average (Poisson) for
   --seconds; a second phone at each table confirms every deal. p50/p95/max of a deal (POST
   and its page) and of a confirmation; the server's CPU over the phase.

Each figure is the min/median/max over --repeat runs; the machine's load average is printed.

Known defect (first runs, 26 Nov 2026, load 15-24): in phase 2 most phones stopped at their
first confirmation with ``Deal matching query does not exist`` (the deal's POST answered 200
at the table's address, so the bench counted it as stored: a form error, not yet found), and
at 500 connections no phone got its first deal through; read phase 2's figures with that.

    .venv/bin/python bench/bench_crowd.py [--seconds 20] [--repeat 3] [--connections 50,500]
        [--phone-crowds 200,500] [--deal-seconds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.request
from pathlib import Path

from _support import ROOT, build_tournament, scratch_database, setup_django, venue_folder
from bench_entry import Phone, cpu_seconds, percentile, poisson, run_phones
from bench_spectators import wrk

from venue.serving import BACKLOG, CONNECTION_LIMIT

PHONES = 40
TRIVIAL = textwrap.dedent(
    """
    import sys
    from waitress import serve

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
        return [b"ok"]

    serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8,
          connection_limit=int(sys.argv[2]), backlog=int(sys.argv[3]), asyncore_use_poll=True,
          _quiet=True)
    """
)


def spread(values: list[float], unit: str = "", digits: int = 0) -> str:
    if not values:
        return "-"
    fmt = f"{{:.{digits}f}}"
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{fmt.format(low)}/{fmt.format(mid)}/{fmt.format(high)}{unit}"


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


class Trivial:
    def __init__(self, port: int):
        self.url = f"http://127.0.0.1:{port}"
        self.script = Path(tempfile.mkdtemp()) / "trivial.py"
        self.script.write_text(TRIVIAL)
        self.process = subprocess.Popen(
            [sys.executable, str(self.script), str(port), str(CONNECTION_LIMIT), str(BACKLOG)],
            stderr=subprocess.DEVNULL,  # waitress's "Task queue depth" warnings
        )
        for _ in range(100):
            try:
                urllib.request.urlopen(self.url, timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the trivial app did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def rate(server_url: str, pid: int, path: str, *, seconds: int, connections: int) -> dict:
    cpu = cpu_seconds(pid)
    result = wrk(server_url + path, seconds=seconds, connections=connections)
    result["cpu_ms"] = (cpu_seconds(pid) - cpu) * 1000 / max(result["requests"], 1)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--connections", default="50,500")
    parser.add_argument("--phone-crowds", default="200,500")
    parser.add_argument("--deal-seconds", type=float, default=5.0)
    parser.add_argument("--port", type=int, default=8240)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (Debian package wrk)")
    folder = venue_folder()
    setup_django(scratch_database("sqlite", folder=folder))
    from tests.servers import clean_env, start_venue
    from tournaments.services import draws

    tournament = build_tournament(players=PHONES * 4, rounds_played=2, rounds=3)
    print(
        f"Crowd and phones on the venue ({PHONES * 4} players, 2 rounds entered, round 3 "
        f"drawn); wrk -t2, {args.seconds} s a run, min/median/max of {args.repeat} runs. "
        f"Shared 2-core machine: wrk, phones and server share the cores. Start: {load()}",
        flush=True,
    )
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    server = start_venue(
        folder, port=args.port, log=folder.parent / "venue.log", env=env, start_timeout=600
    )
    try:
        trivial = Trivial(args.port + 1)
    except BaseException:
        server.stop()
        raise
    pages = {
        "standings page": f"/tournaments/{tournament.pk}/standings/",
        "standings live part": f"/tournaments/{tournament.pk}/standings/?partial=1",
        "projector board": f"/tournaments/{tournament.pk}/standings/projector/?partial=1",
    }
    try:
        for path in pages.values():
            urllib.request.urlopen(server.url + path, timeout=30).read()  # warm
        for connections in [int(c) for c in args.connections.split(",") if c]:
            runs = {"trivial app": [], **{label: [] for label in pages}}
            for _ in range(args.repeat):
                runs["trivial app"].append(
                    rate(
                        trivial.url,
                        trivial.process.pid,
                        "/",
                        seconds=args.seconds,
                        connections=connections,
                    )
                )
                for label, path in pages.items():
                    runs[label].append(
                        rate(
                            server.url,
                            server.process.pid,
                            path,
                            seconds=args.seconds,
                            connections=connections,
                        )
                    )
            base = runs["trivial app"]
            for label, results in runs.items():
                ratios = [r["rps"] / b["rps"] for r, b in zip(results, base, strict=True)]
                cpu_ratios = [b["cpu_ms"] / r["cpu_ms"] for r, b in zip(results, base, strict=True)]
                print(
                    f"  c={connections:<3} {label:<20} "
                    f"{spread([r['rps'] for r in results])} req/s  "
                    f"p50 {spread([r['p50'] for r in results], ' ms')}  "
                    f"p99 {spread([r['p99'] for r in results], ' ms')}  "
                    f"CPU {spread([r['cpu_ms'] for r in results], ' ms', 2)}/request"
                    + (
                        ""
                        if label == "trivial app"
                        else f"  of the trivial app: {spread(ratios, digits=2)} by rate, "
                        f"{spread(cpu_ratios, digits=2)} by CPU"
                    )
                    + f"  errors: {results[-1]['errors']}; {load()}",
                    flush=True,
                )
        round_ = draws.draw_next_round(
            tournament=tournament, number=3, seed=3, while_previous_open=True
        )
        tokens = list(round_.tables.order_by("number").values_list("token", flat=True))
        crowd_paths = [pages["standings page"], pages["standings live part"]]
        for crowd in [int(c) for c in args.phone_crowds.split(",") if c]:
            deals, confirms, cpus, rates = [], [], [], []
            for run in range(args.repeat):
                phones = [
                    Phone(server.url, token, number=2 * i + 80 * run)
                    for i, token in enumerate(tokens)
                ]
                for i, (phone, token) in enumerate(zip(phones, tokens, strict=True)):
                    phone.partner = Phone(
                        server.url, token, number=2 * i + 1 + 80 * run, position=1
                    )
                    # each run enters new deal numbers at the same tables
                    phone.next_number = 1 + run * 8
                crowd_done = []

                def hold(path, connections, seconds, done):
                    done.append(wrk(server.url + path, seconds=seconds, connections=connections))

                seconds = args.seconds
                holders = [
                    threading.Thread(target=hold, args=(p, crowd // 2, seconds + 4, crowd_done))
                    for p in crowd_paths
                ]
                for holder in holders:
                    holder.start()
                time.sleep(2)  # the crowd's connections open
                cpu = cpu_seconds(server.process.pid)
                times, errors = run_phones(
                    phones, poisson(args.deal_seconds, seconds, limit=8 + run * 8)
                )
                cpus.append((cpu_seconds(server.process.pid) - cpu) * 1000)
                for holder in holders:
                    holder.join()
                if errors:
                    print(f"    errors: {len(errors)} (first: {errors[0]})")
                deals.append(times)
                confirms.append([t for phone in phones for t in phone.confirm_times])
                rates.append(sum(r["rps"] for r in crowd_done))
            print(
                f"  {crowd} spectator connections on the standings, 40 phones, a deal every "
                f"{args.deal_seconds:g} s each (confirmed by a second phone):",
                flush=True,
            )
            print(
                f"    deal p50 {spread([percentile(t, 50) * 1000 for t in deals], ' ms')}  "
                f"p95 {spread([percentile(t, 95) * 1000 for t in deals], ' ms')}  "
                f"max {spread([max(t, default=0) * 1000 for t in deals], ' ms')}; "
                f"confirmation p95 {spread([percentile(t, 95) * 1000 for t in confirms], ' ms')}"
                f"; deals {spread([len(t) for t in deals])}; spectators served "
                f"{spread(rates)} req/s; {load()}",
                flush=True,
            )
    finally:
        server.stop()
        trivial.stop()


if __name__ == "__main__":
    random.seed(1)
    sys.path.insert(0, str(ROOT))
    main()
