"""The season standings page at full size: 13 tournaments x 150 players, 2 rounds of 24 deals
each (about 22,000 deals), bulk-built straight into an SQLite scratch database (the result
service would take minutes; the page reads the same rows either way).

    .venv/bin/python bench/bench_season_standings.py [--tournaments 13] [--players 150]
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import time

from _support import scratch_database, seat_round, setup_django


def build_season(*, tournaments: int, players: int):
    from clubs.models import Club, Membership, Player
    from seasons.models import Season
    from tournaments.models import Deal, Entry, Tournament
    from tournaments.services.setup import rule_source_data

    rng = random.Random(1)
    season = Season.objects.create(
        name="Saison 2026/27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    club = Club.objects.create(name="Benchclub", short_name="BC", town="Triberg")
    Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Nachname{i}") for i in range(players)
    )
    people = list(Player.objects.order_by("pk"))
    Membership.objects.bulk_create(Membership(player=p, club=club) for p in people)
    snapshot = rule_source_data("swm")
    for t in range(tournaments):
        tournament = Tournament.objects.create(
            name=f"Turnier {t + 1}",
            season=season,
            host_club=club,
            date=season.starts_on + datetime.timedelta(days=14 * t),
            rules_slug="swm",
            rules_snapshot=snapshot,
        )
        Entry.objects.bulk_create(
            Entry(tournament=tournament, player=p, number=i + 1, checked_in=True)
            for i, p in enumerate(people)
        )
        entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
        for number in (1, 2):
            tables = seat_round(tournament, number=number, entries=entries, rng=rng)
            deals = []
            for table in tables:
                for deal_number in range(1, 25):
                    value = rng.choice((10, 20, 30, 40, 60))
                    declarer = rng.randrange(4)
                    won = rng.random() < 0.6
                    scores = [(-value if won else value)] * 4
                    scores[declarer] = 3 * value if won else -3 * value
                    deal = Deal(
                        table=table,
                        number=deal_number,
                        status=Deal.Status.CONFIRMED,
                        dealer_position=(deal_number - 1) % 4,
                        contract="cego",
                        declarer_position=declarer,
                        declarer_points=rng.randint(20, 79),
                        won=won,
                    )
                    deal.set_scores(scores)
                    deals.append(deal)
            Deal.objects.bulk_create(deals, batch_size=2000)
    return season


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournaments", type=int, default=13)
    parser.add_argument("--players", type=int, default=148)  # tables of 4
    args = parser.parse_args()
    setup_django(scratch_database("sqlite"))
    from django.test import Client

    from seasons.selectors.standings import season_standings
    from tournaments.models import Deal

    start = time.perf_counter()
    season = build_season(tournaments=args.tournaments, players=args.players)
    print(
        f"Season: {args.tournaments} tournaments x {args.players} players, "
        f"{Deal.objects.count()} deals, bulk-built in {time.perf_counter() - start:.1f} s "
        f"(SQLite file, DEBUG off; shared 2-core machine, load average "
        f"{os.getloadavg()[0]:.1f}: figures are indicative)"
    )

    def median_ms(func, repeat):
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            func()
            times.append(time.perf_counter() - began)
        return statistics.median(times) * 1000

    print(
        f"{'season_standings selector':<46} {median_ms(lambda: season_standings(season=season), 5):9.1f} ms  (median of 5)"
    )
    from django.core.cache import cache

    client = Client(HTTP_HOST="127.0.0.1")
    url = f"/seasons/{season.pk}/standings/"

    def cold():
        cache.clear()
        assert client.get(url).status_code == 200

    label = "season standings page (cold: nothing cached)"
    print(f"{label:<46} {median_ms(cold, 5):9.1f} ms  (median of 5)")
    client.get(url)
    warm = median_ms(lambda: client.get(url), 20)
    label = "season standings page (cached by revisions)"
    print(f"{label:<46} {warm:9.1f} ms  (median of 20)")


if __name__ == "__main__":
    main()
