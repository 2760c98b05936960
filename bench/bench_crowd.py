"""A crowd on the venue, and the phones beside it (issues 29 and 43), with a verdict.

Starts the venue as an organiser does (``manage.py venue --data DIR --port N --bind
127.0.0.1 --no-qr``) on a fresh data folder with a 160-player tournament (2 rounds entered),
and beside it a trivial WSGI application ("ok") on waitress with the venue's own settings
(threads, connection limit, backlog) for comparison. With ``--baseline REF`` the code of REF
(a git worktree of it, made and removed by the bench) is started the same way on a copy of
the data folder (every round drawn before it is copied) on the next port, and every
measurement is made on both, back to back (this code first), so the machine's speed and load
change both figures alike: the verdict compares with the goals and the baseline measured in
the same minutes. (REF must read this code's data: the same migrations.)

1. **Rate** (--connections, default 500; '' to leave out): wrk with C open connections asking
   again as soon as answered, against the trivial app and the standings page: requests/s,
   p50/p99, CPU per request (the venue's processes together, /proc), and the share of the
   trivial app's rate (goal: at least 1/3).
2. **Phones beside the crowd** (--phone-crowds, default 200,500; 0: the phones alone): wrk
   holds C connections on the standings page and its live part while 40 phones (each a
   device of its own) send a deal every --deal-seconds on average (Poisson), a second phone
   at each table confirming every deal. A fresh round for each run. p50/p95/max of a deal
   (POST and its page) and of a confirmation. Goals: beside 200 deal p95 < 150 ms; beside 500
   p95 < 300 ms and max < 1 s. A deal counts only if the database holds it (its submission
   key), exactly once, and confirmed.
3. **A hall** (--mix-seconds, default 25; 0 to leave out): no wrk. The 40 table phones as
   above, and --players (150) players' own phones, each a browser keeping its connection
   open: it opens "Mein Platz" and then refreshes its live part every 20-30 s (every third
   player the standings' live part instead), and the projector polls its board every 20 s.
   p95/max of a deal and of a player's refresh; goal as beside 200.

Each figure is min/median/max over --repeat runs, with the load average (1 min) at its end.
The 2-core machine is shared by wrk, the phones and the server(s): a figure taken at a load
above 3 is provisional, and the bench says so.

    .venv/bin/python bench/bench_crowd.py [--seconds 10] [--repeat 1] [--baseline main]
        [--connections 500] [--phone-crowds 200,500] [--mix-seconds 30] [--deal-seconds 5]
"""

from __future__ import annotations

import argparse
import http.client
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
from dataclasses import dataclass, field
from pathlib import Path

from _support import ROOT, build_tournament, scratch_database, setup_django, venue_folder
from bench_entry import Phone, percentile, poisson, run_phones
from bench_spectators import wrk

from venue.serving import BACKLOG, CONNECTION_LIMIT

PHONES = 40
# crowd -> (deal p95 goal, deal max goal) in ms (issue 43); the hall's mix as beside 200
GOALS: dict[int, tuple[float, float | None]] = {200: (150.0, None), 500: (300.0, 1000.0)}
MIX_GOAL = 150.0
SPECTATOR_SHARE = 1 / 3  # of the trivial app's rate, at least
QUIET_LOAD = 3.0
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
    if len(values) == 1:
        return f"{fmt.format(mid)}{unit}"
    return f"{fmt.format(low)}/{fmt.format(mid)}/{fmt.format(high)}{unit}"


def load_now() -> float:
    return os.getloadavg()[0]


def tree_cpu(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and the processes it started (Linux /proc): the
    venue's spectators' process counts with it."""
    total = 0.0
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        todo.extend(children.get(current, []))
    return total


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


@dataclass
class Candidate:
    """One code's venue: this checkout, or the baseline's worktree."""

    label: str
    root: Path
    folder: Path
    alias: str = "default"  # the bench's connection to its database
    server: object = None
    results: dict = field(default_factory=dict)  # (phase, crowd) -> list of run dicts

    def start(self, port: int, env: dict) -> None:
        from tests.servers import Server, wait_for_line

        folder = self.folder
        log = folder.parent / f"venue-{self.label.split()[0]}.log"
        handle = open(log, "w")  # noqa: SIM115 - the server writes to it until stopped
        process = subprocess.Popen(
            [sys.executable, str(self.root / "manage.py"), "venue", "--data", str(folder)]
            + ["--port", str(port), "--bind", "127.0.0.1", "--no-qr"],
            cwd=self.root,
            env={**env, "PYTHONPATH": str(self.root)},
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_line(log, r"localhost:(\d+)/", process, timeout=600)
            if (self.root / "venue" / "spectators.py").exists():  # its second process ready
                wait_for_line(log, r"(zweiter Prozess|second process)", process, timeout=600)
        except RuntimeError:
            process.kill()
            raise
        self.server = Server(process, f"http://127.0.0.1:{port}", log)

    def add(self, phase: str, crowd: int, run: dict) -> None:
        self.results.setdefault((phase, crowd), []).append(run)


def copy_data(folder: Path) -> Path:
    """A copy of the data folder's database in a fresh folder, which the bench reads as the
    connection ``baseline``."""
    import sqlite3

    from django.db import connections

    connections.close_all()
    copy = venue_folder()
    with (
        sqlite3.connect(folder / "db.sqlite3") as source,
        sqlite3.connect(copy / "db.sqlite3") as target,
    ):
        source.backup(target)
    connections.settings["baseline"] = {
        **connections.settings["default"],
        "NAME": str(copy / "db.sqlite3"),
    }
    return copy


def baseline_tree(ref: str) -> Path:
    where = Path(tempfile.mkdtemp(prefix="bench-baseline-")) / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(where), ref],
        check=True,
    )
    return where


def remove_tree(where: Path) -> None:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], check=False
    )


def check_stored(round_, phones, errors: list[str], using: str = "default") -> str:
    """What the database holds after a run: every deal a phone counted, exactly once,
    confirmed, and nothing else."""
    from tournaments.models import Deal

    keys = [key for phone in phones for key in phone.keys]
    in_round = Deal.objects.using(using).filter(table__round__number=round_.number)
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
    cpu = tree_cpu(pid)
    result = wrk(server_url + path, seconds=seconds, connections=connections)
    result["cpu_ms"] = (tree_cpu(pid) - cpu) * 1000 / max(result["requests"], 1)
    result["load"] = load_now()
    return result


class Rounds:
    """A fresh round for each run: fresh tables, seats and deal numbers (a run never enters a
    deal an earlier run entered, no phone takes a held seat). All drawn at the start, before
    the baseline's copy of the data is made: the n-th run of each code plays round 2 + n, each
    in its own database."""

    def __init__(self, tournament, runs: int):
        from tournaments.services import draws

        self.tournament = tournament
        self.rounds = [
            draws.draw_next_round(
                tournament=tournament, number=number, seed=number, while_previous_open=True
            )
            for number in range(3, 3 + runs)  # rounds 1 and 2 entered
        ]
        self.taken: dict[str, int] = {}

    def phones(self, candidate):
        server_url = candidate.server.url
        index = self.taken.get(candidate.label, 0)
        self.taken[candidate.label] = index + 1
        round_ = self.rounds[index]
        self.number = round_.number
        tokens = list(round_.tables.order_by("number").values_list("token", flat=True))
        first = 80 * (self.number - 3)  # each phone a device and an address of its own
        phones = [Phone(server_url, token, number=first + 2 * i) for i, token in enumerate(tokens)]
        for i, (phone, token) in enumerate(zip(phones, tokens, strict=True)):
            phone.partner = Phone(server_url, token, number=first + 2 * i + 1, position=1)
            phone.using = phone.partner.using = candidate.alias
        return round_, phones


def phones_run(candidate, rounds, *, crowd_paths, crowd: int, seconds: int, deal_seconds):
    """40 phones entering and confirming deals for ``seconds`` beside ``crowd`` wrk
    connections on ``crowd_paths``."""
    server = candidate.server
    round_, phones = rounds.phones(candidate)
    crowd_done: list[dict] = []

    def hold(path, connections):
        crowd_done.append(wrk(server.url + path, seconds=seconds + 4, connections=connections))

    holders = [
        threading.Thread(target=hold, args=(p, crowd // len(crowd_paths)))
        for p in crowd_paths
        if crowd
    ]
    for holder in holders:
        holder.start()
    if holders:
        time.sleep(2)  # the crowd's connections open
    cpu = tree_cpu(server.process.pid)
    times, errors = run_phones(
        phones, poisson(deal_seconds, seconds, limit=rounds.tournament.deals_per_round)
    )
    cpu = (tree_cpu(server.process.pid) - cpu) * 1000
    for holder in holders:
        holder.join()
    return {
        "deals": times,
        "confirms": [t for phone in phones for t in phone.confirm_times],
        "cpu_per_deal": cpu / max(len(times), 1),
        "crowd_rps": sum(r["rps"] for r in crowd_done),
        "crowd_errors": [r["errors"] for r in crowd_done if r["errors"] != "none"],
        "check": check_stored(round_, phones, errors, candidate.alias),
        "ok": _all_stored(round_, phones, errors, candidate.alias),
        "load": load_now(),
    }


def _all_stored(round_, phones, errors, using: str) -> bool:
    from tournaments.models import Deal

    keys = [key for phone in phones for key in phone.keys]
    in_round = Deal.objects.using(using).filter(table__round__number=round_.number)
    return (
        not errors
        and len(set(keys)) == len(keys) == in_round.count()
        and in_round.filter(status=Deal.Status.CONFIRMED).count() == len(keys)
    )


class Browser:
    """A player's own phone: one browser keeping its connection to the venue (reopened if
    the server closed it), asking for pages now and then."""

    def __init__(self, url: str):
        self.host, port = url.removeprefix("http://").split(":")
        self.port = int(port)
        self.connection: http.client.HTTPConnection | None = None
        self.times: list[float] = []
        self.errors: list[str] = []

    def get(self, path: str) -> None:
        start = time.perf_counter()
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self.connection.request("GET", path, headers={"User-Agent": "BenchBrowser"})
                response = self.connection.getresponse()
                response.read()
                if response.status != 200:
                    self.errors.append(f"{path}: {response.status}")
                break
            except (OSError, http.client.HTTPException) as error:
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    self.errors.append(f"{path}: {error!r}")
                    return
        self.times.append(time.perf_counter() - start)


def mix_run(candidate, rounds, *, players: int, seconds: int, deal_seconds: float) -> dict:
    """The hall: table phones, players' own phones refreshing, the projector polling."""
    server = candidate.server
    tournament = rounds.tournament
    round_, phones = rounds.phones(candidate)
    base = f"/tournaments/{tournament.pk}"
    stop = time.monotonic() + seconds
    browsers: list[Browser] = []

    def player(number: int) -> None:
        rng = random.Random(number)
        browser = Browser(server.url)
        browsers.append(browser)
        time.sleep(rng.uniform(0, 25))  # they arrive over the first refresh
        live = f"{base}/me/{number}/?partial=1" if number % 3 else f"{base}/standings/?partial=1"
        browser.get(f"{base}/me/{number}/")
        while time.monotonic() + 0.1 < stop:
            time.sleep(max(0.0, min(rng.uniform(20, 30), stop - time.monotonic())))
            if time.monotonic() >= stop:
                break
            browser.get(live)

    def projector() -> None:
        browser = Browser(server.url)
        browsers.append(browser)
        browser.get(f"{base}/standings/projector/")
        while time.monotonic() + 20 < stop:
            time.sleep(20)
            browser.get(f"{base}/standings/projector/?partial=1")

    threads = [threading.Thread(target=player, args=(n,)) for n in range(1, players + 1)]
    threads.append(threading.Thread(target=projector))
    for thread in threads:
        thread.start()
    cpu = tree_cpu(server.process.pid)
    times, errors = run_phones(
        phones, poisson(deal_seconds, seconds, limit=tournament.deals_per_round)
    )
    cpu = (tree_cpu(server.process.pid) - cpu) * 1000
    for thread in threads:
        thread.join()
    for browser in browsers:
        if browser.connection is not None:
            browser.connection.close()
    return {
        "deals": times,
        "confirms": [t for phone in phones for t in phone.confirm_times],
        "pages": [t for b in browsers for t in b.times],
        "page_errors": [e for b in browsers for e in b.errors],
        "cpu_per_deal": cpu / max(len(times), 1),
        "check": check_stored(round_, phones, errors, candidate.alias),
        "ok": _all_stored(round_, phones, errors, candidate.alias),
        "load": load_now(),
    }


def ms(values: list[float], p: float | None) -> float:
    if not values:
        return float("nan")
    return (max(values) if p is None else percentile(values, p)) * 1000


def show_runs(label: str, runs: list[dict]) -> None:
    deals = [r["deals"] for r in runs]
    confirms = [r["confirms"] for r in runs]
    loads = [r["load"] for r in runs]
    line = (
        f"    {label:<22} deal p50 {spread([ms(t, 50) for t in deals], ' ms')}  "
        f"p95 {spread([ms(t, 95) for t in deals], ' ms')}  "
        f"max {spread([ms(t, None) for t in deals], ' ms')} | confirmation p95 "
        f"{spread([ms(t, 95) for t in confirms], ' ms')} max "
        f"{spread([ms(t, None) for t in confirms], ' ms')} | {spread([len(t) for t in deals])} "
        f"deals, CPU {spread([r['cpu_per_deal'] for r in runs], ' ms')}/deal"
    )
    if "crowd_rps" in runs[0]:
        line += f" | crowd {spread([r['crowd_rps'] for r in runs])} req/s"
    if "pages" in runs[0]:
        pages = [r["pages"] for r in runs]
        line += (
            f" | players' pages {spread([len(p) for p in pages])}: p95 "
            f"{spread([ms(p, 95) for p in pages], ' ms')} max "
            f"{spread([ms(p, None) for p in pages], ' ms')}"
        )
    line += f" | load {spread(loads, digits=1)}"
    print(line, flush=True)
    for run in runs:
        if not run["ok"]:
            print(f"      {run['check']}", flush=True)
        for error in run.get("crowd_errors", []):
            print(f"      wrk: {error}", flush=True)
        if run.get("page_errors"):
            print(f"      players' pages: {run['page_errors'][:3]}", flush=True)


def verdict(candidate: Candidate, *, crowds: list[int], rate_share: list[float]) -> list[str]:
    """Each goal met or not, from ``candidate``'s runs (the median run's p95, the slowest
    run's max)."""
    lines = []
    for crowd in crowds:
        runs = candidate.results.get(("crowd", crowd), [])
        if not runs or crowd not in GOALS:
            continue
        p95_goal, max_goal = GOALS[crowd]
        p95 = statistics.median(ms(r["deals"], 95) for r in runs)
        worst = max(ms(r["deals"], None) for r in runs)
        met = p95 < p95_goal and (max_goal is None or worst < max_goal)
        goal = f"p95 < {p95_goal:.0f} ms" + (f", max < {max_goal:.0f} ms" if max_goal else "")
        lines.append(
            f"beside {crowd}: deal p95 {p95:.0f} ms, max {worst:.0f} ms (goal {goal}): "
            + ("met" if met else "NOT MET")
        )
    runs = candidate.results.get(("mix", 0), [])
    if runs:
        p95 = statistics.median(ms(r["deals"], 95) for r in runs)
        pages = statistics.median(ms(r["pages"], 95) for r in runs)
        lines.append(
            f"the hall: deal p95 {p95:.0f} ms, players' pages p95 {pages:.0f} ms (goal deal "
            f"p95 < {MIX_GOAL:.0f} ms): " + ("met" if p95 < MIX_GOAL else "NOT MET")
        )
    everything = [r for runs in candidate.results.values() for r in runs if "ok" in r]
    stored = all(r["ok"] for r in everything)
    lines.append(
        "every deal stored once and confirmed: " + ("yes" if stored else "NO")
        if everything
        else "no deals entered"
    )
    if rate_share:
        share = statistics.median(rate_share)
        lines.append(
            f"spectators served at {share:.2f} of the trivial app's rate (goal >= "
            f"{SPECTATOR_SHARE:.2f}): " + ("met" if share >= SPECTATOR_SHARE else "NOT MET")
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--connections", default="500")
    parser.add_argument("--phone-crowds", default="200,500")
    parser.add_argument("--mix-seconds", type=int, default=25)
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--deal-seconds", type=float, default=5.0)
    parser.add_argument("--baseline", default=None, help="a git ref: its code measured beside")
    parser.add_argument("--port", type=int, default=8240)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (Debian package wrk)")
    began = time.monotonic()
    folder = venue_folder()
    setup_django(scratch_database("sqlite", folder=folder))
    from tests.servers import clean_env

    crowds = [int(c) for c in args.phone_crowds.split(",") if c]
    candidates = [Candidate("this code", ROOT, folder)]
    tree = None
    runs_each = len(crowds) * args.repeat + (1 if args.mix_seconds else 0)
    tournament = build_tournament(players=PHONES * 4, rounds_played=2, rounds=2 + runs_each)
    rounds = Rounds(tournament, runs_each)
    if args.baseline:
        tree = baseline_tree(args.baseline)
        candidates.append(
            Candidate(f"baseline {args.baseline}", tree, copy_data(folder), alias="baseline")
        )
    print(
        f"Crowd and phones on the venue ({PHONES * 4} players, 2 rounds entered); wrk -t2, "
        f"{args.seconds} s a run, min/median/max of {args.repeat} run(s), "
        + " and ".join(c.label for c in candidates)
        + " back to back. 2-core machine: wrk, phones and servers share the cores. "
        f"Start: load {load_now():.1f}",
        flush=True,
    )
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    trivial = None
    try:
        for number, candidate in enumerate(candidates):
            candidate.start(args.port + 2 * number, env)
        trivial = Trivial(args.port + 1)
        pages = {
            "standings page": f"/tournaments/{tournament.pk}/standings/",
            "standings live part": f"/tournaments/{tournament.pk}/standings/?partial=1",
        }
        for candidate in candidates:
            for path in pages.values():
                urllib.request.urlopen(candidate.server.url + path, timeout=60).read()  # warm
        shares: dict[str, list[float]] = {c.label: [] for c in candidates}
        for connections in [int(c) for c in args.connections.split(",") if c]:
            print(f"  Rate, {connections} connections asking without pause:", flush=True)
            for _ in range(args.repeat):
                base = rate(
                    trivial.url,
                    trivial.process.pid,
                    "/",
                    seconds=args.seconds,
                    connections=connections,
                )
                print(
                    f"    {'trivial app':<22} {base['rps']:.0f} req/s  p50 {base['p50']:.0f} ms"
                    f"  p99 {base['p99']:.0f} ms  CPU {base['cpu_ms']:.2f} ms/request  "
                    f"load {base['load']:.1f}",
                    flush=True,
                )
                for candidate in candidates:
                    result = rate(
                        candidate.server.url,
                        candidate.server.process.pid,
                        pages["standings page"],
                        seconds=args.seconds,
                        connections=connections,
                    )
                    share = result["rps"] / base["rps"]
                    shares[candidate.label].append(share)
                    print(
                        f"    {candidate.label:<22} standings {result['rps']:.0f} req/s "
                        f"({share:.2f} of the trivial app)  p50 {result['p50']:.0f} ms  "
                        f"p99 {result['p99']:.0f} ms  CPU {result['cpu_ms']:.2f} ms/request  "
                        f"errors: {result['errors']}; load {result['load']:.1f}",
                        flush=True,
                    )
        crowd_paths = list(pages.values())
        for crowd in crowds:
            for _ in range(args.repeat):
                for candidate in candidates:  # back to back
                    candidate.add(
                        "crowd",
                        crowd,
                        phones_run(
                            candidate,
                            rounds,
                            crowd_paths=crowd_paths,
                            crowd=crowd,
                            seconds=args.seconds,
                            deal_seconds=args.deal_seconds,
                        ),
                    )
            print(
                f"  {crowd} spectator connections on the standings, {PHONES} phones, a deal "
                f"every {args.deal_seconds:g} s each (confirmed by a second phone):",
                flush=True,
            )
            for candidate in candidates:
                show_runs(candidate.label, candidate.results[("crowd", crowd)])
        if args.mix_seconds:
            for candidate in candidates:
                candidate.add(
                    "mix",
                    0,
                    mix_run(
                        candidate,
                        rounds,
                        players=args.players,
                        seconds=args.mix_seconds,
                        deal_seconds=args.deal_seconds,
                    ),
                )
            print(
                f"  The hall, {args.mix_seconds} s: {PHONES} table phones as above, "
                f"{args.players} players' phones refreshing every 20-30 s on their own "
                "connections, the projector polling its board:",
                flush=True,
            )
            for candidate in candidates:
                show_runs(candidate.label, candidate.results[("mix", 0)])
    finally:
        for candidate in candidates:
            if candidate.server is not None:
                candidate.server.stop()
        if trivial is not None:
            trivial.stop()
        if tree is not None:
            remove_tree(tree)
    loads = [r["load"] for c in candidates for runs in c.results.values() for r in runs]
    provisional = max(loads, default=load_now()) > QUIET_LOAD
    print(
        f"Verdict ({'PROVISIONAL: load up to ' if provisional else 'load at most '}"
        f"{max(loads, default=load_now()):.1f}"
        + (f", above {QUIET_LOAD:g}: run again on a quiet machine" if provisional else "")
        + f"; {time.monotonic() - began:.0f} s):",
        flush=True,
    )
    for candidate in candidates:
        for line in verdict(candidate, crowds=crowds, rate_share=shares[candidate.label]):
            print(f"  {candidate.label}: {line}", flush=True)


if __name__ == "__main__":
    random.seed(1)
    sys.path.insert(0, str(ROOT))
    main()
