"""A simultaneous Cego day: HALLS venues × PLAYERS players publishing to one season server,
everything started as users start it, and the seconds from a deal's entry on a phone in any
hall to its appearance in the day's overall ranking on the season server.

The walk, as on the day:
  1. the season server: gunicorn (3 workers × 4 threads, docs/DEPLOY.md) on PostgreSQL with
     Redis (``bench_publish.SeasonServer``); on it (``manage.py shell``) HALLS clubs, each with
     its publishing token and a tournament of PLAYERS registered players on today's date
     (swm, 3 rounds of 16 deals); the association's season scorer creates the simultaneous day
     and adds the HALLS tournaments as its halls (``simultaneous.services``);
  2. each hall's laptop takes its tournament with the way back (``manage.py fetch_tournament
     --data DIR --from URL --tournament ID``, the club's token in CEGO_PUBLISH_TOKEN), checks
     everybody in and draws round 1 (the services, in a child process on the data folder), and
     starts ``manage.py venue --data DIR --publish-to URL`` (its sender publishes, its follower
     fetches the overall ranking for the hall's projector every second);
  3. a phone at every table (seated); every hall enters one deal every --every seconds (6: 25
     tables finishing a deal every 2.5 minutes) from its phones in turn, for --seconds (150),
     the halls staggered;
     a second phone at the table (position 1) confirms each (a deal counts once confirmed;
     the time is measured from the confirming POST);
  4. one poller asks the season server's overall ranking
     (``/simultan/turniere/<id>/gesamt.json``, the same document the laptops fetch, with its
     ETag: 304 while nothing changed) every --poll seconds (0.05) and notes when each deal's
     player (the phone's seat, position 0) shows the deal in their ``deals_played``.

Printed: entry → in the overall ranking, p50 / p95 / max over all halls (goal: p95 < 2 s); the
phone's own answer time; the season server's CPU per deal; the load average before, during and
after (2 cores shared with other work: the figures are indicative).

    .venv/bin/python bench/bench_simultaneous.py [--halls 5] [--players 100] [--every 6]
                                                 [--seconds 150]

Ports 8230 (season server) and free ones for the venues; PG_BENCH_URL names the scratch
PostgreSQL database (default cego_bench_publish).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from _support import ROOT, venue_folder
from bench_publish import SeasonServer, cpu_seconds, figures, seated_phones

from tests.servers import Phone, clean_env, start_venue, stored

# the confirm form a second phone at the table sees for the deal another phone entered
CONFIRM = re.compile(
    r'action="(?P<action>/t/[^"/]+/deals/\d+/confirm/)"[^>]*>.*?name="version" value="(?P<version>\d+)"',
    re.S,
)

ROUNDS, DEALS_PER_ROUND = 3, 16
TOWNS = ["Unadingen", "Lenzkirch", "Bräunlingen", "Hüfingen", "Löffingen", "Vöhrenbach",
         "Furtwangen", "Triberg"]  # fmt: skip


def server_setup() -> None:
    """On the season server (``manage.py shell``): the clubs, tokens, tournaments with their
    registrations, the day and its halls. Prints them as JSON."""
    from django.contrib.auth.models import User

    from clubs.models import AssociationRole, Club, Player
    from publishing.server.services import issue_token
    from simultaneous import services as simultaneous
    from tournaments.services import registration, setup

    halls, players = int(os.environ["BENCH_HALLS"]), int(os.environ["BENCH_PLAYERS"])
    today = datetime.date.today()
    scorer = User.objects.create_user("sportwart", password="bench")
    AssociationRole.objects.create(user=scorer)
    day = simultaneous.create_day(
        name="Simultan-Cego (Bench)", date=today, rules_slug="swm", rounds=ROUNDS,
        deals_per_round=DEALS_PER_ROUND, by=scorer,
    )  # fmt: skip
    out = {"day": day.pk, "halls": []}
    for number in range(halls):
        town = TOWNS[number % len(TOWNS)] + ("" if number < len(TOWNS) else f" {number}")
        club = Club.objects.create(name=f"Cego-Club {town}", short_name=f"CC{number}", town=town)
        _row, token = issue_token(club=club, label="Laptop")
        tournament = setup.create_tournament(
            name=f"Simultan in {town}", host_club=club, date=today, rules_slug="swm",
            rounds=ROUNDS, deals_per_round=DEALS_PER_ROUND, review_draws=False,
        )  # fmt: skip
        Player.objects.bulk_create(
            Player(first_name=f"Spieler{number}x{i}", last_name=f"Halle{number}")
            for i in range(players)
        )
        field = list(Player.objects.filter(last_name=f"Halle{number}").order_by("pk"))
        registration.register_players(tournament=tournament, players=field)
        simultaneous.add_hall(day=day, tournament=tournament, by=scorer)
        out["halls"].append({"token": token, "archive_id": str(tournament.archive_id)})
    print(json.dumps(out))


def laptop_prepare(folder: str) -> None:
    """On the hall's laptop (its data folder): everybody checked in, round 1 drawn; prints the
    tables' tokens with the name of the player at position 0."""
    # the folder's database was migrated by fetch_tournament: no migrate, no collectstatic
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(folder) / 'db.sqlite3'}"
    os.environ["BENCH_STATIC_ROOT"] = str(Path(folder) / "static")
    os.environ["DJANGO_SETTINGS_MODULE"] = "settings_bench"
    import django

    django.setup()
    from tournaments.models import Table, Tournament
    from tournaments.services import checkin, draws

    tournament = Tournament.objects.get()
    for entry in tournament.entries.all():
        checkin.set_checked_in(entry=entry, checked_in=True)
    round_ = draws.draw_next_round(tournament=tournament, number=1, seed=1)
    if round_.awaiting_release:  # the organiser looked at the draw and shows it
        round_ = draws.release_draw(round=round_, user=None)
    tables = []
    for table in Table.objects.filter(round=round_).order_by("number"):
        seat = table.seats.select_related("entry__player").get(position=0)
        player = seat.entry.player
        tables.append([table.token, f"{player.first_name} {player.last_name}"])
    print(json.dumps({"tables": tables}))


def run_child(*args: str, env: dict | None = None) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, env=env or os.environ
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return done.stdout


class Poller:
    """Asks the season server's overall ranking every ``every`` seconds (with its ETag) and
    resolves the deals waiting to appear in it."""

    def __init__(self, url: str, every: float):
        self.url, self.every = url, every
        self.etag = ""
        self.lock = threading.Lock()
        self.waiting: list[tuple[str, int, float, list]] = []  # name, deals, t0, out
        self.asked = self.changed = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def expect(self, name: str, deals: int, t0: float, out: list) -> None:
        with self.lock:
            self.waiting.append((name, deals, t0, out))

    def pending(self) -> int:
        with self.lock:
            return len(self.waiting)

    def _run(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            request = urllib.request.Request(self.url, headers={"If-None-Match": self.etag})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    document = json.loads(answer.read())
                    self.etag = answer.headers.get("ETag", "")
                seen = time.perf_counter()
                self.changed += 1
                played = {row["name"]: row["deals_played"] for row in document["overall"]}
                with self.lock:
                    still = []
                    for name, deals, t0, out in self.waiting:
                        if played.get(name, 0) >= deals:
                            out.append(seen - t0)
                        else:
                            still.append((name, deals, t0, out))
                    self.waiting = still
            except urllib.error.HTTPError as error:
                if error.code != 304:
                    print("  poll:", error.code)
            except OSError as error:
                print("  poll:", error)
            self.asked += 1
            self.stop.wait(max(0.0, self.every - (time.perf_counter() - started)))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--halls", type=int, default=5)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--every", type=float, default=6.0)
    parser.add_argument("--seconds", type=float, default=150.0)
    parser.add_argument("--poll", type=float, default=0.05)
    args = parser.parse_args()
    loads = [os.getloadavg()[0]]
    print(
        f"bench_simultaneous: {args.halls} halls × {args.players} players "
        f"(load {loads[0]:.1f}, {os.cpu_count()} cores)"
    )
    scratch = Path(venue_folder()).parent
    server = SeasonServer(scratch)
    venues = []
    try:
        started = time.perf_counter()
        server.env.update(BENCH_HALLS=str(args.halls), BENCH_PLAYERS=str(args.players))
        script = (
            "import sys; sys.path[:0] = ['bench']; import bench_simultaneous; "
            "bench_simultaneous.server_setup()"
        )
        plan = json.loads(server.manage("shell", "-c", script).strip().splitlines()[-1])
        print(
            f"  season server set up in {time.perf_counter() - started:.0f} s (day {plan['day']})"
        )
        halls = []
        for number, hall in enumerate(plan["halls"]):
            folder = venue_folder()
            env = clean_env(
                DJANGO_SETTINGS_MODULE="cego_club.settings", CEGO_PUBLISH_TOKEN=hall["token"]
            )
            t0 = time.perf_counter()
            run_child(
                str(ROOT / "manage.py"), "fetch_tournament", "--data", str(folder),
                "--from", server.url, "--tournament", hall["archive_id"], env=env,
            )  # fmt: skip
            prepared = json.loads(
                run_child(__file__, "--prepare", str(folder)).strip().splitlines()[-1]
            )
            venue = start_venue(
                folder, log=scratch / f"venue-{number}.log", env=env,
                extra=("--publish-to", server.url),
            )  # fmt: skip
            venues.append(venue)
            halls.append({**hall, **prepared, "venue": venue})
            print(
                f"  hall {number + 1}: fetched, {len(prepared['tables'])} tables drawn, venue at"
                f" {venue.url} ({time.perf_counter() - t0:.0f} s)"
            )
        # every hall's draw on the server (the first batches), then the phones sit down
        deadline = time.monotonic() + 300
        for hall in halls:
            while (
                server.db.execute(
                    "SELECT count(*) FROM tournaments_seat s JOIN tournaments_round r ON s.round_id"
                    " = r.id JOIN tournaments_tournament t ON r.tournament_id = t.id"
                    " WHERE t.archive_id = %s",
                    [hall["archive_id"]],
                ).fetchone()[0]
                < args.players
            ):
                if time.monotonic() > deadline:
                    raise RuntimeError("the draws did not reach the season server")
                time.sleep(0.2)
            hall["phones"] = seated_phones(
                [token for token, _ in hall["tables"]], hall["venue"].url
            )
            hall["partners"] = [Phone(token) for token, _ in hall["tables"]]
            for number, partner in enumerate(hall["partners"]):
                # another player's phone: its own browser (the venue refuses a confirmation
                # from the entering phone's address and browser)
                partner.opener.addheaders = [("User-Agent", f"Mozilla/5.0 (Partner {number})")]
                partner.sit_down(hall["venue"].url, position=1)
        overall = f"{server.url}/simultan/turniere/{halls[0]['archive_id']}/gesamt.json"
        with urllib.request.urlopen(overall, timeout=30) as answer:
            rows = len(json.loads(answer.read())["overall"])
        print(f"  every draw on the server; the overall ranking lists {rows} players")
        loads.append(os.getloadavg()[0])
        poller = Poller(overall, args.poll)
        shown: list[float] = []
        answered: list[float] = []
        confirmed: list[float] = []
        failures: list[str] = []
        cpu_before = cpu_seconds(server.process.pid)

        def play(hall: dict, offset: float) -> None:
            time.sleep(offset)
            phones, tables = hall["phones"], hall["tables"]
            played: dict[int, int] = {}
            start = time.perf_counter()
            for index in range(int(args.seconds / args.every)):
                which = index % len(phones)
                played[which] = played.get(which, 0) + 1
                url = hall["venue"].url
                t0 = time.perf_counter()
                status, location, page = phones[which].enter_deal(url, played[which])
                answered.append(time.perf_counter() - t0)
                if not stored(status, location, phones[which].token):
                    failures.append(page[:300])
                    return
                # a second player's phone at the table confirms it: from then on it counts
                partner = hall["partners"][which]
                _status, _location, page = partner.request(f"{url}/t/{partner.token}/")
                found = CONFIRM.search(page)
                if found is None:
                    failures.append("no deal to confirm: " + page[:300])
                    return
                t0 = time.perf_counter()
                status, location, page = partner.request(
                    url + found["action"],
                    {"csrfmiddlewaretoken": partner._csrf(), "version": found["version"]},
                )
                confirmed.append(time.perf_counter() - t0)
                if not stored(status, location, partner.token):
                    failures.append(page[:300])
                    return
                poller.expect(tables[which][1], played[which], t0, shown)
                time.sleep(max(0.0, start + (index + 1) * args.every - time.perf_counter()))

        threads = [
            threading.Thread(target=play, args=(hall, n * args.every / len(halls)))
            for n, hall in enumerate(halls)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.seconds * 0.5)
            loads.append(os.getloadavg()[0])
        for thread in threads:
            thread.join()
        deadline = time.monotonic() + 60
        while poller.pending() and time.monotonic() < deadline:
            time.sleep(0.1)
        poller.stop.set()
        cpu = cpu_seconds(server.process.pid) - cpu_before
        loads.append(os.getloadavg()[0])
        if failures:
            print("  failures:", failures[:3])
            return 1
        if poller.pending():
            with urllib.request.urlopen(overall, timeout=30) as answer:
                rows = {r["name"]: r for r in json.loads(answer.read())["overall"]}
            name, deals, _t0, _out = poller.waiting[0]
            print(f"  never appeared: {name} with {deals} deals; the server says {rows.get(name)}")
            print(f"  {poller.asked} polls, {poller.changed} with a new ranking")
        print(
            f"  {len(answered)} deals in {args.halls} halls, each hall one every {args.every} s"
            f" for {args.seconds:.0f} s; {poller.pending()} never appeared"
        )
        if not shown:
            return 1
        figures("entry → in the overall ranking", shown)
        figures("the entering phone's answer (the hall's venue)", answered)
        figures("the confirming phone's answer", confirmed)
        print(
            f"  season server CPU per deal {cpu / max(len(answered), 1) * 1000:.0f} ms"
            f" (with the {len(halls)} laptops' followers and the poller:"
            f" {poller.asked} polls, {poller.changed} with a new ranking)"
        )
        print("  load average (1 min): " + ", ".join(f"{load:.1f}" for load in loads))
    finally:
        for venue in venues:
            venue.stop()
        server.stop()
    return 0


if __name__ == "__main__":
    if "--prepare" in sys.argv:
        laptop_prepare(sys.argv[sys.argv.index("--prepare") + 1])
        sys.exit(0)
    sys.exit(main())
