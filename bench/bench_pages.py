"""Nobody pays for everybody (issue 29, item 4): the pages whose first reader used to pay for
working things out, timed in-process as CPU time (the machine is shared: wall time says more
about the other work on it than about ours).

The archive: a season of 13 finished tournaments of 152 players (38 tables of 4; 150 asked,
rounded up to whole tables), 5 rounds of 24 deals each (about 59,000 deals), bulk-created
into an SQLite scratch file from a pool of deals scored by the engine, each tournament then
finished through ``finish_tournament`` as the organiser finishes it (so its season results
are stored then: ``seasons/receivers.py``, ``SEASON_RESULTS_AHEAD`` inline here); and a
tournament in play on the same day, 152 players, 3 of 5 rounds played.

Timed through Django's test client (the whole middleware stack, DEBUG off), CPU time of this
process (``time.process_time``; nothing runs in the background: results are stored inline):

- the first player page after the new season (each of a few players, the cache emptied
  before each: the first reader of the page);
- the season page, cold (the cache emptied before each request);
- the projector's partial (``?partial=1``, as the projector's htmx asks), first request at a
  new revision (the revision bumped as a deal does, then one request: nothing cached for it);
  and the standings' live part the same way, for comparison; and the live part at a revision
  the projector has already shown (the standings are worked out once per revision and shared:
  ``tournaments.selectors.standings.standings_at_revision``; only its markup is left to do).

Prints min / median / max per figure and the load average. A maximum far above the median
is usually not the page's work: the process's first request of a kind compiles its templates
and reads the database's pages for the first time (the first player page), or a full garbage
collection of this process (some 130,000 objects after the build) falls inside a request (a
season page now and then: 50-60 ms of it on a loaded machine). ``--profile`` prints the top of a
cProfile of one request of each kind instead.

    .venv/bin/python bench/bench_pages.py [--tournaments 13] [--players 152] [--runs 9]
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import os
import pstats
import random
import statistics
import time

from _support import scratch_database, seat_round, setup_django

ROUNDS = 5
DEALS = 24


def scored_deals(tournament, rng: random.Random, count: int = 80) -> list:
    from tournaments import demo
    from tournaments.rule_snapshot import rule_source_of
    from tournaments.services.results_common import TableFacts, compute_scores

    rules = rule_source_of(tournament)
    facts = TableFacts(table=None, rules=rules, table_size=4)
    pool = []
    while len(pool) < count:
        inputs = demo.plausible_deal(rng, rules=rules, active_seats=[0, 1, 2, 3])
        pool.append(compute_scores(facts=facts, number=1, inputs=inputs))
    return pool


def build_tournament(*, season, club, people, date, name, rounds_played, rng, pool):
    from rules.builtin_sources import builtin_data
    from tournaments.models import Deal, Entry, Tournament

    tournament = Tournament.objects.create(
        name=name,
        season=season,
        host_club=club,
        date=date,
        rules_slug="swm",
        rules_snapshot=builtin_data("swm"),
        rounds=ROUNDS,
        deals_per_round=DEALS,
    )
    if not pool:
        pool.extend(scored_deals(tournament, rng))
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=i + 1, checked_in=True)
        for i, p in enumerate(people)
    )
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    deals = []
    for number in range(1, rounds_played + 1):
        tables = seat_round(tournament, number=number, entries=entries, rng=rng, state="closed")
        for table in tables:
            for deal_number in range(1, DEALS + 1):
                record, scores = rng.choice(pool)
                deal = Deal(
                    table=table,
                    number=deal_number,
                    status=Deal.Status.CONFIRMED,
                    dealer_position=(deal_number - 1) % 4,
                    contract=record["contract"],
                    declarer_position=record.get("declarer"),
                    declarer_points=record.get("declarer_points"),
                    won=record.get("won"),
                )
                deal.set_scores(scores)
                deals.append(deal)
    Deal.objects.bulk_create(deals, batch_size=4000)
    return tournament


def build(*, tournaments: int, players: int):
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player
    from seasons.models import Season
    from tournaments.services.finish import finish_tournament

    settings.SEASON_RESULTS_AHEAD = "inline"
    rng = random.Random(20261126)
    clubs = Club.objects.bulk_create(
        Club(name=f"Cegoclub {i}", short_name=f"CC{i}", town="Triberg", public_player_pages=True)
        for i in range(8)
    )
    Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Spieler{i:03d}", category="open")
        for i in range(players * 2)
    )
    people = list(Player.objects.order_by("pk"))
    Membership.objects.bulk_create(
        Membership(player=p, club=clubs[i % len(clubs)]) for i, p in enumerate(people)
    )
    finisher = get_user_model().objects.create_user("bench-finisher")
    start = dt.date(2026, 9, 5)
    season = Season.objects.create(
        name="Saison 2026/27", starts_on=start, ends_on=start + dt.timedelta(days=300)
    )
    regulars, others = people[:20], people[20:]
    pool: list = []
    finished = []
    for t in range(tournaments):
        chosen = regulars + rng.sample(others, players - len(regulars))
        tournament = build_tournament(
            season=season,
            club=clubs[t % len(clubs)],
            people=chosen,
            date=start + dt.timedelta(days=14 * t),
            name=f"{t + 1}. Turnier",
            rounds_played=ROUNDS,
            rng=rng,
            pool=pool,
        )
        finish_tournament(tournament=tournament, user=finisher)
        finished.append(tournament)
    live = build_tournament(
        season=season,
        club=clubs[0],
        people=regulars + rng.sample(others, players - len(regulars)),
        date=start + dt.timedelta(days=14 * tournaments),
        name="Heute",
        rounds_played=3,
        rng=rng,
        pool=pool,
    )
    return season, live, [p.pk for p in regulars[:3]] + [p.pk for p in others[:3]]


def cpu_of(request) -> float:
    began = time.process_time()
    response = request()
    spent = time.process_time() - began
    assert response.status_code == 200, response.status_code
    return spent


def figure(label: str, times: list[float]) -> None:
    print(
        f"  {label:<52} {min(times) * 1000:7.1f} {statistics.median(times) * 1000:7.1f}"
        f" {max(times) * 1000:7.1f} ms   (n={len(times)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournaments", type=int, default=13)
    parser.add_argument("--players", type=int, default=152)  # tables of 4
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    setup_django(scratch_database("sqlite"))
    from django.core.cache import cache
    from django.test import Client

    from tournaments.models import Deal
    from tournaments.services.revision import bump_revision

    began = time.perf_counter()
    season, live, player_ids = build(tournaments=args.tournaments, players=args.players)
    print(
        f"{args.tournaments} finished tournaments x {args.players} players and one in play, "
        f"{Deal.objects.count():,} deals (built in {time.perf_counter() - began:.0f} s)"
    )
    client = Client(HTTP_HOST="127.0.0.1")
    client.get("/")  # Django's URLs and views loaded: not the pages' time
    season_url = f"/seasons/{season.pk}/standings/"
    projector = f"/tournaments/{live.pk}/standings/projector/?partial=1"
    live_part = f"/tournaments/{live.pk}/standings/?partial=1"

    def player_page(pk):
        return lambda: client.get(f"/players/{pk}/results/")

    def cold(url):
        def run():
            cache.clear()
            return client.get(url)

        return run

    def new_revision(url):
        def run():
            bump_revision(tournament_id=live.pk)  # as a deal entered does
            return client.get(url)

        return run

    if args.profile:
        for label, request in (
            ("first player page", player_page(player_ids[0])),
            ("season page, cold", cold(season_url)),
            ("projector partial, new revision", new_revision(projector)),
        ):
            cache.clear()
            request()  # the code paths loaded once
            profile = cProfile.Profile(time.process_time)
            profile.enable()
            request()
            profile.disable()
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(25)
            pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(15)
            print(f"\n=== {label}\n{out.getvalue()}")
        return

    print(f"  {'CPU time per request (in-process)':<52} {'min':>7} {'median':>7} {'max':>7}")
    firsts = []
    for pk in player_ids:
        cache.clear()
        firsts.append(cpu_of(player_page(pk)))
    figure("player page, first reader after the new season", firsts)
    figure("season page, cold", [cpu_of(cold(season_url)) for _ in range(args.runs)])
    client.get(season_url)
    figure(
        "season page, cached", [cpu_of(lambda: client.get(season_url)) for _ in range(args.runs)]
    )
    client.get(projector)
    figure(
        "projector partial, first request at a new revision",
        [cpu_of(new_revision(projector)) for _ in range(args.runs)],
    )
    figure(
        "projector partial, cached",
        [cpu_of(lambda: client.get(projector)) for _ in range(args.runs)],
    )
    figure(
        "standings live part, first request at a new revision",
        [cpu_of(new_revision(live_part)) for _ in range(args.runs)],
    )

    def after_the_projector():
        new_revision(projector)()  # the projector paid for the standings at this revision
        began = time.process_time()
        response = client.get(live_part)
        assert response.status_code == 200, response.status_code
        return time.process_time() - began

    figure(
        "standings live part, after the projector at that revision",
        [after_the_projector() for _ in range(args.runs)],
    )
    print(f"load average (1 min): {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
