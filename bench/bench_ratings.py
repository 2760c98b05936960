"""The rating across seasons (``ratings.services.bring_up_to_date``) on five seasons of
thirteen tournaments of 150 players (35 tables of four and 2 of five, 5 rounds of 24 deals:
about 290,000 deals, bulk-created into a scratch database), timed:

- a full replay from the first season (``manage.py recompute_ratings``), split into reading
  the tables (``ratings.selectors.tournament_matches``) and the rating itself (openskill,
  ``ratings.rating.Rater.replay``);
- the newest tournament added (the incremental step a finished tournament takes);
- an older tournament changed (a deal corrected in season 3: replayed from it on);
- a new revision that changes no table (a name corrected): nothing replayed.

Figures come from a shared machine (2 cores, other work running): read them as rough.
Measured 2026-11-26 on SQLite at a load average of 19 to 23 on the 2 cores (so several times
slower than an idle machine), 288,600 deals, 12,025 matches, 400 players, 9,750 rows:

    read every table as a match                        11.7 s
    rate them all (openskill, no database)             16.1 s
    full replay, 65 tournaments (read, rate, store)    40.8 s
    the newest tournament finished (incremental)        2.2 s
    an older tournament corrected (34 replayed)        20.3 s
    a name corrected in the first tournament            0.2 s (nothing replayed)
    nothing changed: the check alone                    0.05 s

    .venv/bin/python bench/bench_ratings.py [--seasons 5] [--tournaments 13] [--deals 24]
        [--database sqlite|postgres]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random

from _support import scratch_database, setup_django, timed

PLAYERS = 150
POOL = 400
ROUNDS = 5
TABLE_SIZES = [4] * 35 + [5] * 2  # 150 players


def build(*, seasons: int, tournaments: int, deals_per_round: int, rng: random.Random):
    from clubs.models import Club, Player
    from rules.builtin_sources import builtin_data
    from seasons.models import Season
    from tournaments import demo
    from tournaments.models import Deal, Entry, Round, Seat, Table, Tournament
    from tournaments.rule_snapshot import rule_source_of
    from tournaments.services.results_common import TableFacts, compute_scores

    club = Club.objects.create(name="Cegoclub Triberg", short_name="CCT", town="Triberg")
    Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Spieler{i:03d}") for i in range(POOL)
    )
    people = list(Player.objects.order_by("pk"))
    snapshot = builtin_data("swm")
    scored: list[list[int]] = []
    made = []
    for s in range(seasons):
        start = dt.date(2021 + s, 10, 1)
        season = Season.objects.create(
            name=f"Saison {start.year}", starts_on=start, ends_on=start + dt.timedelta(days=240)
        )
        for t in range(tournaments):
            tournament = Tournament.objects.create(
                name=f"{t + 1}. Turnier {start.year}",
                season=season,
                host_club=club,
                date=start + dt.timedelta(days=14 * t),
                rules_slug="swm",
                rules_snapshot=snapshot,
                rounds=ROUNDS,
                deals_per_round=deals_per_round,
            )
            if not scored:
                rules = rule_source_of(tournament)
                facts = TableFacts(table=None, rules=rules, table_size=4)
                while len(scored) < 80:
                    inputs = demo.plausible_deal(rng, rules=rules, active_seats=[0, 1, 2, 3])
                    scored.append(list(compute_scores(facts=facts, number=1, inputs=inputs)[1]))
            chosen = people[:30] + rng.sample(people[30:], PLAYERS - 30)  # 30 regulars
            Entry.objects.bulk_create(
                Entry(tournament=tournament, player=p, number=i + 1, checked_in=True)
                for i, p in enumerate(chosen)
            )
            entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
            deals, seats = [], []
            for number in range(1, ROUNDS + 1):
                round_ = Round.objects.create(
                    tournament=tournament, number=number, draw_seed=number, state="closed"
                )
                Table.objects.bulk_create(
                    Table(round=round_, number=n + 1) for n in range(len(TABLE_SIZES))
                )
                tables = list(Table.objects.filter(round=round_).order_by("number"))
                order = entries[:]
                rng.shuffle(order)
                at = 0
                for table, size in zip(tables, TABLE_SIZES, strict=True):
                    seats.extend(
                        Seat(table=table, round=round_, position=p, entry=order[at + p])
                        for p in range(size)
                    )
                    at += size
                    for deal_number in range(1, deals_per_round + 1):
                        four = rng.choice(scored)
                        if size == 5:  # one seat sits out each deal, in turn
                            out = (deal_number - 1) % 5
                            four = four[:out] + [0] + four[out:]
                        deal = Deal(
                            table=table,
                            number=deal_number,
                            status=Deal.Status.CONFIRMED,
                            contract="cego",
                        )
                        deal.set_scores(four)
                        deals.append(deal)
            Seat.objects.bulk_create(seats, batch_size=4000)
            Deal.objects.bulk_create(deals, batch_size=4000)
            Tournament.objects.filter(pk=tournament.pk).update(
                finished_at=dt.datetime(start.year, 12, 31, tzinfo=dt.UTC)
            )
            made.append(tournament)
    return made, people


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seasons", type=int, default=5)
    parser.add_argument("--tournaments", type=int, default=13)
    parser.add_argument("--deals", type=int, default=24, help="deals per round (5 rounds)")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    setup_django(scratch_database(args.database))
    from django.conf import settings

    settings.RATINGS_AHEAD = "off"  # each step below is timed by hand
    settings.SEASON_RESULTS_AHEAD = "off"
    from ratings.models import PlayerRating, RatingChange
    from ratings.rating import Rater
    from ratings.selectors import finished_tournaments, tournament_matches
    from ratings.services import bring_up_to_date
    from tournaments.models import SCORE_FIELDS, Deal, Tournament
    from tournaments.services.revision import bump_revision

    rng = random.Random(20261126)
    count = args.seasons * args.tournaments
    (made, _people), built = timed(
        f"build {count} tournaments × {PLAYERS} players",
        lambda: build(
            seasons=args.seasons,
            tournaments=args.tournaments,
            deals_per_round=args.deals,
            rng=rng,
        ),
        seconds=True,
    )
    deals = Deal.objects.count()
    print(f"  {deals:,} deals; load average {os.getloadavg()[0]:.1f} (2 cores, shared)")
    print(f"Ratings ({args.database}; shared 2-core machine, figures are rough)")
    ids = [f.tournament_id for f in finished_tournaments()]
    matches, _read = timed(
        "  read every table as a match", lambda: tournament_matches(tournament_ids=ids)
    )
    print(f"    {sum(len(m) for m in matches.values()):,} matches")
    timed(
        "  rate them all (openskill, no database)",
        lambda: Rater().replay({}, [(pk, matches[pk]) for pk in ids]),
        seconds=True,
    )
    run, _full = timed(
        f"full replay, {count} tournaments (read, rate, store)",
        lambda: bring_up_to_date(reason="bench", full=True),
        seconds=True,
    )
    print(
        f"  {run.tournaments} tournaments, {PlayerRating.objects.count()} players rated, "
        f"{RatingChange.objects.count():,} rows of before/after"
    )
    # The newest tournament finishes: a copy of the last one a fortnight later.
    last = made[-1]
    newest = Tournament.objects.create(
        name="Neuestes Turnier",
        season_id=last.season_id,
        host_club_id=last.host_club_id,
        date=last.date + dt.timedelta(days=14),
        rules_slug="swm",
        rules_snapshot=last.rules_snapshot,
        rounds=ROUNDS,
        deals_per_round=last.deals_per_round,
    )
    _copy_tables(source=last, target=newest)
    Tournament.objects.filter(pk=newest.pk).update(finished_at=dt.datetime.now(tz=dt.UTC))
    run, _inc = timed(
        "the newest tournament finished (incremental)",
        lambda: bring_up_to_date(reason="bench: newest"),
    )
    assert run.kind == "incremental", run.kind
    # A deal corrected in a tournament of season 3: replayed from it on.
    middle = made[len(made) // 2]
    deal = Deal.objects.filter(table__round__tournament=middle).order_by("pk").first()
    deal.set_scores([-(getattr(deal, name) or 0) for name in SCORE_FIELDS])
    deal.save()
    bump_revision(tournament_id=middle.pk)
    later = sum(1 for t in made if (t.date, t.pk) >= (middle.date, middle.pk)) + 1
    run, _older = timed(
        f"an older tournament corrected ({later} replayed)",
        lambda: bring_up_to_date(reason="bench: corrected"),
        seconds=True,
    )
    assert run.kind == "replay", run.kind
    # A new revision with the same tables (a name corrected): nothing is replayed.
    bump_revision(tournament_id=made[0].pk)
    run, _quiet = timed(
        "a name corrected in the first tournament",
        lambda: bring_up_to_date(reason="bench: renamed"),
    )
    assert run is None
    timed("nothing changed: the check alone", lambda: bring_up_to_date(reason="bench: idle"))


def _copy_tables(*, source, target) -> None:
    """``target`` seated and scored as ``source`` (new entries for the same players)."""
    from tournaments.models import Deal, Entry, Round, Seat, Table

    entry_of = {}
    for entry in Entry.objects.filter(tournament=source).order_by("number"):
        entry_of[entry.pk] = Entry.objects.create(
            tournament=target, player_id=entry.player_id, number=entry.number, checked_in=True
        )
    for round_ in Round.objects.filter(tournament=source):
        new_round = Round.objects.create(
            tournament=target, number=round_.number, draw_seed=1, state="closed"
        )
        for table in Table.objects.filter(round=round_):
            new_table = Table.objects.create(round=new_round, number=table.number)
            Seat.objects.bulk_create(
                Seat(
                    table=new_table,
                    round=new_round,
                    position=s.position,
                    entry=entry_of[s.entry_id],
                )
                for s in Seat.objects.filter(table=table)
            )
            deals = []
            for deal in Deal.objects.filter(table=table):
                deal.pk = None
                deal.table = new_table
                deals.append(deal)
            Deal.objects.bulk_create(deals)


if __name__ == "__main__":
    main()
