"""Shared by the HTTP benchmarks: a scratch database with a full tournament, and the venue
server started on it as an organiser starts it (``manage.py venue --data DIR --port N --bind
127.0.0.1 --no-qr``: waitress with the venue's own settings, DEBUG off, SQLite in WAL mode),
stopped afterwards. A PostgreSQL run has no venue server (the venue is SQLite): it is served by
``waitress-serve`` with the venue's connection settings (``Waitress``).

Ports: 8200-8299 (127.0.0.1 only). Everything runs on this machine, which is shared with other
work: the figures are indicative, not a lab measurement.
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def timed(
    label: str, func, *, repeat: int = 1, width: int = 46, seconds: bool = False, indent: str = ""
):
    """Run ``func`` ``repeat`` times; print ``label`` (padded to ``width``) and the median time,
    in milliseconds (or seconds); return the last result and the median in seconds."""
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    figure = f"{median:8.3f} s" if seconds else f"{median * 1000:9.1f} ms"
    print(f"{indent}{label:<{width}} {figure}" + (f"  (median of {repeat})" if repeat > 1 else ""))
    return result, median


def venue_folder() -> Path:
    """A fresh venue data folder (its database is ``db.sqlite3`` in it)."""
    folder = Path(tempfile.mkdtemp()) / "venue-data"
    folder.mkdir()
    return folder


def scratch_database(kind: str, *, folder: Path | None = None) -> str:
    """A DATABASE_URL for an empty scratch database: an SQLite file (the venue data folder's
    database where ``folder`` is given), or a PostgreSQL database (``cego_bench`` on
    127.0.0.1, dropped and created anew; PG_BENCH_URL overrides)."""
    if kind == "sqlite":
        return f"sqlite:///{(folder or Path(tempfile.mkdtemp())) / 'db.sqlite3'}"
    url = os.environ.get("PG_BENCH_URL", "postgres://postgres@127.0.0.1:5432/cego_bench")
    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True)
    subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {name}"], check=True)
    return url


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["BENCH_STATIC_ROOT"] = os.environ.get("BENCH_STATIC_ROOT") or tempfile.mkdtemp()
    os.environ["DJANGO_SETTINGS_MODULE"] = "settings_bench"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def build_tournament(
    *, players: int, rounds_played: int, rounds: int | None = None, name: str = "Benchmark"
):
    """A tournament of ``players`` (tables of 4, Schwarzwaldmeisterschaft rules) with
    ``rounds_played`` rounds drawn and every deal entered through the result service."""
    from clubs.models import Club, Player
    from tournaments import rule_snapshot
    from tournaments.services import checkin, draws, setup

    club, _ = Club.objects.get_or_create(name="Benchclub", short_name="BC", town="Triberg")
    tournament = setup.create_tournament(
        name=name,
        host_club=club,
        date=datetime.date(2026, 12, 5),
        rules_slug="swm",
        rounds=rounds or max(rounds_played, 1),
        review_draws=False,  # drawn and shown at once: the bench measures the day's work
    )
    created = Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Nachname{i}") for i in range(players)
    )
    # bulk_create gives no primary keys on every database: find the new players again.
    newest = Player.objects.order_by("-pk")[: len(created)]
    for player in sorted(newest, key=lambda p: p.pk):
        entry = setup.register_player(tournament=tournament, player=player)
        checkin.set_checked_in(entry=entry, checked_in=True)
    rules = rule_snapshot.rule_source_of(tournament)
    rng = random.Random(1)
    for number in range(1, rounds_played + 1):
        round_ = draws.draw_next_round(
            tournament=tournament, number=number, seed=number, while_previous_open=True
        )
        for table in round_.tables.all():
            enter_deals(table, rules=rules, rng=rng, deals=tournament.deals_per_round)
    tournament.refresh_from_db()
    return tournament


def seat_round(tournament, *, number: int, entries: list, rng: random.Random, **fields):
    """Round ``number`` of ``tournament`` with ``entries`` shuffled onto tables of four, bulk
    created (no draw, no log: the archives the season benches build). Returns its tables."""
    from tournaments.models import Round, Seat, Table

    round_ = Round.objects.create(tournament=tournament, number=number, draw_seed=number, **fields)
    Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(len(entries) // 4))
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    order = entries[:]
    rng.shuffle(order)
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, position=p, entry=order[n * 4 + p])
        for n, table in enumerate(tables)
        for p in range(4)
    )
    return tables


def enter_deals(table, *, rules, rng: random.Random, deals: int) -> None:
    """Deals 1 to ``deals`` at ``table``, plausible ones, entered through the result service."""
    from tournaments import demo
    from tournaments.seating import sitting_out_position
    from tournaments.services import phone_entry

    size = table.seats.count()
    for number in range(1, deals + 1):
        out = sitting_out_position(rules=rules, table_size=size, deal_number=number)
        active = [s for s in range(size) if s != out]
        inputs = demo.plausible_deal(rng, rules=rules, active_seats=active)
        phone_entry.enter_deal(table=table, number=number, inputs=inputs)


def venue_server(folder: Path, *, port: int = 0):
    """``manage.py venue --data FOLDER --port PORT --bind 127.0.0.1 --no-qr`` in its own
    process, as an organiser starts it (nothing tuned); a ``tests.servers.Server`` (``url``,
    ``process``, ``stop()``, a context manager)."""
    from tests.servers import clean_env, start_venue

    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    # a busy shared machine: the start (migrate, static files) may take minutes
    return start_venue(
        folder, port=port, log=folder.parent / "venue.log", env=env, start_timeout=600
    )


class Waitress:
    """``waitress-serve`` on 127.0.0.1:port serving cego_club.wsgi with the bench settings."""

    def __init__(self, port: int, *, threads: int = 8, env: dict | None = None):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - kept open for the server's life
            prefix="waitress-", suffix=".log", delete=False
        )
        command = [
            sys.executable,
            "-m",
            "waitress",
            "--listen",
            f"127.0.0.1:{port}",
            f"--threads={threads}",
            "--connection-limit=1000",
            "--backlog=2048",
            "cego_club.wsgi:application",
        ]
        environment = {
            **os.environ,
            "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'bench'}",
            **(env or {}),
        }
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.url + "/", timeout=2).read()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"waitress did not start; see {self.log.name}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
