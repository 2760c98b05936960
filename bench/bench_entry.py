"""Concurrent result entry from phones, through HTTP: on SQLite against the venue server as an
organiser starts it (``manage.py venue --data DIR --port N --bind 127.0.0.1 --no-qr``), on
PostgreSQL against waitress-serve with the venue's connection settings (the venue itself is
SQLite only); DEBUG off. Each phone opens its table's page, picks its seat, and sends deals through
the phone form with its CSRF token, following the redirect as a phone does. Afterwards the
stored deals are counted: every accepted submission exactly once.

Phases, each on a fresh tournament of 160 players (40 tables, one phone each):
  A  every phone sends a deal every 20 s on average, at random moments (Poisson), for
     --seconds (default 60 s: a scaled-down day, same rate; a real round is 24 deals, 8 min)
  B  a burst: 40 deals sent at the same instant
  C  ten times the rate (every 2 s on average) for 30 s
  D  flat out: every phone sends its 24 deals back to back (entry only)
  E  as D, each deal confirmed at once by a second phone at the table
Each phone is a device of its own (cookies, User-Agent, a 127.0.x.y source address): in
A, B, C and E the table's second phone (seat 2) confirms every deal the first one enters.
On SQLite (a file, IMMEDIATE transactions) and PostgreSQL (127.0.0.1, CONN_MAX_AGE=60).

    .venv/bin/python bench/bench_entry.py [--db sqlite|postgres|both] [--seconds 60]
        [--phases ABCDE] [--port 8220] [--phones 40]
Port 8220 (SQLite) and 8221 (PostgreSQL) unless --port (SQLite on it, PostgreSQL on the next);
PG_BENCH_URL names the scratch PostgreSQL database.

Besides the wall-clock figures each phase prints the server's CPU time per deal (the waitress
process's user + system time from /proc over the phase, divided by the deals: one POST and the
GET its redirect leads to; the database server's own CPU is not in it). CPU time is what the
shared machine's load disturbs least.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import http.cookiejar
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid

from _support import (
    Waitress,
    build_tournament,
    scratch_database,
    setup_django,
    venue_folder,
    venue_server,
)

PHONES = 40  # --phones


class _BoundHTTPHandler(urllib.request.HTTPHandler):
    """Connects from its own loopback address (127.0.0.0/8 is all this machine's)."""

    def __init__(self, source: str):
        super().__init__()
        self.source = source

    def http_open(self, req):
        return self.do_open(
            functools.partial(http.client.HTTPConnection, source_address=(self.source, 0)), req
        )


class Phone:
    """One player's phone at one table: its own cookies (session, CSRF, device id), its own
    browser (User-Agent) and its own address (a 127.0.0.x source address), so that the app
    sees a device of its own (a deal entered on one phone is confirmed on another).
    ``using``: the bench's connection to the database that server writes to."""

    using = "default"

    def __init__(self, base: str, token: str, *, number: int, position: int = 0):
        self.base = base
        self.url = f"{base}/t/{token}/"
        self.jar = http.cookiejar.CookieJar()
        source = f"127.0.{1 + number // 250}.{1 + number % 250}"
        self.opener = urllib.request.build_opener(
            _BoundHTTPHandler(source), urllib.request.HTTPCookieProcessor(self.jar)
        )
        self.opener.addheaders = [("User-Agent", f"BenchPhone/{number} (table phone)")]
        self.next_number = 1
        self.keys: list[uuid.UUID] = []
        self.partner: Phone | None = None  # confirms each deal this phone enters
        self.confirm_times: list[float] = []
        self.opener.open(self.url, timeout=30).read()
        _status, _final, page = self._post(self.url + "seat/", {"position": str(position)})
        if 'name="submission_key"' not in page:  # the sheet with the deal form, not the seats
            raise RuntimeError(f"seat {position} not taken: {page_problem(page)}")

    def _csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def _post(self, url: str, fields: dict) -> tuple[int, str, str]:
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self._csrf()}).encode()
        request = urllib.request.Request(url, data=data, headers={"Referer": self.url})
        with self.opener.open(request, timeout=60) as response:  # follows the redirect
            return response.status, response.geturl(), response.read().decode(errors="replace")

    def send_deal(self, rng: random.Random) -> float:
        """One deal (a Cego, declarer at seat 1); the seconds until the phone shows the sheet."""
        key = uuid.uuid4()
        fields = {
            "number": str(self.next_number),
            "contract": "cego",
            "declarer": "0",
            "declarer_points": str(rng.randint(20, 79)),
            "submission_key": str(key),
        }
        start = time.perf_counter()
        status, final, page = self._post(self.url, fields)
        elapsed = time.perf_counter() - start
        # A stored deal redirects to the sheet; a form with an error is answered 200 at the
        # same address too: only the database says whether the deal was stored.
        stored = stored_deal(key, using=self.using)
        if status != 200 or final != self.url or stored is None:
            raise RuntimeError(
                f"deal {self.next_number} not stored: {status} {final}: {page_problem(page)}"
            )
        self.keys.append(key)
        self.next_number += 1
        if self.partner is not None:
            self.confirm_times.append(self.partner.confirm(*stored))
        return elapsed

    def confirm(self, pk: int, version: int) -> float:
        """Confirm the deal another phone at the table entered (its id and version as the
        phone's sheet shows them); the seconds until the phone shows the sheet again. Raises
        unless the deal is confirmed afterwards."""
        from tournaments.models import Deal

        start = time.perf_counter()
        status, final, page = self._post(
            f"{self.url}deals/{pk}/confirm/", {"version": str(version)}
        )
        elapsed = time.perf_counter() - start
        confirmed = (
            Deal.objects.using(self.using).filter(pk=pk, status=Deal.Status.CONFIRMED).exists()
        )
        if status != 200 or final != self.url or not confirmed:
            raise RuntimeError(f"deal {pk} not confirmed: {status} {final}: {page_problem(page)}")
        return elapsed


def stored_deal(key: uuid.UUID, *, using: str = "default") -> tuple[int, int] | None:
    """The id and version of the deal stored with ``key``, None if there is none."""
    from tournaments.models import Deal

    return Deal.objects.using(using).filter(submission_key=key).values_list("pk", "version").first()


def page_problem(page: str) -> str:
    """What a page answered instead of the sheet says is wrong: the form's errors, a clash,
    the page's alerts, else its title (e.g. the seat's choice)."""
    found = [
        re.sub(r"<[^>]+>|\s+", " ", text).strip()
        for text in re.findall(
            r'<(?:ul class="errorlist[^"]*"|p class="error"|section class="clash"|'
            r'[a-z]+ class="[^"]*message[^"]*error[^"]*")[^>]*>(.*?)</(?:ul|p|section|li|div)>',
            page,
            re.S,
        )
    ]
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    found.append("title: " + (title.group(1).strip() if title else "?"))
    return "; ".join(f for f in found if f)[:300]


def run_phones(phones, work) -> tuple[list[float], list[str]]:
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    t0 = time.monotonic()

    def one(index, phone):
        rng = random.Random(index)
        try:
            for elapsed in work(index, phone, rng, t0):
                with lock:
                    times.append(elapsed)
        except Exception as error:  # counted and shown, the other phones go on
            with lock:
                errors.append(repr(error)[:200])
        finally:
            # the thread's own database connection (its checks of what was stored): left
            # open, each phase's forty added forty to PostgreSQL's hundred, and `make bench`
            # ran out ("too many clients") in its fifth phase
            from django.db import connections

            connections.close_all()

    threads = [threading.Thread(target=one, args=(i, p)) for i, p in enumerate(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times, errors


def poisson(mean_seconds: float, duration: float, limit: int = 24):
    def work(index, phone, rng, start):
        moment = start + rng.expovariate(1 / mean_seconds)
        while moment < start + duration and phone.next_number <= limit:
            time.sleep(max(0.0, moment - time.monotonic()))
            yield phone.send_deal(rng)
            moment += rng.expovariate(1 / mean_seconds)

    return work


def burst(barrier: threading.Barrier):
    def work(index, phone, rng, start):
        barrier.wait()
        yield phone.send_deal(rng)

    return work


def flat_out(index, phone, rng, start):
    while phone.next_number <= 24:
        yield phone.send_deal(rng)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc), NaN elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def phase(label: str, server, work, *, wall: bool = False, confirm: bool = True) -> None:
    """One phase on a fresh tournament; ``confirm``: a second phone at each table (seat 2)
    confirms every deal right after it is entered (its POST and page in the server CPU)."""
    from tournaments.models import Deal

    tournament = build_tournament(players=PHONES * 4, rounds_played=0, rounds=1, name=label)
    from tournaments.services import draws

    round_ = draws.draw_next_round(tournament=tournament, number=1, seed=1)
    tokens = list(round_.tables.order_by("number").values_list("token", flat=True))
    phones = [Phone(server.url, token, number=2 * i) for i, token in enumerate(tokens)]
    if confirm:
        for i, (phone, token) in enumerate(zip(phones, tokens, strict=True)):
            phone.partner = Phone(server.url, token, number=2 * i + 1, position=1)
    cpu_start = cpu_seconds(server.process.pid)
    start = time.perf_counter()
    times, errors = run_phones(phones, work)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds(server.process.pid) - cpu_start
    keys = [key for phone in phones for key in phone.keys]
    stored = Deal.objects.filter(table__round=round_).count()
    confirmed = Deal.objects.filter(table__round=round_, status=Deal.Status.CONFIRMED).count()
    confirms = [t for phone in phones for t in phone.confirm_times]
    exactly_once = Deal.objects.filter(submission_key__in=keys).count() == len(keys) == stored
    line = (
        f"  {label:<34} {len(times):4d} deals in {seconds:5.1f} s ({len(times) / seconds:5.1f}/s)"
        f"  p50 {percentile(times, 50) * 1000:6.0f} ms  p95 {percentile(times, 95) * 1000:6.0f} ms"
        f"  p99 {percentile(times, 99) * 1000:6.0f} ms  max {max(times, default=0) * 1000:6.0f} ms"
    )
    if wall:
        line += f"  all stored after {max(times, default=0):.2f} s"
    print(line)
    print(
        f"  {'':<34} stored {stored}, each accepted deal exactly once: "
        f"{'yes' if exactly_once else 'NO'}; errors: {len(errors)}"
        + (f" (first: {errors[0]})" if errors else "")
        + f"; confirmed by a second phone: {confirmed}"
        + (f" (p95 {percentile(confirms, 95) * 1000:.0f} ms)" if confirms else " (none asked)")
        + f"; server CPU {cpu * 1000 / max(len(times), 1):.1f} ms per deal"
        + (" (entry and confirmation: 2 POSTs, 2 pages)" if confirm else " (POST + page)")
        + f"; load average {os.getloadavg()[0]:.1f}"
    )


def run(kind: str, seconds: int, port: int, phases: str) -> None:
    if kind == "sqlite":
        folder = venue_folder()
        setup_django(scratch_database(kind, folder=folder))
        server = venue_server(folder, port=port)
        served = "manage.py venue as an organiser starts it"
    else:
        setup_django(scratch_database(kind))
        server = Waitress(port, threads=8, env={"CONN_MAX_AGE": "60"})
        served = "waitress-serve 8 threads"
    print(f"{kind}: {served}, DEBUG off; {PHONES} phones (one per table)")
    with server:
        if "A" in phases:
            phase(f"A one deal / 20 s each, {seconds} s", server, poisson(20, seconds))
        if "B" in phases:
            barrier = threading.Barrier(PHONES)
            phase("B burst of 40 at one instant", server, burst(barrier), wall=True)
        if "C" in phases:
            phase("C one deal / 2 s each, 30 s", server, poisson(2, 30))
        if "D" in phases:
            # the goal's figure: a deal's POST and its page, nothing else
            phase("D flat out, 24 deals each", server, flat_out, confirm=False)
        if "E" in phases:
            phase("E flat out, each deal confirmed", server, flat_out)


def main() -> None:
    global PHONES
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--seconds", type=int, default=60, help="length of phase A")
    parser.add_argument("--phases", default="ABCDE", help="which phases to run, e.g. AB")
    parser.add_argument("--port", type=int, default=8220, help="SQLite's; PostgreSQL's is next")
    parser.add_argument(
        "--phones", type=int, default=PHONES, help="one per table; 1: a deal without contention"
    )
    args = parser.parse_args()
    PHONES = args.phones
    if args.db == "both":
        print(
            "Concurrent phone entry over HTTP (POST + redirect, CSRF). Shared 2-core machine: "
            "client threads, server and database share the cores; figures are indicative. "
            f"Load average at start: {os.getloadavg()[0]:.1f}"
        )
        for kind in ("sqlite", "postgres"):
            subprocess.run(
                [
                    *(sys.executable, __file__, "--db", kind, "--seconds", str(args.seconds)),
                    *("--phases", args.phases, "--port", str(args.port)),
                    *("--phones", str(args.phones)),
                ],
                check=True,
            )
        return
    run(args.db, args.seconds, args.port + (args.db == "postgres"), args.phases.upper())


if __name__ == "__main__":
    main()
