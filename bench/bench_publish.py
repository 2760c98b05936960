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

Instead of those, on their own:
  --venue-cpu   the venue's own CPU (user + system from /proc) per phone deal, started
                without and then with ``--publish-to`` on copies of one data folder, at 480,
                1,920 and 3,840 deals already played (160 players, 40 tables); DEALS deals
                (--deals, 120) entered from the 40 phones one every --pace seconds (0.5):
                one deal a batch, the sender's dearest case; with publishing, the batches
                the server acknowledged and the venue's CPU each beyond the run without
  --batch-cpu   the sender's CPU for one one-deal batch, driven in this process (the
                real outbox, sender and HTTP client against the season server) at 480,
                1,920 and 3,840 deals played: min / median / max of 60, and each part's
                median (the sum of a process's threads above cannot separate the sender)
  --venues N    N venues (40 players each, 1 round played) publish at once, each entering
                one deal every --every seconds (3) from its phones for --seconds (90):
                deal → committed on the season server → its public standings read, p50 /
                p95 / max over all venues, and the season server's CPU per deal

Ports 8230-8233 (127.0.0.1 only); PG_BENCH_URL names the scratch PostgreSQL database
(default cego_bench_publish). The machine is shared: figures are indicative.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from inspect import signature
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
            "from clubs.models import Club; from publishing.server.services import issue_token; "
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
        self.dsn = url.replace("postgres://", "postgresql://")
        self.db = psycopg.connect(self.dsn, autocommit=True)

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

    def deals(self, archive_id: str, db=None) -> int:
        row = (
            (db or self.db)
            .execute(
                "SELECT count(*) FROM tournaments_deal d JOIN tournaments_table t ON d.table_id = t.id"
                " JOIN tournaments_round r ON t.round_id = r.id JOIN tournaments_tournament x"
                " ON r.tournament_id = x.id WHERE x.archive_id = %s",
                [archive_id],
            )
            .fetchone()
        )
        return row[0]

    def acknowledged(self, archive_id: str) -> int:
        """The batches this server acknowledged for the tournament (applied or unchanged)."""
        row = self.db.execute(
            "SELECT count(*) FROM publishing_acknowledgedstate a JOIN tournaments_tournament x"
            " ON a.tournament_id = x.id WHERE x.archive_id = %s",
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


def build(*, players: int, rounds_played: int, name: str = "Live", deals_per_round: int = 24):
    """A tournament of ``players`` (tables of 4, swm) with ``rounds_played`` rounds of
    ``deals_per_round`` deals stored a round at a time (``desk_entry.enter_round_deals``, the
    demo of any size's way)."""
    from clubs.models import Club, Player
    from tournaments import demo, rule_snapshot
    from tournaments.seating import sitting_out_position
    from tournaments.services import checkin, desk_entry, draws, registration, setup

    club, _ = Club.objects.get_or_create(name=CLUB[0], short_name=CLUB[1], town=CLUB[2])
    tournament = setup.create_tournament(
        name=name, host_club=club, date=datetime.date(2026, 12, 5), rules_slug="swm",
        rounds=rounds_played + 1, deals_per_round=deals_per_round, review_draws=False,
    )  # fmt: skip
    Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Nachname{i}") for i in range(players)
    )
    field = list(Player.objects.order_by("-pk")[:players])
    registration.register_players(tournament=tournament, players=field)
    for entry in tournament.entries.all():
        checkin.set_checked_in(entry=entry, checked_in=True)
    rules = rule_snapshot.rule_source_of(tournament)
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
                for d in range(1, deals_per_round + 1)
            ]
        desk_entry.enter_round_deals(round=round_, deals=deals)
    return tournament


def laptop(
    *,
    players: int,
    rounds_played: int,
    open_round: bool,
    name: str = "Live",
    deals_per_round: int = 24,
) -> tuple[Path, dict]:
    """A venue data folder with a tournament built in this process (Django is set up on it:
    one laptop per process; the others are built by child processes, ``built_elsewhere``)."""
    folder = venue_folder()
    setup_django(f"sqlite:///{folder / 'db.sqlite3'}")
    from tournaments.models import Table
    from tournaments.services import draws

    tournament = build(
        players=players, rounds_played=rounds_played, name=name, deals_per_round=deals_per_round
    )
    tables = []
    if open_round:
        round_ = draws.draw_next_round(
            tournament=tournament, number=rounds_played + 1, seed=7, while_previous_open=True
        )
        tables = [t.token for t in Table.objects.filter(round=round_).order_by("number")]
    return folder, {"archive_id": str(tournament.archive_id), "tables": tables}


def built_elsewhere(**spec) -> tuple[Path, dict]:
    """``laptop(**spec)`` in a child process (Django is set up once a process)."""
    done = subprocess.run(
        [sys.executable, __file__, "--build", json.dumps(spec)],
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    folder, built = json.loads(done.stdout.strip().splitlines()[-1])
    return Path(folder), built


def seated_phones(tokens: list[str], url: str) -> list[Phone]:
    """A phone at each table (its own cookies), seated at position 0 on the venue at url."""
    phones = []
    for token in tokens:
        phone = Phone(token)
        phone.sit_down(url)
        phones.append(phone)
    return phones


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
    parser.add_argument("--venue-cpu", action="store_true")
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--pace", type=float, default=0.5)
    parser.add_argument("--sizes", default="480,1920,3840")
    parser.add_argument("--batch-cpu", action="store_true")
    parser.add_argument("--venues", type=int, default=0)
    parser.add_argument("--every", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=90.0)
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
        if args.venue_cpu:
            return venue_cpu(args, scratch, server)
        if args.batch_cpu:
            for size in (int(n) for n in args.sizes.split(",")):
                done = subprocess.run(
                    [sys.executable, __file__, "--batch-cpu-at", str(size)],
                    capture_output=True,
                    text=True,
                    env={**os.environ, "BENCH_SERVER": server.url, "BENCH_TOKEN": server.token},
                )
                print(done.stdout.strip() if not done.returncode else done.stderr[-2000:])
            return 0
        if args.venues:
            return venues(args, scratch, server)
        return run(args, scratch, server)
    finally:
        server.stop()


SIZES = {480: (1, 12), 1920: (2, 24), 3840: (4, 24)}  # deals played: rounds, deals a round


def venue_cpu(args, scratch: Path, server: SeasonServer) -> int:
    """The venue's CPU per phone deal without and with publishing, at several sizes."""
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings", CEGO_PUBLISH_TOKEN=server.token)
    how = f"one every {args.pace} s" if args.pace else "40 phones at once, each as fast as answered"
    print(f"venue-cpu: {args.deals} phone deals, {how}, 40 tables")
    for size in (int(n) for n in args.sizes.split(",")):
        rounds, per_round = SIZES[size]
        folder, built = built_elsewhere(
            players=160, rounds_played=rounds, open_round=True, deals_per_round=per_round,
            name=f"Größe {size}",
        )  # fmt: skip
        copy = folder.parent / "without"
        shutil.copytree(folder, copy)
        archive_id, results = built["archive_id"], {}
        for label, data, extra in (
            ("without", copy, ()),
            ("with", folder, ("--publish-to", server.url)),
        ):
            venue = start_venue(
                data, log=scratch / f"venue-{size}-{label}.log", env=env, extra=extra
            )
            try:
                if extra:
                    wait_for(
                        lambda a=archive_id, n=size: server.deals(a) >= n, timeout=600, step=0.2
                    )
                    batches_before = server.acknowledged(archive_id)
                phones = seated_phones(built["tables"], venue.url)
                time.sleep(2)  # the start's own work (the first snapshot's answer) is over
                before = cpu_seconds(venue.process.pid)
                enter_all(phones, venue.url, deals=args.deals, pace=args.pace)
                if extra:
                    wait_for(
                        lambda a=archive_id, n=size + args.deals: server.deals(a) >= n,
                        120,
                        step=0.05,
                    )
                time.sleep(1)  # the sender's last answer is written
                results[label] = cpu_seconds(venue.process.pid) - before
                if extra:
                    results["batches"] = server.acknowledged(archive_id) - batches_before
            finally:
                venue.stop()
        without, with_ = results["without"], results["with"]
        batches = max(results["batches"], 1)
        print(
            f"  {size:5,} deals played: venue CPU per phone deal {without / args.deals * 1000:.1f}"
            f" ms without, {with_ / args.deals * 1000:.1f} ms with publishing"
            f" ({with_ / without:.2f}×); {results['batches']} batches,"
            f" {(with_ - without) / batches * 1000:.1f} ms of venue CPU each"
        )
    return 0


def batch_cpu_at(size: int, url: str, token: str) -> None:
    """In this process (a child of the bench): a laptop at ``size`` deals played sends 60
    one-deal batches through the real sender to the season server at ``url``; the CPU of
    each pass (``time.process_time``: this process has no other thread at work)."""
    import collections

    rounds, per_round = SIZES[size]
    _folder, built = laptop(
        players=160, rounds_played=rounds, open_round=True, deals_per_round=per_round,
        name=f"Stapel {size}",
    )  # fmt: skip
    from publishing.laptop import outbox, sender
    from tournaments import demo, rule_snapshot
    from tournaments.models import Table, Tournament
    from tournaments.services import phone_entry

    parts: dict[str, list[float]] = collections.defaultdict(list)

    def timed(name, function):
        def measured(*args, **kwargs):
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                parts[name].append(time.process_time() - start)

        return measured

    for name in ("next_batch", "acknowledge", "due_publications"):
        setattr(outbox, name, timed(name, getattr(outbox, name)))
    sender.request = timed("request", sender.request)
    sender.send_due(url=url, token=token)  # the snapshot
    tournament = Tournament.objects.get(archive_id=built["archive_id"])
    rules = rule_snapshot.rule_source_of(tournament)
    rng = random.Random(5)
    tables = [Table.objects.get(token=token) for token in built["tables"]]
    parts.clear()
    passes = []
    # Not looking for new tournaments at every pass (the sender's loop does it every 2 s;
    # a version before that looked every time, and is measured so).
    quiet = (
        {"look_for_new": False} if "look_for_new" in signature(sender.send_due).parameters else {}
    )
    for index in range(60):
        phone_entry.enter_deal(
            table=tables[index % len(tables)], number=index // len(tables) + 1,
            inputs=demo.plausible_deal(rng, rules=rules, active_seats=[0, 1, 2, 3]),
            via="table", entered_by_position=0,
        )  # fmt: skip
        start = time.process_time()
        if sender.send_due(url=url, token=token, **quiet) != 1:
            raise RuntimeError("the batch was not sent")
        passes.append(time.process_time() - start)
    each = ", ".join(f"{name} {statistics.median(v) * 1000:.1f}" for name, v in parts.items())
    print(
        f"  {size:5,} deals played: one-deal batch, sender CPU min {min(passes) * 1000:.1f} /"
        f" median {statistics.median(passes) * 1000:.1f} / max {max(passes) * 1000:.1f} ms"
        f" (n={len(passes)}; medians, ms: {each})"
    )


def enter_all(phones: list, url: str, *, deals: int, pace: float) -> None:
    """``deals`` deals from the phones in turn, one every ``pace`` seconds; ``pace`` 0: every
    phone at once, each its next deal as soon as the last is answered (a round's end)."""
    failures: list[str] = []

    def one(phone, number: int) -> None:
        status, location, page = phone.enter_deal(url, number)
        if not stored(status, location, phone.token):
            failures.append(page[:300])

    if pace:
        started = time.perf_counter()
        for index in range(deals):
            one(phones[index % len(phones)], index // len(phones) + 1)
            time.sleep(max(0.0, started + (index + 1) * pace - time.perf_counter()))
    else:
        each = deals // len(phones)
        threads = [
            threading.Thread(target=lambda p=phone: [one(p, n) for n in range(1, each + 1)])
            for phone in phones
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if failures:
        raise RuntimeError(failures[0])


def venues(args, scratch: Path, server: SeasonServer) -> int:
    """N venues publishing at once, each a deal every ``--every`` seconds."""
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings", CEGO_PUBLISH_TOKEN=server.token)
    halls = []
    for number in range(args.venues):
        folder, built = built_elsewhere(
            players=40, rounds_played=1, open_round=True, name=f"Halle {number + 1}"
        )
        venue = start_venue(
            folder,
            log=scratch / f"venue-hall-{number}.log",
            env=env,
            extra=("--publish-to", server.url),
        )
        halls.append((venue, built))
    try:
        for _venue, built in halls:
            wait_for(lambda b=built: server.deals(b["archive_id"]) >= 240, timeout=300, step=0.2)
        print(
            f"venues: {args.venues} venues, each a deal every {args.every} s for"
            f" {args.seconds:.0f} s (load {os.getloadavg()[0]:.1f})"
        )
        commits: list[float] = []
        shown: list[float] = []
        failures: list[str] = []
        cpu_before = cpu_seconds(server.process.pid)

        def hall(venue, built, offset: float) -> None:
            import psycopg

            db = psycopg.connect(server.dsn, autocommit=True)
            archive_id, pk = built["archive_id"], server.tournament_pk(built["archive_id"])
            phones = seated_phones(built["tables"], venue.url)
            time.sleep(offset)
            expected = server.deals(archive_id)
            start = time.perf_counter()
            count = int(args.seconds / args.every)
            for index in range(count):
                phone = phones[index % len(phones)]
                t0 = time.perf_counter()
                status, location, page = phone.enter_deal(venue.url, index // len(phones) + 1)
                if not stored(status, location, phone.token):
                    failures.append(page[:200])
                    return
                expected += 1
                commits.append(
                    wait_for(lambda n=expected: server.deals(archive_id, db) >= n, 30, step=0.02)
                )
                with urllib.request.urlopen(
                    f"{server.url}/tournaments/{pk}/standings/", timeout=30
                ) as answer:
                    answer.read()
                shown.append(time.perf_counter() - t0)
                time.sleep(max(0.0, start + (index + 1) * args.every - time.perf_counter()))
            db.close()

        threads = [
            threading.Thread(target=hall, args=(venue, built, n * args.every / len(halls)))
            for n, (venue, built) in enumerate(halls)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        cpu = cpu_seconds(server.process.pid) - cpu_before
        if failures:
            print("  failures:", failures[:3])
            return 1
        figures("committed on the server", commits)
        figures("then its public standings read", shown)
        print(f"  season server CPU per deal {cpu / max(len(commits), 1) * 1000:.1f} ms")
    finally:
        for venue, _built in halls:
            venue.stop()
    return 0


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
        phones = seated_phones(built["tables"], venue.url)
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
        folder2, built2 = built_elsewhere(
            players=168, rounds_played=4, open_round=False, name="Groß"
        )
        archive2 = built2["archive_id"]
        sent_before = relay.sent
        venue2 = start_venue(
            folder2,
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
    if "--batch-cpu-at" in sys.argv:
        size = int(sys.argv[sys.argv.index("--batch-cpu-at") + 1])
        batch_cpu_at(size, os.environ["BENCH_SERVER"], os.environ["BENCH_TOKEN"])
        sys.exit(0)
    if "--build" in sys.argv:
        folder, built = laptop(**json.loads(sys.argv[sys.argv.index("--build") + 1]))
        print(json.dumps([str(folder), built]))
        sys.exit(0)
    random.seed(1)
    sys.exit(main())
