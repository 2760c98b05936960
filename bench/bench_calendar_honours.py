"""The season extras of issue 30 at full size: past seasons of 13 tournaments x 148 players
(2 rounds of 24 deals each, bulk-built as in bench_season_standings), then

- the season standings selector with the final's rule and the changes of place,
- the roll of honour over all past seasons: cold (cache cleared, results stored), cached,
  and its queries,
- the calendar feed /calendar.ics: built, from the cache, answered 304; and /calendar/.

    .venv/bin/python bench/bench_calendar_honours.py [--seasons 3] [--tournaments 13]
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time

from _support import scratch_database, setup_django
from bench_season_standings import build_season


def median_ms(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        func()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seasons", type=int, default=3)
    parser.add_argument("--tournaments", type=int, default=13)
    parser.add_argument("--players", type=int, default=148)
    args = parser.parse_args()
    setup_django(scratch_database("sqlite"))
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from clubs.models import Club
    from seasons.models import Season
    from seasons.selectors.honours import roll_of_honour
    from seasons.selectors.results import fresh_results
    from seasons.selectors.standings import season_standings
    from tournaments.models import Deal, Tournament

    start = time.perf_counter()
    for index in range(args.seasons):
        season = build_season(tournaments=args.tournaments, players=args.players)
        Club.objects.filter(short_name="BC").update(
            name=f"Benchclub {index}", short_name=f"BC{index}"
        )
        back = 365 * (index + 1)
        Season.objects.filter(pk=season.pk).update(
            name=f"Saison {index}",
            starts_on=season.starts_on - datetime.timedelta(days=back),
            ends_on=season.ends_on - datetime.timedelta(days=back),
            final_min_tournaments=8,
        )
        for tournament in Tournament.objects.filter(season=season):
            Tournament.objects.filter(pk=tournament.pk).update(
                date=tournament.date - datetime.timedelta(days=back)
            )
    fresh_results(tournaments=Tournament.objects.all())
    print(
        f"{args.seasons} past seasons of {args.tournaments} tournaments x {args.players} "
        f"players, {Deal.objects.count()} deals, built and results stored in "
        f"{time.perf_counter() - start:.1f} s (SQLite, DEBUG off; shared 2-core machine, "
        f"load average {os.getloadavg()[0]:.1f}: figures are indicative)"
    )
    season = Season.objects.order_by("-starts_on").first()
    label = "season_standings (final rule, changes of place)"
    print(f"{label:<52} {median_ms(lambda: season_standings(season=season), 5):8.1f} ms")

    today = timezone.localdate()

    def cold():
        cache.clear()
        roll_of_honour(today=today)

    print(f"{'roll of honour, cold (standings of every season)':<52} {median_ms(cold, 3):8.1f} ms")
    with CaptureQueriesContext(connection) as queries:
        cache.clear()
        honours = roll_of_honour(today=today)
    print(f"{'  its queries (cold)':<52} {len(queries):8d}     ({len(honours)} seasons)")
    print(
        f"{'roll of honour, cached':<52} "
        f"{median_ms(lambda: roll_of_honour(today=today), 20):8.1f} ms"
    )
    client = Client(HTTP_HOST="127.0.0.1")

    def feed_cold():
        cache.clear()
        assert client.get("/calendar.ics").status_code == 200

    print(f"{'/calendar.ics built':<52} {median_ms(feed_cold, 5):8.1f} ms")
    response = client.get("/calendar.ics")
    print(
        f"{'/calendar.ics from the cache':<52} {median_ms(lambda: client.get('/calendar.ics'), 20):8.1f} ms"
    )
    etag = response["ETag"]
    print(
        f"{'/calendar.ics answered 304':<52} "
        f"{median_ms(lambda: client.get('/calendar.ics', HTTP_IF_NONE_MATCH=etag), 20):8.1f} ms"
    )
    print(
        f"{'/seasons/honours/ page (cached roll)':<52} {median_ms(lambda: client.get('/seasons/honours/'), 10):8.1f} ms"
    )


if __name__ == "__main__":
    main()
