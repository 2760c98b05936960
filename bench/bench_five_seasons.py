"""Five seasons in one archive: a player's results page, the season page and the season
workbook, measured through the real server (waitress with the bench settings, DEBUG off) as
the archive grows from one season to five.

The archive: 5 seasons x 13 tournaments, each 148 players (37 tables of 4) drawn from a pool
of 400, 5 rounds of 24 deals: about 288,000 deals, bulk-created into an SQLite scratch file
(deal scores from the engine, drawn from a pool of scored deals). After each season is added
a fresh server is started (nothing cached in it) and timed:

- a player's results page (the players who played most: every season), first request each;
- the season page, first request (cold: the server's cache is empty);
- the season's statistics page (every season compared), cold and cached, and its API;
- the season workbook (signed in as an organiser), and the server's peak memory (RSS).

Figures come from a shared machine (2 cores, other work running): read them as rough.

    .venv/bin/python bench/bench_five_seasons.py [--seasons 5] [--tournaments 13] [--deals 24]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import time
import urllib.request

from _support import Waitress, scratch_database, seat_round, setup_django

POOL = 400
PLAYERS = 148
ROUNDS = 5


def build_pool(rng: random.Random):
    from clubs.models import Club, Membership, Player

    clubs = Club.objects.bulk_create(
        [
            Club(
                name=f"Cegoclub {i}", short_name=f"CC{i}", town="Triberg", public_player_pages=True
            )
            for i in range(8)
        ]
    )
    Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Spieler{i:03d}", category="open")
        for i in range(POOL)
    )
    people = list(Player.objects.order_by("pk"))
    Membership.objects.bulk_create(
        Membership(player=p, club=clubs[i % len(clubs)]) for i, p in enumerate(people)
    )
    # A handful of regulars play every tournament; the rest are drawn each time.
    return clubs, people


def build_season(
    *, index: int, clubs, people, rng: random.Random, tournaments: int, deals_per_round: int
):
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from rules.builtin_sources import builtin_data
    from seasons.models import Season
    from tournaments import demo
    from tournaments.models import Deal, Entry, Tournament
    from tournaments.rule_snapshot import rule_source_of
    from tournaments.services.finish import finish_tournament
    from tournaments.services.results_common import TableFacts, compute_scores

    settings.SEASON_RESULTS_AHEAD = "inline"
    finisher, _created = get_user_model().objects.get_or_create(username="bench-finisher")

    start = dt.date(2021 + index, 10, 1)
    season = Season.objects.create(
        name=f"Saison {start.year}/{start.year + 1 - 2000}",
        starts_on=start,
        ends_on=start + dt.timedelta(days=240),
    )
    snapshot = builtin_data("swm")
    regulars = people[:20]
    pool_of_deals = []
    for t in range(tournaments):
        tournament = Tournament.objects.create(
            name=f"{t + 1}. Turnier {start.year}",
            season=season,
            host_club=clubs[t % len(clubs)],
            date=start + dt.timedelta(days=14 * t),
            rules_slug="swm",
            rules_snapshot=snapshot,
            rounds=ROUNDS,
            deals_per_round=deals_per_round,
        )
        if not pool_of_deals:
            rules = rule_source_of(tournament)
            facts = TableFacts(table=None, rules=rules, table_size=4)
            while len(pool_of_deals) < 80:
                inputs = demo.plausible_deal(rng, rules=rules, active_seats=[0, 1, 2, 3])
                pool_of_deals.append(compute_scores(facts=facts, number=1, inputs=inputs))
        chosen = regulars + rng.sample(people[20:], PLAYERS - len(regulars))
        Entry.objects.bulk_create(
            Entry(tournament=tournament, player=p, number=i + 1, checked_in=True)
            for i, p in enumerate(chosen)
        )
        entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
        deals = []
        for number in range(1, ROUNDS + 1):
            tables = seat_round(tournament, number=number, entries=entries, rng=rng, state="closed")
            for table in tables:
                for deal_number in range(1, deals_per_round + 1):
                    record, scores = rng.choice(pool_of_deals)
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
        # Finished as the organiser finishes it: its results for the seasons are stored then
        # (seasons.receivers, inline here), not by the first reader of a page.
        finish_tournament(tournament=tournament, user=finisher)
    return season


def organiser_cookie() -> str:
    """A session of a superuser, made directly in the session store (no login form)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    user = get_user_model().objects.create_superuser("bench", password="bench-only-pass")
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


SERVER_PID = 0  # the server's process: its CPU time per request is read from /proc


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(url: str, cookie: str | None = None) -> tuple[float, int]:
    """Wall time of one request; its server CPU time goes to CPU_TIMES (the machine is shared:
    CPU time is the steadier figure)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    cpu = cpu_seconds(SERVER_PID)
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        body = response.read()
        assert response.status == 200, (url, response.status)
    CPU_TIMES.append(cpu_seconds(SERVER_PID) - cpu)
    return time.perf_counter() - began, len(body)


CPU_TIMES: list[float] = []


def timed_cpu(func):
    """(median wall, median server CPU) of ``func``'s requests."""
    CPU_TIMES.clear()
    walls = func()
    return statistics.median(walls), statistics.median(CPU_TIMES)


def rss_mb(pid: int) -> tuple[float, float]:
    """The server's resident memory now and at its peak (VmHWM), in MB."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def measure(seasons, cookie: str, port: int) -> dict:
    from django.db.models import Count

    from clubs.models import Player

    # The players who played most (the regulars: every tournament of every season).
    busiest = list(
        Player.objects.annotate(n=Count("entries")).order_by("-n", "pk")[:5].values_list("pk", "n")
    )
    # And those who played least (a handful of tournaments).
    occasional = list(
        Player.objects.annotate(n=Count("entries"))
        .filter(n__gte=1)
        .order_by("n", "pk")[:5]
        .values_list("pk", "n")
    )
    global SERVER_PID
    with Waitress(port, threads=4) as server:
        SERVER_PID = server.process.pid
        get(server.url + "/")  # Django's URLs and views loaded: that is not the page's time
        url = server.url
        figures = {
            # The first reader after the new season was added (its tournaments' results are
            # worked out and stored where that is how the page works).
            "first player page after the new season": timed_cpu(
                lambda: [get(f"{url}/players/{busiest[0][0]}/results/")[0]]
            ),
            "player page (plays every tournament)": timed_cpu(
                lambda: [get(f"{url}/players/{pk}/results/")[0] for pk, _n in busiest]
            ),
            f"player page ({occasional[0][1]}-{occasional[-1][1]} tournaments)": timed_cpu(
                lambda: [get(f"{url}/players/{pk}/results/")[0] for pk, _n in occasional]
            ),
            "season page, cold (first request)": timed_cpu(
                lambda: [get(f"{url}/seasons/{seasons[-1].pk}/standings/")[0]]
            ),
            "season page, an earlier season, cold": timed_cpu(
                lambda: [get(f"{url}/seasons/{seasons[0].pk}/standings/")[0]]
            ),
            "season page, cached": timed_cpu(
                lambda: [get(f"{url}/seasons/{seasons[-1].pk}/standings/")[0] for _ in range(5)]
            ),
            # every season up to the last compared: all their tournaments' deals counted
            "statistics page, cold (first request)": timed_cpu(
                lambda: [get(f"{url}/seasons/{seasons[-1].pk}/statistics/")[0]]
            ),
            "statistics page, cached": timed_cpu(
                lambda: [get(f"{url}/seasons/{seasons[-1].pk}/statistics/")[0] for _ in range(5)]
            ),
            "statistics API, cached": timed_cpu(
                lambda: [
                    get(f"{url}/api/v1/seasons/{seasons[-1].pk}/statistics/")[0] for _ in range(5)
                ]
            ),
            "season workbook": timed_cpu(
                lambda: [get(f"{url}/seasons/{seasons[-1].pk}/standings.xlsx", cookie)[0]]
            ),
        }
        _now, peak = rss_mb(server.process.pid)
    figures["server peak RSS MB"] = peak
    figures["regular plays"] = busiest[0][1]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seasons", type=int, default=5)
    parser.add_argument("--tournaments", type=int, default=13)
    parser.add_argument("--deals", type=int, default=24, help="deals per round (5 rounds)")
    parser.add_argument("--port", type=int, default=8261)
    args = parser.parse_args()
    setup_django(scratch_database("sqlite"))
    from tournaments.models import Deal

    rng = random.Random(20261124)
    clubs, people = build_pool(rng)
    cookie = organiser_cookie()
    print(
        "Five seasons through the server (waitress, SQLite, DEBUG off; shared 2-core machine, "
        "figures are rough)"
    )
    seasons = []
    for index in range(args.seasons):
        began = time.perf_counter()
        seasons.append(
            build_season(
                index=index,
                clubs=clubs,
                people=people,
                rng=rng,
                tournaments=args.tournaments,
                deals_per_round=args.deals,
            )
        )
        built = time.perf_counter() - began
        figures = measure(seasons, cookie, args.port)
        print(
            f"\n{index + 1} season(s), {Deal.objects.count():,} deals (season built in "
            f"{built:.0f} s; load average {os.getloadavg()[0]:.1f})"
        )
        print(f"  {'':<40} {'wall':>9}    {'server CPU':>10}")
        for label, value in figures.items():
            if label.endswith("MB"):
                print(f"  {label:<40} {value:9.1f}")
            elif label == "regular plays":
                print(f"  {'(a regular has played)':<40} {value:9d} tournaments")
            else:
                wall, cpu = value
                print(f"  {label:<40} {wall * 1000:9.0f} ms {cpu * 1000:9.0f} ms")


if __name__ == "__main__":
    main()
