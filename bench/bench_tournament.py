"""Benchmark a 148-player championship tournament on SQLite (run on demand, not in tests).

Creates a scratch database, registers 148 players (37 tables of 4), draws two rounds, enters all 1,776 deals
through the result service, then times the standings (selector and page, cold and cached), the
printouts (cold: nothing cached; cached; and the score sheets right after a draw or swap, when
they were rendered in the background), and counts the queries. Shared 2-core machine: the
figures are indicative; the load average is printed.

    .venv/bin/python bench/bench_tournament.py [--players 148]
"""

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _support import timed  # noqa: E402


def wait_for_background() -> float:
    """Wait for the printouts being rendered in the background; the seconds waited."""
    import threading

    began = time.perf_counter()
    while any(t.name == "prerender-printouts" for t in threading.enumerate()):
        time.sleep(0.05)
    return time.perf_counter() - began


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
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club, ClubRole, Player
    from tournaments import demo, rule_snapshot
    from tournaments.seating import sitting_out_position
    from tournaments.selectors.standings import tournament_standings
    from tournaments.services import checkin, draws, phone_entry, setup

    call_command("migrate", verbosity=0)
    print(f"load average (1 min) at the start: {os.getloadavg()[0]:.1f}")
    club = Club.objects.create(name="Benchclub", short_name="BC", town="Triberg")
    tournament = setup.create_tournament(
        name="Benchmark",
        host_club=club,
        date=__import__("datetime").date(2026, 12, 5),
        rules_slug="swm",
        rounds=3,
    )
    for index in range(args.players):
        player = Player.objects.create(first_name=f"Vorname{index}", last_name=f"Nachname{index}")
        entry = setup.register_player(tournament=tournament, player=player)
        checkin.set_checked_in(entry=entry, checked_in=True)
    rules = rule_snapshot.rule_source_of(tournament)
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
                phone_entry.enter_deal(table=table, number=deal_number, inputs=inputs)
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

    from django.core.cache import cache

    # A club organiser (not a superuser): the pages pay for the role lookup as they will.
    user = get_user_model().objects.create_user("bench", password="x")
    ClubRole.objects.create(user=user, club=tournament.host_club)
    client = Client()
    client.force_login(user)
    public = Client()
    pk = tournament.pk
    url = f"/tournaments/{pk}/standings/"

    def cold(path, who=client):
        def run():
            cache.clear()  # as after a change: a new revision, nothing cached for it
            response = who.get(path)
            assert response.status_code == 200, response.status_code
            return response

        return run

    timed("standings page (public, cold: new revision)", cold(url, public), repeat=5)
    public.get(url)
    timed("standings page (public, cached)", lambda: public.get(url), repeat=20)
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        response, _ = timed(
            "standings page (organiser, cached)", lambda: client.get(url), repeat=10
        )
    assert response.status_code == 200
    print(f"{'  queries per page':<46} {len(queries) // 10:9d}")
    projector = f"/tournaments/{pk}/standings/projector/?partial=1"
    timed("projector partial (cold: new revision)", cold(projector, public), repeat=5)
    public.get(projector)
    timed("projector partial (cached)", lambda: public.get(projector), repeat=20)
    desk = f"/tournaments/{pk}/rounds/1/tables/1/"
    timed("desk entry page (one table)", lambda: client.get(desk), repeat=10)

    sheets_url = f"/tournaments/{pk}/rounds/1/print/score-sheets.pdf"
    sheets, _ = timed("score sheets PDF, round 1 (cold, first in process)", cold(sheets_url))
    print(f"{'  PDF size':<46} {len(sheets.content) // 1024:9d} KiB")
    timed("score sheets PDF, round 1 (cold)", cold(sheets_url), repeat=3)
    timed("score sheets PDF, round 1 (cached)", lambda: client.get(sheets_url), repeat=5)
    for label, path in (
        ("seat plan PDF, round 1", f"/tournaments/{pk}/rounds/1/print/seat-plan.pdf"),
        ("table cards PDF, round 1", f"/tournaments/{pk}/rounds/1/print/table-cards.pdf"),
        ("standings PDF", f"/tournaments/{pk}/print/standings.pdf"),
        ("prize list PDF", f"/tournaments/{pk}/print/prizes.pdf"),
    ):
        timed(f"{label} (cold)", cold(path), repeat=3)
    timed("standings xlsx", lambda: client.get(f"/tournaments/{pk}/standings.xlsx"))

    # The organiser draws round 3 and clicks "score sheets": the draw started rendering them
    # in the background (a thread of this process).
    settings.PRINT_PRERENDER = "thread"
    cache.clear()
    round3 = f"/tournaments/{pk}/rounds/3/print/score-sheets.pdf"
    began = time.perf_counter()
    response = client.post(
        f"/tournaments/{pk}/rounds/3/draw/", {"action": "draw", "while_previous_open": "1"}
    )
    assert response.status_code == 302, response.status_code
    _, click = timed("score sheets PDF after a draw (click at once)", lambda: client.get(round3))
    drawn_and_clicked = time.perf_counter() - began
    print(
        f"{'score sheets PDF, click right after draw':<46} {drawn_and_clicked * 1000:9.1f} ms"
        "  (the draw, then the click)"
    )
    wait_for_background()
    entries = [seat.entry for seat in tournament.round_set.get(number=3).seats.all()[:5:4]]
    began = time.perf_counter()
    # A swap is asked for by one official and approved by a second (issue 39): the approval
    # changes the seats and renders the printouts again.
    response = client.post(
        f"/tournaments/{pk}/rounds/3/draw/",
        {"action": "swap", "first": entries[0].pk, "second": entries[1].pk, "reason": "Bench"},
    )
    assert response.status_code == 302, response.status_code
    referee = get_user_model().objects.create_user("bench-referee", password="bench")
    tournament.referees.add(referee)
    second = Client()
    second.force_login(referee)
    swap_pk = tournament.seat_swaps.get().pk
    response = second.post(f"/tournaments/{pk}/swaps/{swap_pk}/", {"action": "approve"})
    assert response.status_code == 302, response.status_code
    wait_for_background()
    rendered = time.perf_counter() - began  # the swap, then sheets, seat plan and table cards
    print(f"{'  swap + background render of the printouts':<46} {rendered * 1000:9.1f} ms")
    timed("score sheets PDF after a swap (once rendered)", lambda: client.get(round3))
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
