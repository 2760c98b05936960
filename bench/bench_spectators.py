"""Spectators refreshing the public standings: wrk against the venue server as an organiser
starts it (``manage.py venue --data DIR --port 8210 --bind 127.0.0.1 --no-qr``: waitress with
its own settings, DEBUG off, SQLite in WAL mode, the cache in local memory).

Builds a 160-player tournament (2 rounds of 24 deals entered) in a fresh venue data folder,
starts the venue on it, runs wrk with --latency for a bounded time against the public
standings page and the projector partial, then stops the server. Goal (issue 8): 500
requests/s at p99 < 100 ms, no error. Needs Debian's wrk. With --redis: the club server's
cache (the venue has none), served by waitress-serve with the venue's connection settings.

    .venv/bin/python bench/bench_spectators.py [--players 160] [--seconds 15] [--connections 50]
        [--redis]   # the club server's cache (REDIS_URL, default redis://127.0.0.1:6379/15)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import urllib.request

from _support import (
    Waitress,
    build_tournament,
    scratch_database,
    setup_django,
    venue_folder,
    venue_server,
)

from venue.environment import VENUE_DATABASE_ENVIRONMENT


def wrk(url: str, *, seconds: int, connections: int, cookie: str = "") -> dict:
    header = ["-H", f"Cookie: {cookie}"] if cookie else []
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "--latency"]
        + [*header, url],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 30,
    ).stdout

    def ms(label: str) -> float:
        value, unit = re.search(rf"{label}\s+([\d.]+)(us|ms|s)\b", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Socket errors: (.*)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": ms("50%"),
        "p99": ms("99%"),
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "errors": (errors.group(1) if errors else "none")
        + (f", {non2xx.group(1)} non-2xx" if non2xx else ""),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument(
        "--connections",
        default="20,50",
        help="wrk's open connections, one run each (comma-separated). Each connection asks "
        "again as soon as it is answered: 20 is far more than 200 spectators refreshing every "
        "10 s, 50 a stress test where the wait in the queue (about connections / rate) dominates",
    )
    parser.add_argument("--port", type=int, default=8210)
    parser.add_argument("--threads", type=int, default=8, help="with --redis only")
    parser.add_argument("--redis", action="store_true", help="cache in Redis, as a club server")
    args = parser.parse_args()
    env = dict(VENUE_DATABASE_ENVIRONMENT)
    if args.redis:
        env["REDIS_URL"] = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (Debian package wrk)")
    folder = venue_folder()
    setup_django(scratch_database("sqlite", folder=folder))
    tournament = build_tournament(players=args.players, rounds_played=2)
    served = (
        f"waitress-serve ({args.threads} threads, DEBUG off, cache: Redis)"
        if args.redis
        else "manage.py venue as started by an organiser (its waitress settings, DEBUG off, "
        "cache: local memory)"
    )
    print(
        f"Spectators: {args.players} players, 2 rounds entered; {served}, "
        f"wrk -t2 -c{args.connections} -d{args.seconds}s. "
        "Shared 2-core machine: wrk and the server share the cores; figures are indicative. "
        f"Load average at start: {os.getloadavg()[0]:.1f}"
    )
    server = (
        Waitress(args.port, threads=args.threads, env=env)
        if args.redis
        else venue_server(folder, port=args.port)
    )
    with server:
        pages = [
            ("standings page (public)", f"/tournaments/{tournament.pk}/standings/"),
            ("standings partial (public)", f"/tournaments/{tournament.pk}/standings/?partial=1"),
            ("projector partial", f"/tournaments/{tournament.pk}/standings/projector/?partial=1"),
        ]
        for label, path in pages:
            with urllib.request.urlopen(server.url + path, timeout=10) as first:  # warms the cache
                assert f"Nachname{args.players - 1}".encode() in first.read()
                cookies = [h.split(";", 1)[0] for h in first.headers.get_all("Set-Cookie") or []]
            for connections in [int(c) for c in args.connections.split(",")]:
                # A first visit, then a browser refreshing: it sends back the cookies it was
                # given (the CSRF cookie of the page's language form).
                for visit, cookie in (("first", ""), ("again", "; ".join(cookies))):
                    if visit == "again" and not cookies:
                        continue
                    r = wrk(
                        server.url + path,
                        seconds=args.seconds,
                        connections=connections,
                        cookie=cookie,
                    )
                    print(
                        f"{label:<27} {visit:<5} c={connections:<3} {r['rps']:5.0f} req/s  "
                        f"p50 {r['p50']:6.1f} ms  p99 {r['p99']:6.1f} ms  "
                        f"({r['requests']} requests; errors: {r['errors']})"
                    )


if __name__ == "__main__":
    main()
