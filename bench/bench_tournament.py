"""Benchmark a 148-player championship tournament on SQLite (run on demand, not in tests).

Creates a scratch database, registers 148 players (37 tables of 4), draws two rounds, enters all 1,776 deals
through the result service, then times the standings (selector and page), the score sheets
PDF of a round and the seat plan PDF, and counts their queries.

    .venv/bin/python bench/bench_tournament.py [--players 148]
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(label: str, func, repeat: int = 1):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(
        f"{label:<46} {median * 1000:9.1f} ms" + (f"  (median of {repeat})" if repeat > 1 else "")
    )
    return result, median


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=148)  # swm: tables of 4 only
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    # As before settings became secure by default: debug mode (static files without
    # collectstatic), and the host name of Django's test client.
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club, ClubRole, Player
    from tournaments import demo
    from tournaments.seating import sitting_out_position
    from tournaments.selectors.standings import tournament_standings
    from tournaments.services import checkin, draws, results, setup

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Benchclub", short_name="BC", town="Triberg")
    tournament = setup.create_tournament(
        name="Benchmark",
        host_club=club,
        date=__import__("datetime").date(2026, 12, 5),
        rules_slug="swm",
    )
    for index in range(args.players):
        player = Player.objects.create(first_name=f"Vorname{index}", last_name=f"Nachname{index}")
        entry = setup.register_player(tournament=tournament, player=player)
        checkin.set_checked_in(entry=entry, checked_in=True)
    rules = results.rule_source_of(tournament)
    rng = random.Random(1)
    deals = 0
    entry_seconds = 0.0
    for number in (1, 2):
        _, seconds = timed(
            f"draw round {number} ({args.players} players)",
            # round 2 is drawn while round 1 is still open, as a championship may do
            lambda n=number: draws.draw_next_round(
                tournament=tournament, number=n, seed=n, while_previous_open=True
            ),
        )
        round_ = tournament.round_set.get(number=number)
        for table in round_.tables.all():
            size = table.seats.count()
            for deal_number in range(1, tournament.deals_per_round + 1):
                out = sitting_out_position(rules=rules, table_size=size, deal_number=deal_number)
                active = [s for s in range(size) if s != out]
                inputs = demo.plausible_deal(rng, rules=rules, active_seats=active)
                start = time.perf_counter()
                results.enter_deal(table=table, number=deal_number, inputs=inputs)
                entry_seconds += time.perf_counter() - start
                deals += 1
    print(
        f"{'enter_deal (service, SQLite file)':<46} {deals / entry_seconds:9.1f} deals/s"
        f"  ({deals} deals, {entry_seconds * 1000 / deals:.1f} ms each)"
    )

    reset_queries()  # the debug query log is capped; entering the deals filled it
    with CaptureQueriesContext(connection) as queries:
        standings, _ = timed(
            "tournament_standings selector",
            lambda: tournament_standings(tournament=tournament),
            repeat=20,
        )
    print(f"{'  queries per call':<46} {len(queries) // 20:9d}")
    assert len(standings.rows) == args.players

    # A club organiser (not a superuser): the pages pay for the role lookup as they will.
    user = get_user_model().objects.create_user("bench", password="x")
    ClubRole.objects.create(user=user, club=tournament.host_club)
    client = Client()
    client.force_login(user)
    url = f"/tournaments/{tournament.pk}/standings/"
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        response, _ = timed(
            "standings page (organiser, full HTML)", lambda: client.get(url), repeat=10
        )
    assert response.status_code == 200
    print(f"{'  queries per page':<46} {len(queries) // 10:9d}")
    timed(
        "projector partial",
        lambda: client.get(f"/tournaments/{tournament.pk}/standings/projector/?partial=1"),
        repeat=10,
    )
    desk = f"/tournaments/{tournament.pk}/rounds/1/tables/1/"
    timed("desk entry page (one table)", lambda: client.get(desk), repeat=10)
    sheets, _ = timed(
        "score sheets PDF, round 1 (all tables)",
        lambda: client.get(f"/tournaments/{tournament.pk}/rounds/1/print/score-sheets.pdf"),
    )
    assert sheets.status_code == 200
    print(f"{'  PDF size':<46} {len(sheets.content) // 1024:9d} KiB")
    timed(
        "seat plan PDF, round 1",
        lambda: client.get(f"/tournaments/{tournament.pk}/rounds/1/print/seat-plan.pdf"),
    )
    timed("standings PDF", lambda: client.get(f"/tournaments/{tournament.pk}/print/standings.pdf"))
    timed("standings xlsx", lambda: client.get(f"/tournaments/{tournament.pk}/standings.xlsx"))


if __name__ == "__main__":
    main()
