"""Benchmark the club area on a scratch SQLite database (run on demand, not in tests).

A member list of N rows (CSV, semicolon, Windows-1252, title line) is read, previewed,
imported and imported again; the registry is searched among N players; N players are
registered for a tournament at once; the treasurer's view of N members is built. Figures
come from whatever machine runs it (a shared one gives noisy numbers).

    .venv/bin/python bench/bench_clubs.py [--members 1500]
"""

import argparse
import datetime as dt
import os
import sys
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _support import timed as _timed  # noqa: E402

timed = partial(_timed, width=52)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--members", type=int, default=1500)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    # As before settings became secure by default: debug mode, and the test client's host.
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club, Player
    from clubs.selectors import players_like, search_players
    from clubs.services.admin import charge_season_fees
    from clubs.services.imports import apply_players, plan_players
    from clubs.tabular import read_table
    from tests.factories import SeasonFactory, TournamentFactory
    from tournaments.services.registration import register_players
    from treasury.selectors import treasurer_view

    call_command("migrate", verbosity=0)
    print(f"club area, {args.members} members (shared machine: figures are indicative)")
    club = Club.objects.create(name="Benchclub", short_name="BC", town="Triberg")
    lines = ["Mitgliederliste;;;;", "Nachname;Vorname;Verein;Mitgliedsnummer;Geburtsjahr"]
    lines += [f"Müller{i:04d};Jürgen;BC;{i};{1940 + i % 70}" for i in range(args.members)]
    data = "\r\n".join(lines).encode("cp1252")
    table, _ = timed("read the CSV (tablib)", lambda: read_table(data, "liste.csv"))
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        timed("preview (plan) of the import", lambda: plan_players(table=table))
    print(f"{'  queries of the preview':<52} {len(queries):9d}")
    for label in ("import (one transaction)", "same file again (creates nothing)"):
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            timed(label, lambda: apply_players(table=table))
        print(f"{'  queries':<52} {len(queries):9d}")
    assert Player.objects.count() == args.members
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        timed(
            "registry search 'mueller00' (list)",
            lambda: list(search_players(query="mueller00")[:100]),
            repeat=5,
        )
    print(f"{'  queries of one search':<52} {len(queries) // 5:9d}")
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        timed(
            f"near-miss names of 'Jürgn Müler0007' among {args.members}",
            lambda: players_like(first_name="Jürgn", last_name="Müler0007"),
            repeat=5,
        )
    print(f"{'  queries of one look-up':<52} {len(queries) // 5:9d}")
    others = ["Nachname;Vorname;Verein", *(f"Maier{i:04d};Jörg;BC" for i in range(args.members))]
    other_table = read_table("\r\n".join(others).encode("cp1252"), "neu.csv")
    timed(
        f"preview of {args.members} new names (near misses checked)",
        lambda: plan_players(table=other_table),
    )
    season = SeasonFactory(starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30))
    tournament = TournamentFactory(season=season, host_club=club)
    players = list(Player.objects.all())
    timed(
        f"register {len(players)} players at once",
        lambda: register_players(tournament=tournament, players=players),
    )
    charge_season_fees(
        club=club,
        season=season,
        active_cents=3000,
        passive_cents=1200,
        due_on=dt.date(2026, 12, 31),
    )
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        timed("treasurer's view", lambda: treasurer_view(club=club, season=season), repeat=3)
    print(f"{'  queries of the treasurer view':<52} {len(queries) // 3:9d}")


if __name__ == "__main__":
    main()
