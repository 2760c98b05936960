"""Benchmark the online pre-registration (run on demand, not in tests).

On a scratch database: 300 people sign up for a tournament of 150 seats (the rest wait),
one by one through the service (``sign_up``: lock the sheet, count the seats, insert, log);
the organisers confirm the 150 seats at once (each: the registry's player found or created,
an entry); then the public form and the organisers' list of 300 rows are read through the
test client, with their query counts.

    .venv/bin/python bench/bench_signups.py [--postgres]

A shared machine (2 cores, several sessions): read the figures as rough.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--people", type=int, default=300)
    args = parser.parse_args()
    if args.postgres:
        from _support import scratch_database

        os.environ["DATABASE_URL"] = scratch_database("postgres")
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    from clubs.models import Club, ClubRole
    from signups.services import signups
    from tests.factories import TournamentFactory

    club = Club.objects.create(name="Cegofreunde Testhausen", short_name="CF Test", town="T")
    user = get_user_model().objects.create_user("orga", "", "pw")
    ClubRole.objects.create(user=user, club=club)
    tournament = TournamentFactory(host_club=club, date=timezone.localdate() + dt.timedelta(9))
    seats = args.people // 2
    signups.set_sheet(
        tournament=tournament, user=user, is_open=True, capacity=seats, closes_at=None
    )
    kind = "PostgreSQL" if args.postgres else "SQLite"
    print(f"Online sign-up benchmark ({kind}; a shared machine, figures are rough)")

    walls, cpus = [], []
    for n in range(args.people):
        wall, cpu = time.perf_counter(), time.process_time()
        signups.sign_up(
            tournament=tournament,
            first_name="Person",
            last_name=f"Nummer{n:04d}",
            club=club if n % 2 else None,
            club_text="" if n % 2 else "vereinslos",
            email=f"p{n}@example.org",
            consent=True,
        )
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(
        f"  sign-up ({args.people}, {seats} seats): median {statistics.median(walls) * 1000:.1f} ms"
        f" wall, {statistics.median(cpus) * 1000:.1f} ms CPU; slowest"
        f" {max(walls) * 1000:.1f} ms"
    )
    wall, cpu = time.perf_counter(), time.process_time()
    done = signups.confirm_all(tournament=tournament, user=user).count
    print(
        f"  confirm all {done} seats: {time.perf_counter() - wall:.2f} s wall,"
        f" {time.process_time() - cpu:.2f} s CPU"
    )
    client = Client()
    for label, url, login in (
        ("public form", reverse("signups:form", args=[tournament.pk]), False),
        ("organisers' list", reverse("signups:organiser_list", args=[tournament.pk]), True),
    ):
        if login:
            client.force_login(user)
        client.get(url)  # warm
        times, cpu_times = [], []
        for _ in range(5):
            start, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu)
            assert response.status_code == 200
        print(
            f"  {label}: median {statistics.median(times) * 1000:.0f} ms wall,"
            f" {statistics.median(cpu_times) * 1000:.0f} ms CPU,"
            f" {len(queries.captured_queries)} queries"
        )


if __name__ == "__main__":
    main()
