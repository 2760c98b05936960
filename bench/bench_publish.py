"""Publishing live, from the hall to the season server, both started as users start them: the
venue with ``manage.py venue --data DIR --publish-to URL`` (its token in
``CEGO_PUBLISH_TOKEN``), the season server with gunicorn (3 workers × 4 threads, as
docs/DEPLOY.md) on PostgreSQL with Redis. Between them a small TCP relay in this process
counts the bytes the venue sends and plays the outage.

Phases:
  first   a 160-player tournament with 2 rounds played (1,920 deals) publishes whole
  live    one deal at a time (a phone's POST at the venue, 1 s apart): the seconds until
          the deal is committed on the server and its public standings page has been read
          afterwards; p50 / p95 / max; bytes the venue sent per deal
  cpu     100 deals, the server's CPU (all gunicorn processes, user + system from /proc) per
          applied deal; nothing else asks the server meanwhile
  outage  the relay refuses connections for --outage seconds (60) while 200 deals are
          entered; the seconds from its end until all 200 are on the server
  big     a second laptop with a tournament of 4,032 deals (168 players, 4 rounds) publishes
          whole: seconds and bytes

    .venv/bin/python bench/bench_publish.py [--outage 60] [--live 40] [--skip-big]

Ports 8230-8233 (127.0.0.1 only); PG_BENCH_URL names the scratch PostgreSQL database
(default cego_bench_publish). The machine is shared: figures are indicative.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from _support import ROOT, setup_django, venue_folder

from tests.servers import Phone, clean_env, start_venue, stored

SERVER_PORT, RELAY_PORT = 8230, 8231
CLUB = ("Benchclub", "BC", "Triberg")


class Relay:
    """A TCP relay 127.0.0.1:RELAY_PORT → the season server that counts the bytes sent to
    it and, while ``down``, refuses connections (the hall's internet is away)."""

    def __init__(self, listen: int, target: int):
        self.target = target
        self.sent = 0
        self.down = False
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", listen))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            if self.down:
                client.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                )
                client.close()  # a reset: as a connection that cannot be made
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                client.close()
                continue
            # The 10 s were for connecting only: an answer slower than that (a snapshot of
            # thousands of deals) is the laptop's own timeout's to cut, not the relay's.
            upstream.settimeout(None)
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()

    def _pipe(self, source, target, counted: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if counted:
                    with self.lock:
                        self.sent += len(chunk)
                target.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, target):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its children (gunicorn's workers)."""
    total = 0.0
    pids = [pid] + [
        int(p)
        for p in subprocess.run(
            ["pgrep", "-P", str(pid)], capture_output=True, text=True
        ).stdout.split()
    ]
    ticks = os.sysconf("SC_CLK_TCK")
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def figures(label: str, values: list[float]) -> None:
    print(
        f"  {label}: p50 {statistics.median(values):.3f} s, p95 {percentile(values, 0.95):.3f} s,"
        f" min {min(values):.3f} s, max {max(values):.3f} s (n={len(values)})"
    )


class SeasonServer:
    def __init__(self, folder: Path):
        import psycopg

        url = os.environ.get(
            "PG_BENCH_URL", "postgres://postgres@127.0.0.1:5432/cego_bench_publish"
        )
        name = url.rsplit("/", 1)[1]
        admin = url.rsplit("/", 1)[0] + "/postgres"
        subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True)
        subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {name}"], check=True)
        self.env = clean_env(
            DJANGO_SETTINGS_MODULE="cego_club.settings",
            DEBUG="0",
            HTTPS="0",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1",
            DATABASE_URL=url,
            REDIS_URL="redis://127.0.0.1:6379/14",
            CACHE_KEY_PREFIX=f"bench-publish-{os.getpid()}",
            STATIC_ROOT=str(folder / "static"),
        )
        self.manage("migrate", "-v", "0")
        self.manage("collectstatic", "--no-input", "-v", "0")
        script = (
            "from clubs.models import Club; from publishing.services import issue_token; "
            f"club = Club.objects.create(name={CLUB[0]!r}, short_name={CLUB[1]!r}, town={CLUB[2]!r}); "
            "print(issue_token(club=club, label='bench')[1])"
        )
        self.token = self.manage("shell", "-c", script).strip().splitlines()[-1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "cego_club.wsgi:application"]
            + ["--bind", f"127.0.0.1:{SERVER_PORT}", "--workers", "3", "--threads", "4"]
            + ["--timeout", "60"],
            cwd=ROOT,
            env=self.env,
            stdout=open(folder / "gunicorn.log", "w"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        self.url = f"http://127.0.0.1:{SERVER_PORT}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/health/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        self.db = psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True)

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(done.stderr)
        return done.stdout

    def deals(self, archive_id: str) -> int:
        row = self.db.execute(
            "SELECT count(*) FROM tournaments_deal d JOIN tournaments_table t ON d.table_id = t.id"
            " JOIN tournaments_round r ON t.round_id = r.id JOIN tournaments_tournament x"
            " ON r.tournament_id = x.id WHERE x.archive_id = %s",
            [archive_id],
        ).fetchone()
        return row[0]

    def tournament_pk(self, archive_id: str) -> int | None:
        row = self.db.execute(
            "SELECT id FROM tournaments_tournament WHERE archive_id = %s", [archive_id]
        ).fetchone()
        return row[0] if row else None

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def build(*, players: int, rounds_played: int, name: str = "Live"):
    """A tournament of ``players`` (tables of 4, swm) with ``rounds_played`` rounds of 24 deals
    stored a round at a time (``results.enter_round_deals``, the demo of any size's way)."""
    from clubs.models import Club, Player
    from tournaments import demo
    from tournaments.seating import sitting_out_position
    from tournaments.services import checkin, draws, registration, results, setup

    club, _ = Club.objects.get_or_create(name=CLUB[0], short_name=CLUB[1], town=CLUB[2])
    tournament = setup.create_tournament(
        name=name, host_club=club, date=datetime.date(2026, 12, 5), rules_slug="swm",
        rounds=rounds_played + 1, deals_per_round=24, review_draws=False,
    )  # fmt: skip
    Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Nachname{i}") for i in range(players)
    )
    field = list(Player.objects.order_by("-pk")[:players])
    registration.register_players(tournament=tournament, players=field)
    for entry in tournament.entries.all():
        checkin.set_checked_in(entry=entry, checked_in=True)
    rules = results.rule_source_of(tournament)
    rng = random.Random(1)
    for number in range(1, rounds_played + 1):
        round_ = draws.draw_next_round(
            tournament=tournament, number=number, seed=number, while_previous_open=True
        )
        deals = {}
        for table in round_.tables.all():
            size = table.seats.count()
            deals[table.number] = [
                demo.plausible_deal(
                    rng,
                    rules=rules,
                    active_seats=[
                        s
                        for s in range(size)
                        if s != sitting_out_position(rules=rules, table_size=size, deal_number=d)
                    ],
                )
                for d in range(1, 25)
            ]
        results.enter_round_deals(round=round_, deals=deals)
    return tournament


def laptop(
    *, players: int, rounds_played: int, open_round: bool, name: str = "Live"
) -> tuple[Path, dict]:
    """A venue data folder with a tournament built in this process (Django is set up on it:
    one laptop per process; the big one is built by a child process)."""
    folder = venue_folder()
    setup_django(f"sqlite:///{folder / 'db.sqlite3'}")
    from tournaments.models import Table
    from tournaments.services import draws

    tournament = build(players=players, rounds_played=rounds_played, name=name)
    tables = []
    if open_round:
        round_ = draws.draw_next_round(
            tournament=tournament, number=rounds_played + 1, seed=7, while_previous_open=True
        )
        tables = [t.token for t in Table.objects.filter(round=round_).order_by("number")]
    return folder, {"archive_id": str(tournament.archive_id), "tables": tables}


def wait_for(condition, timeout: float, step: float = 0.01) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if condition():
            return time.perf_counter() - start
        time.sleep(step)
    raise RuntimeError("timed out")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--outage", type=float, default=60)
    parser.add_argument("--live", type=int, default=40)
    parser.add_argument("--skip-big", action="store_true")
    args = parser.parse_args()
    print(f"bench_publish (load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")
    for port in (SERVER_PORT, RELAY_PORT):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                print(f"port {port} is in use (a bench left running?): stop it first")
                return 1
    scratch = Path(venue_folder()).parent
    server = SeasonServer(scratch)
    try:
        return run(args, scratch, server)
    finally:
        server.stop()


def run(args, scratch: Path, server: SeasonServer) -> int:
    relay = Relay(RELAY_PORT, SERVER_PORT)
    started = time.perf_counter()
    folder, built = laptop(players=160, rounds_played=2, open_round=True)
    print(f"  built the laptop's tournament in {time.perf_counter() - started:.0f} s")
    archive_id = built["archive_id"]
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings", CEGO_PUBLISH_TOKEN=server.token)
    venue = start_venue(
        folder,
        log=scratch / "venue.log",
        env=env,
        extra=("--publish-to", f"http://127.0.0.1:{RELAY_PORT}"),
    )
    try:
        seconds = wait_for(lambda: server.deals(archive_id) >= 1920, timeout=300, step=0.2)
        print(
            f"first: 1,920 deals on the server after {seconds:.1f} s, "
            f"{relay.sent / 1024:.0f} KB sent"
        )
        pk = server.tournament_pk(archive_id)
        phones = []
        for token in built["tables"]:
            phone = Phone(token)
            phone.sit_down(venue.url)
            phones.append(phone)
        numbers = {id(p): 1 for p in phones}
        expected = [1920]

        def enter(phone) -> None:
            number = numbers[id(phone)]
            status, location, page = phone.enter_deal(venue.url, number)
            if not stored(status, location, phone.token):
                raise RuntimeError(page[:300])
            numbers[id(phone)] = number + 1
            expected[0] += 1

        # live
        latencies, commits = [], []
        sent_before = relay.sent
        for index in range(args.live):
            phone = phones[index % len(phones)]
            time.sleep(1.0)
            t0 = time.perf_counter()
            enter(phone)
            commits.append(wait_for(lambda: server.deals(archive_id) >= expected[0], 30))
            with urllib.request.urlopen(
                f"{server.url}/tournaments/{pk}/standings/", timeout=30
            ) as r:
                r.read()
            latencies.append(time.perf_counter() - t0)
        print("live:")
        figures("committed on the server", commits)
        figures("then its public standings read", latencies)
        print(f"  bytes sent per deal: {(relay.sent - sent_before) / args.live / 1024:.2f} KB")

        # cpu
        cpu_before = cpu_seconds(server.process.pid)
        count = 100
        for index in range(count):
            enter(phones[index % len(phones)])
            time.sleep(0.05)
        wait_for(lambda: server.deals(archive_id) >= expected[0], 60, step=0.2)
        cpu = cpu_seconds(server.process.pid) - cpu_before
        print(f"cpu: server CPU per applied deal {cpu / count * 1000:.1f} ms ({count} deals)")

        # outage
        relay.down = True
        gap = args.outage / 200
        outage_start = time.perf_counter()
        for index in range(200):
            enter(phones[index % len(phones)])
            time.sleep(max(0.0, outage_start + (index + 1) * gap - time.perf_counter()))
        relay.down = False
        back = wait_for(lambda: server.deals(archive_id) >= expected[0], 120, step=0.05)
        print(
            f"outage: 200 deals in {args.outage:.0f} s without the server; all there {back:.2f} s after it is back"
        )
    finally:
        venue.stop()
    if not args.skip_big:
        big = subprocess.run(
            [sys.executable, __file__, "--build-big"],
            capture_output=True,
            text=True,
            env={**os.environ},
        )
        if big.returncode:
            print(big.stderr[-2000:])
            return 1
        folder2, archive2 = big.stdout.strip().splitlines()[-1].split()
        sent_before = relay.sent
        venue2 = start_venue(
            Path(folder2),
            log=scratch / "venue-big.log",
            env=env,
            extra=("--publish-to", f"http://127.0.0.1:{RELAY_PORT}"),
        )
        try:
            seconds = wait_for(lambda: server.deals(archive2) >= 4032, timeout=600, step=0.2)
            print(
                f"big: 4,032 deals on the server after {seconds:.1f} s,"
                f" {(relay.sent - sent_before) / 1024:.0f} KB sent"
            )
        finally:
            venue2.stop()
    return 0


if __name__ == "__main__":
    if "--build-big" in sys.argv:
        folder, built = laptop(players=168, rounds_played=4, open_round=False, name="Groß")
        print(folder, built["archive_id"])
        sys.exit(0)
    random.seed(1)
    sys.exit(main())
