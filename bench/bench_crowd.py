"""A crowd on the venue, and the phones beside it (issue 29, items 2 and 3).

Starts the venue as an organiser does (``manage.py venue --data DIR --port N --bind
127.0.0.1 --no-qr``) on a fresh data folder with a 160-player tournament (2 rounds entered),
and beside it a trivial WSGI application ("ok") on waitress with the venue's own settings
(threads, connection limit, backlog) for comparison. Then:

1. **Rate.** wrk (Debian's) with C open connections (--connections, default 50 and 500), each
   asking again as soon as it is answered, against the trivial app and against the
   spectators' pages (standings page, its live part, the projector's board): requests/s,
   p50/p99, and the server's CPU per request (user + system from /proc, what the machine's
   load disturbs least). The ratio to the trivial app by rate and by CPU per request.
2. **Phones beside the crowd.** For each --phone-crowds C (default 200 and 500; 0: the phones
   alone, for reference): wrk holds C connections on the standings page and its live part
   while 40 phones (each a device of its own: bench_entry.Phone) send a deal every
   --deal-seconds on average (Poisson) for --seconds; a second phone at each table confirms
   every deal. Each run draws a fresh round (40 tables; drawn while the others are open), so
   no run enters a deal number an earlier run entered. p50/p95/max of a deal (POST and its
   page) and of a confirmation (POST and its page); the server's CPU over the phase (the
   crowd's pages included).

   A deal counts only if the database holds it afterwards (its submission key), a
   confirmation only if the deal is confirmed: a form with an error, a clash (the deal's
   number entered already) or the seat's choice are answered 200 at the table's address just
   as the sheet a stored deal redirects to, so the answer alone says nothing. After each run
   the round's deals are counted: every counted deal stored exactly once, and confirmed. (The
   first version assumed it, and from the second crowd on sent deal numbers the first crowd
   had entered at the same tables: every deal a clash, counted as stored.)

Each figure is the min/median/max over --repeat runs; the machine's load average is printed.

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


def check_stored(round_, phones, errors: list[str]) -> str:
    """What the database holds after a run: every deal a phone counted, exactly once,
    confirmed, and nothing else."""
    from tournaments.models import Deal

    keys = [key for phone in phones for key in phone.keys]
    in_round = Deal.objects.filter(table__round=round_)
    stored = in_round.count()
    once = len(set(keys)) == len(keys) == stored == in_round.filter(submission_key__in=keys).count()
    confirmed = in_round.filter(status=Deal.Status.CONFIRMED).count()
    line = (
        f"round {round_.number}: {len(keys)} deals counted, {stored} stored, each exactly once: "
        f"{'yes' if once else 'NO'}; confirmed {confirmed}; errors {len(errors)}"
    )
    if errors:
        kinds = sorted(set(errors))
        line += f" ({len(kinds)} kinds; first: {kinds[0]})"
    return line


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

    crowds = [int(c) for c in args.phone_crowds.split(",") if c]
    # rounds 1 and 2 entered; a fresh round for each run of the phones
    tournament = build_tournament(
        players=PHONES * 4, rounds_played=2, rounds=2 + max(len(crowds) * args.repeat, 1)
    )
    deals_per_round = tournament.deals_per_round
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
        crowd_paths = [pages["standings page"], pages["standings live part"]]
        number = 2  # the rounds entered; each run of the phones draws a fresh one
        for crowd in crowds:
            deals, confirms, cpus, rates, checks = [], [], [], [], []
            crowd_errors: list[str] = []
            for _run in range(args.repeat):
                number += 1
                # a fresh round for each run: fresh tables, seats and deal numbers (a run
                # never enters a deal an earlier run entered, no phone takes a held seat)
                round_ = draws.draw_next_round(
                    tournament=tournament, number=number, seed=number, while_previous_open=True
                )
                tokens = list(round_.tables.order_by("number").values_list("token", flat=True))
                first = 80 * (number - 3)  # each phone a device and an address of its own
                phones = [
                    Phone(server.url, token, number=first + 2 * i) for i, token in enumerate(tokens)
                ]
                for i, (phone, token) in enumerate(zip(phones, tokens, strict=True)):
                    phone.partner = Phone(server.url, token, number=first + 2 * i + 1, position=1)
                crowd_done = []

                def hold(path, connections, seconds, done):
                    done.append(wrk(server.url + path, seconds=seconds, connections=connections))

                seconds = args.seconds
                holders = [  # no crowd (0): the phones alone, for reference
                    threading.Thread(target=hold, args=(p, crowd // 2, seconds + 4, crowd_done))
                    for p in crowd_paths
                    if crowd
                ]
                for holder in holders:
                    holder.start()
                if holders:
                    time.sleep(2)  # the crowd's connections open
                cpu = cpu_seconds(server.process.pid)
                times, errors = run_phones(
                    phones, poisson(args.deal_seconds, seconds, limit=deals_per_round)
                )
                cpus.append((cpu_seconds(server.process.pid) - cpu) * 1000)
                for holder in holders:
                    holder.join()
                checks.append(check_stored(round_, phones, errors))
                deals.append(times)
                confirms.append([t for phone in phones for t in phone.confirm_times])
                rates.append(sum(r["rps"] for r in crowd_done))
                crowd_errors.extend(r["errors"] for r in crowd_done if r["errors"] != "none")
            print(
                f"  {crowd} spectator connections on the standings, {PHONES} phones, a deal "
                f"every {args.deal_seconds:g} s each (confirmed by a second phone):",
                flush=True,
            )
            print(
                f"    deal p50 {spread([percentile(t, 50) * 1000 for t in deals], ' ms')}  "
                f"p95 {spread([percentile(t, 95) * 1000 for t in deals], ' ms')}  "
                f"max {spread([max(t, default=0) * 1000 for t in deals], ' ms')}",
                flush=True,
            )
            print(
                f"    confirmation p50 "
                f"{spread([percentile(t, 50) * 1000 for t in confirms], ' ms')}  "
                f"p95 {spread([percentile(t, 95) * 1000 for t in confirms], ' ms')}  "
                f"max {spread([max(t, default=0) * 1000 for t in confirms], ' ms')}",
                flush=True,
            )
            print(
                f"    deals stored {spread([len(t) for t in deals])} a run; server CPU "
                f"{spread([c / max(len(t), 1) for c, t in zip(cpus, deals, strict=True)], ' ms')}"
                f" per deal (with its confirmation, beside the crowd's pages); spectators "
                f"served {spread(rates)} req/s; {load()}",
                flush=True,
            )
            for check in checks:
                print(f"    {check}", flush=True)
            if crowd_errors:
                print(f"    the crowd's errors (wrk): {'; '.join(crowd_errors)}", flush=True)
    finally:
        server.stop()
        trivial.stop()


if __name__ == "__main__":
    random.seed(1)
    sys.path.insert(0, str(ROOT))
    main()
