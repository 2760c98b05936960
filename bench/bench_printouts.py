"""Benchmark every tournament-day printout of a 160-player round (40 tables), first click in a
freshly started server process, and the cached second click.

The parent builds a scratch SQLite database once (160 players, two rounds played through the
result service, prize money by place). Then, for each printout and each run, a new process
serves and the organiser clicks:

- default, *nothing warmed*: a new Python process starts Django with the venue's settings
  (DEBUG off; ``django.setup()`` only), signs the organiser in and fetches the PDF twice
  through Django's test client: the first request of the process is the printout, so it pays
  for everything a fresh process has not done yet (loading the URLs and views, the fonts, the
  selectors' queries, the drawing, a full garbage collection); the second is served from the
  cache. CPU: ``time.process_time()`` of that process (all its threads) around the click.
- ``--venue``, *as the organiser starts the day*: ``manage.py venue --data FOLDER --port N
  --bind 127.0.0.1 --no-qr`` of the checkout (waitress, the venue's own settings; everything
  the venue does before it answers is done, nothing else is), polled on ``/health/`` every
  20 ms until it answers; ``--click-after`` seconds later (default 1, a person's click comes
  later than that; a start that still works in the background then shares the processor with
  the click) the printout is fetched over HTTP with the organiser's session cookie from a
  login made on an earlier start (the organiser's browser kept it: the first request after
  ``/health/`` is the printout). CPU: the server process's (utime + stime of all its
  threads, ``/proc/PID/stat``, in clock ticks of 10 ms) around the click.

    .venv/bin/python bench/bench_printouts.py [--runs 5] [--players 160] [--root PATH]... [--venue]

``--root`` runs the child processes (or the venue) on another checkout of the project (the
same database schema), e.g. an export of ``main`` to compare with; given twice or more
(``--root OLD --root NEW``), the checkouts' runs take turns, so that both see the same load.
The checkouts' modules are compiled once first (``compileall``), as an installed wheel's are. Shared 2-core machine: the
figures are indicative; the load average is printed. Goal: every first click under 1 s; the
score sheets under 0.3 s (issue 29).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRINTOUTS = {
    "score sheets": "rounds/{round}/print/score-sheets.pdf",
    "seat plan": "rounds/{round}/print/seat-plan.pdf",
    "table cards": "rounds/{round}/print/table-cards.pdf",
    "standings": "print/standings.pdf",
    "prize list": "print/prizes.pdf",
}


def child(url: str, clicks: int, before: str | None = None) -> None:
    """In a fresh process: Django set up (the server started), then the clicks, timed.
    ``before``: a page the organiser opens first (untimed), e.g. the round's draw page, where
    the score sheets' link is; what it starts in the background is waited for."""
    import threading

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="organisator"))
    if before:
        assert client.get(before).status_code == 200
        for thread in threading.enumerate():
            if thread.name == "printout-fonts":
                thread.join()
    times, cpu = [], []
    for _ in range(clicks):
        began, began_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)  # this process's, its threads' included
        assert response.status_code == 200, response.status_code
        assert response.content.startswith(b"%PDF")
    print(json.dumps({"times": times, "cpu": cpu, "bytes": len(response.content)}))


def build(players: int, folder: Path | None = None) -> tuple[str, int]:
    """The scratch database (in the venue data ``folder`` where given): its URL and the
    tournament's primary key."""
    from _support import build_tournament, scratch_database, setup_django

    database = scratch_database("sqlite", folder=folder)
    setup_django(database)
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole

    tournament = build_tournament(players=players, rounds_played=2, rounds=3)
    tournament.prize_shares_cents = [10000, 6000, 4000, 3000, 2000, 1000]
    tournament.venue = "Stadthalle Bräunlingen"
    tournament.save()
    user = get_user_model().objects.create_user("organisator", password="cego-demo")
    ClubRole.objects.create(user=user, club=tournament.host_club, role="organiser")
    return database, tournament.pk


class Venue:
    """``manage.py venue`` of ``root`` on ``folder`` (127.0.0.1, a free port), answering."""

    def __init__(self, root: Path, folder: Path, log: Path) -> None:
        sys.path.insert(0, str(ROOT))
        from tests.servers import clean_env, free_port

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.handle = open(log, "w")  # noqa: SIM115 - the server writes to it until stopped
        self.process = subprocess.Popen(
            [sys.executable, str(root / "manage.py"), "venue", "--data", str(folder)]
            + ["--port", str(self.port), "--bind", "127.0.0.1", "--no-qr"],
            cwd=root,
            env=clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings"),
            stdout=self.handle,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 600  # a busy shared machine: migrate, static files
        while True:
            try:
                with urllib.request.urlopen(self.url + "/health/", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.HTTPError):
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"the venue did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.02)

    def cpu(self) -> float:
        """The server process's CPU seconds so far (all its threads, ended ones included)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.handle.close()


def venue_login(url: str) -> http.cookiejar.CookieJar:
    """The organiser signed in through the login form (the session kept in the database)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(url + "/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = {"username": "organisator", "password": "cego-demo", "csrfmiddlewaretoken": token}
    opener.open(url + "/login/", urllib.parse.urlencode(form).encode()).read()
    assert any(cookie.name == "sessionid" for cookie in jar), "login failed"
    return jar


def venue_run(root: Path, folder: Path, jar, url_path: str, args) -> dict:
    """A freshly started venue of ``root``, clicked ``--click-after`` seconds after /health/
    first answered: the clicks' times and the server's CPU for them."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    times, cpu, size = [], [], 0
    venue = Venue(root, folder, folder.parent / "venue.log")
    try:
        time.sleep(args.click_after)
        for _ in range(args.clicks):
            began, began_cpu = time.perf_counter(), venue.cpu()
            with opener.open(venue.url + url_path, timeout=120) as answer:
                body = answer.read()
                assert answer.status == 200 and body.startswith(b"%PDF"), answer.status
            times.append(time.perf_counter() - began)
            cpu.append(venue.cpu() - began_cpu)
            size = len(body)
    finally:
        venue.stop()
    return {"times": times, "cpu": cpu, "bytes": size}


def child_run(root: Path, url: str, args, environment: dict, pk: int) -> dict:
    """A new process of ``root``'s code (Django set up, nothing else), clicked."""
    result = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", url]
        + ["--clicks", str(args.clicks)]
        + (["--before", f"/tournaments/{pk}/rounds/2/draw/"] if args.from_draw_page else []),
        cwd=root,
        env={**environment, "PYTHONPATH": f"{root}{os.pathsep}{ROOT / 'bench'}"},
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode:
        raise SystemExit(f"{url}: {result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--clicks", type=int, default=4, help="per process (first + cached)")
    parser.add_argument(
        "--root",
        type=Path,
        action="append",
        help="the checkout the server runs (default this one); given twice or more, their runs "
        "take turns, so that each sees the same load",
    )
    parser.add_argument("--only", action="append", choices=list(PRINTOUTS))
    parser.add_argument("--keep", action="store_true", help="keep the database, print its URL")
    parser.add_argument("--database", help="a database kept before (--keep): not built again")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument(
        "--from-draw-page",
        action="store_true",
        help="click from the round's draw page, opened first (its URLs loaded, its fonts read)",
    )
    parser.add_argument("--before", help=argparse.SUPPRESS)
    parser.add_argument(
        "--venue",
        action="store_true",
        help="serve with manage.py venue as the organiser starts it; click over HTTP",
    )
    parser.add_argument(
        "--click-after",
        type=float,
        default=1.0,
        help="with --venue: seconds between /health/ answering and the click (default 1)",
    )
    args = parser.parse_args()
    if args.child:  # the code of --root, on PYTHONPATH
        child(args.child, args.clicks, args.before)
        return
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    roots = [root.resolve() for root in args.root or [ROOT]]
    # As installed (pip compiles a wheel's modules) or run a second time: the checkout's
    # modules compiled once here, not in every timed process (this shell may say
    # PYTHONDONTWRITEBYTECODE; the organiser's laptop does not).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    for root in roots:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", "-x", r"[/\\]\.(venv|git)[/\\]", str(root)],
            check=True,
        )
    folder = None
    if args.database:
        database, pk = args.database, 1
        os.environ.setdefault("BENCH_STATIC_ROOT", tempfile.mkdtemp())
    else:
        from _support import venue_folder

        folder = venue_folder() if args.venue else None
        database, pk = build(args.players, folder)
    jar = None
    if args.venue:
        if folder is None:  # a kept database: its folder
            folder = Path(database.removeprefix("sqlite:///")).parent
        # a first start: the data folder's secret key and static files, the organiser's login
        venue = Venue(roots[0], folder, folder.parent / "venue.log")
        try:
            jar = venue_login(venue.url)
        finally:
            venue.stop()
    static = os.environ["BENCH_STATIC_ROOT"]
    environment = {
        **os.environ,
        "DATABASE_URL": database,
        "DJANGO_SETTINGS_MODULE": "settings_bench",
        "BENCH_STATIC_ROOT": static,
        "ALLOWED_HOSTS": "testserver",
    }
    if args.database and not args.venue:  # a kept database: its pages' static files again
        setup = "import django; django.setup(); from django.core.management import call_command"
        subprocess.run(
            [
                sys.executable,
                "-c",
                f"{setup}; call_command('collectstatic', interactive=False, verbosity=0)",
            ],
            cwd=ROOT,
            env={**environment, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'bench'}"},
            check=True,
        )
    mode = (
        f"manage.py venue, clicked {args.click_after:g} s after /health/ answered"
        if args.venue
        else "django.setup() only, nothing warmed"
    )
    print(f"{args.players} players, round 2 ({args.players // 4} tables)")
    print(f"server: {mode}")
    for number, root in enumerate(roots, 1):
        print(f"code {number}: {root}")
    print(
        f"{'printout':<14} {'code':>4} {'first click':>12} {'(min-max)':>15} {'its CPU':>9}"
        f" {'(min-max)':>11} {'cached':>9} {'size':>9}"
    )
    for name, path in PRINTOUTS.items():
        if args.only and name not in args.only:
            continue
        url = f"/tournaments/{pk}/" + path.format(round=2)
        reports: dict[Path, list[dict]] = {root: [] for root in roots}
        for _ in range(args.runs):
            for root in roots:
                reports[root].append(
                    venue_run(root, folder, jar, url, args)
                    if args.venue
                    else child_run(root, url, args, environment, pk)
                )
        for number, root in enumerate(roots, 1):
            firsts = [report["times"][0] for report in reports[root]]
            first_cpu = [report["cpu"][0] for report in reports[root]]
            cached = [seconds for report in reports[root] for seconds in report["times"][1:]]
            size = reports[root][-1]["bytes"]
            print(
                f"{name:<14} {number:>4} {statistics.median(firsts) * 1000:9.0f} ms"
                f"  ({min(firsts) * 1000:5.0f}-{max(firsts) * 1000:5.0f})"
                f" {statistics.median(first_cpu) * 1000:6.0f} ms"
                f" ({min(first_cpu) * 1000:4.0f}-{max(first_cpu) * 1000:4.0f})"
                f" {statistics.median(cached) * 1000:6.1f} ms {size // 1024:5d} KiB"
            )
    print(f"median of {args.runs} fresh processes; load average (1 min): {os.getloadavg()[0]:.1f}")
    if args.keep:
        print(f"database kept: --database {database}")
    elif folder is not None and not args.database:
        shutil.rmtree(folder.parent, ignore_errors=True)
    elif not args.database:
        Path(database.removeprefix("sqlite:///")).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
