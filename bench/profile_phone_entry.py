"""Where the server's CPU goes for one phone deal: the POST of the phone form (with CSRF) and
the GET its redirect leads to, through Django's test client (no HTTP server, no threads), on a
scratch SQLite database with the bench settings (DEBUG off). Each table has --prefill deals
already (mid-round: 12 of 24), so the sheet on the page has its usual length.

Prints the CPU milliseconds (time.process_time) and queries per request, averaged over
--deals deals spread over the tables of a 160-player tournament, then the top of a cProfile
of the same requests (--profile N lines; 0 for none).

    .venv/bin/python bench/profile_phone_entry.py [--deals 80] [--prefill 12] [--profile 40] [--only GET]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import time
import uuid

from _support import build_tournament, enter_deals, scratch_database, setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=80)
    parser.add_argument("--profile", type=int, default=40)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument(
        "--prefill", type=int, default=12, help="deals each table has before (mid-round: 12)"
    )
    parser.add_argument("--queries", action="store_true", help="print the last deal's SQL")
    parser.add_argument("--only", choices=["POST", "GET"], help="profile only these requests")
    args = parser.parse_args()
    setup_django(scratch_database("sqlite"))

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from rules.builtin_sources import load_builtin
    from tournaments.services import draws

    tournament = build_tournament(players=160, rounds_played=0, rounds=1, name="Profile")
    round_ = draws.draw_next_round(tournament=tournament, number=1, seed=1)
    tokens = list(round_.tables.order_by("number").values_list("token", flat=True))
    rules = load_builtin("swm")
    rng = random.Random(1)
    for table in round_.tables.all():
        enter_deals(table, rules=rules, rng=rng, deals=args.prefill)
    phones = []
    for token in tokens:
        client = Client(enforce_csrf_checks=True, HTTP_HOST="127.0.0.1")
        url = f"/t/{token}/"
        client.get(url)
        csrf = client.cookies["csrftoken"].value
        client.post(url + "seat/", {"position": "0", "csrfmiddlewaretoken": csrf})
        phones.append([client, url, args.prefill + 1])

    timings: dict[str, list[float]] = {"POST": [], "GET": []}
    queries: dict[str, list[int]] = {"POST": [], "GET": []}
    profiler = cProfile.Profile()
    last_sql: dict[str, list[str]] = {}

    def timed(kind, call):
        with CaptureQueriesContext(connection) as captured:
            profiling = args.profile and args.only in (None, kind)
            if profiling:
                profiler.enable()
            start = time.process_time()
            response = call()
            timings[kind].append(time.process_time() - start)
            if profiling:
                profiler.disable()
        queries[kind].append(len(captured.captured_queries))
        last_sql[kind] = [q["sql"] for q in captured.captured_queries]
        return response

    for index in range(args.deals):
        phone = phones[index % len(phones)]
        client, url, number = phone
        fields = {
            "number": str(number),
            "contract": "cego",
            "declarer": "0",
            "declarer_points": str(rng.randint(20, 79)),
            "submission_key": str(uuid.uuid4()),
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        }
        response = timed("POST", lambda: client.post(url, fields, HTTP_REFERER=url))  # noqa: B023
        assert response.status_code == 302, response.status_code
        response = timed("GET", lambda: client.get(response["Location"]))  # noqa: B023
        assert response.status_code == 200, response.status_code
        phone[2] += 1

    for kind in ("POST", "GET"):
        print(
            f"{kind:>4}: {statistics.mean(timings[kind]) * 1000:6.1f} ms CPU"
            f" (median {statistics.median(timings[kind]) * 1000:5.1f}),"
            f" {statistics.mean(queries[kind]):4.1f} queries"
        )
    total = statistics.mean(timings["POST"]) + statistics.mean(timings["GET"])
    print(f"deal: {total * 1000:6.1f} ms CPU per deal (POST + redirect GET), {args.deals} deals")
    if args.queries:
        for kind, sqls in last_sql.items():
            print(f"{kind}:", *(f"  {sql[:300]}" for sql in sqls), sep="\n")
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(args.profile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
