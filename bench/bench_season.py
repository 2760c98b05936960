"""Benchmark the season workbook (run on demand, not in tests).

Bulk-creates a season (default 13 tournaments x 150 registered players, 148 of them at 37
tables of 4, 2 rounds of 24 deals: about 23,000 deals; deal scores come from the engine, a
few substitutions and corrections included), then times the season workbook and measures its
peak Python memory (tracemalloc) at two sizes, full and with half the deals per round, to
show that memory does not grow with the number of deals (the deals sheet is streamed).

Figures come from a shared machine (2 cores shared by several sessions): read them as rough.

    .venv/bin/python bench/bench_season.py [--tournaments 13] [--players 150] [--deals 24]
"""

import argparse
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOAL_SECONDS = 5.0


def build_season(*, name: str, tournaments: int, players: int, deals_per_round: int) -> object:
    """The fixture, bulk-created (no services, no web layer)."""
    import datetime as dt

    from clubs.models import Club, Membership, Player
    from rules.builtin_sources import builtin_data
    from seasons.models import Season
    from tournaments import demo
    from tournaments.models import (
        Deal,
        DealChange,
        Entry,
        Round,
        Seat,
        Substitution,
        Table,
        Team,
        Tournament,
    )
    from tournaments.rule_snapshot import rule_source_of
    from tournaments.services.results_common import TableFacts, compute_scores

    rng = random.Random(20261114)
    clubs = Club.objects.bulk_create(
        [
            Club(name=f"{name} Club {i}", short_name=f"{name[:6]}{i}", town="Triberg")
            for i in range(6)
        ]
    )
    people = Player.objects.bulk_create(
        [
            Player(first_name=f"Vorname{i}", last_name=f"{name}-Spieler{i}", category="open")
            for i in range(players)
        ]
    )
    Membership.objects.bulk_create(
        [Membership(player=p, club=clubs[i % len(clubs)]) for i, p in enumerate(people)]
    )
    season = Season.objects.create(
        name=name, starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30)
    )
    snapshot = builtin_data("swm")
    seated = players - players % 4
    tables_per_round = seated // 4
    for t in range(tournaments):
        tournament = Tournament.objects.create(
            name=f"{t + 1}. Turnier",
            season=season,
            host_club=clubs[t % len(clubs)],
            date=dt.date(2026, 11, 1) + dt.timedelta(days=7 * t),
            rules_slug="swm",
            rules_snapshot=snapshot,
            deals_per_round=deals_per_round,
        )
        team_objs = Team.objects.bulk_create(
            [Team(tournament=tournament, name=f"Team {k}") for k in range(seated // 4)]
        )
        entries = Entry.objects.bulk_create(
            [
                Entry(
                    tournament=tournament,
                    player=p,
                    number=i + 1,
                    checked_in=True,
                    team=team_objs[i // 4] if i < seated else None,
                )
                for i, p in enumerate(people)
            ]
        )
        rules = rule_source_of(tournament)
        facts = TableFacts(table=None, rules=rules, table_size=4)
        # A pool of plausible scored deals to draw from (scoring 23,000 would bench the engine).
        pool = []
        while len(pool) < 60:
            inputs = demo.plausible_deal(rng, rules=rules, active_seats=[0, 1, 2, 3])
            record, scores = compute_scores(facts=facts, number=1, inputs=inputs)
            pool.append((record, scores))
        deals, seats, subs = [], [], []
        for number in (1, 2):
            round_ = Round.objects.create(
                tournament=tournament, number=number, draw_seed=number, state="closed"
            )
            order = entries[:seated]
            rng.shuffle(order)
            tables = Table.objects.bulk_create(
                [Table(round=round_, number=k + 1) for k in range(tables_per_round)]
            )
            for k, table in enumerate(tables):
                for position in range(4):
                    seats.append(
                        Seat(
                            table=table,
                            round=round_,
                            position=position,
                            entry=order[k * 4 + position],
                        )
                    )
                for deal_number in range(1, deals_per_round + 1):
                    record, scores = rng.choice(pool)
                    deal = Deal(
                        table=table,
                        number=deal_number,
                        dealer_position=(deal_number - 1) % 4,
                        contract=record["contract"],
                        declarer_position=record.get("declarer"),
                        declarer_points=record.get("declarer_points"),
                        won=record.get("won"),
                        details={
                            k: v
                            for k, v in record.items()
                            if k
                            not in {
                                "contract",
                                "declarer",
                                "declarer_points",
                                "won",
                                "rules",
                                "seats",
                            }
                        },
                    )
                    deal.set_scores(scores)
                    deals.append(deal)
        seats = Seat.objects.bulk_create(seats, batch_size=2000)
        # Two substitutes from deal 13 on (the two players not seated step in).
        for seat, entry in zip(seats[:2], entries[seated:], strict=False):
            subs.append(Substitution(seat=seat, entry=entry, from_deal=13, reason="bench"))
        Substitution.objects.bulk_create(subs)
        created = Deal.objects.bulk_create(deals, batch_size=2000)
        DealChange.objects.bulk_create(
            [
                DealChange(deal=d, action="corrected", reason="bench", after={})
                for d in created[:: max(1, len(created) // 20)]
            ]
        )
    return season


def measure(season, label: str) -> tuple[float, int, int]:
    from exports.season import season_workbook
    from tournaments.models import Deal

    deals = Deal.objects.filter(table__round__tournament__season=season).count()
    with tempfile.TemporaryFile() as target:
        start, cpu_start = time.perf_counter(), time.process_time()
        season_workbook(season, target)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        size = target.tell()
    with tempfile.TemporaryFile() as target:
        tracemalloc.start()
        season_workbook(season, target)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    print(
        f"{label:<16} {deals:>7,} deals   workbook {seconds:6.2f} s wall, {cpu:6.2f} s CPU   "
        f"{size / 1e6:5.1f} MB   peak Python memory {peak / 1e6:6.1f} MB"
    )
    return cpu, peak, deals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournaments", type=int, default=13)
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--deals", type=int, default=24, help="deals per round (2 rounds)")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print("Season workbook benchmark (SQLite; a shared machine, figures are rough)")
    start = time.perf_counter()
    half = build_season(
        name="Halb",
        tournaments=args.tournaments,
        players=args.players,
        deals_per_round=max(1, args.deals // 2),
    )
    full = build_season(
        name="Voll", tournaments=args.tournaments, players=args.players, deals_per_round=args.deals
    )
    print(f"fixture bulk-created in {time.perf_counter() - start:.1f} s")
    _s, half_peak, half_deals = measure(half, "half the deals")
    print(f"load average before the full run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    seconds, full_peak, full_deals = measure(full, "full season")
    growth = (full_peak - half_peak) / half_peak * 100
    print(
        f"deals x{full_deals / half_deals:.1f}, peak memory {growth:+.0f} % "
        f"(flat = the deals are streamed); goal < {GOAL_SECONDS:.0f} s CPU: "
        f"{'met' if seconds < GOAL_SECONDS else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
