"""Make the data of a released version, with that version's own code, for the upgrade test
(``tests/upgrades/test_upgrade.py``): a venue data folder and a season server's database,
each from the release's demo and a played tournament, the laptop having published it.

    python3 tests/upgrades/make_release_fixture.py --commit 5dfb392 --version 0.1.0

writes ``tests/upgrades/releases/<version>/``:

- ``venue.sqlite3.gz``: the laptop's database (its data folder's ``db.sqlite3``): the
  release's ``load_demo`` (a season of five tournaments, four finished) and a finished
  tournament of 16 players and 2 rounds (``load_demo --players 16 --rounds 2``), sent to the
  season server with the release's ``publish`` (the laptop's publication and what the server
  acknowledged);
- ``server.sql.gz``: the season server's PostgreSQL database as ``pg_dump`` writes it (plain
  SQL, no owner, no privileges): the release's ``load_demo`` and the laptop's tournament
  received through the release's publishing API (its archive items and digests);
- ``fixture.json``: the release, the commit, the command that made it, the row count of every
  table on both sides.

Everything runs with the release's code: ``git archive COMMIT`` unpacked into a scratch
folder, run by a Python in whose environment the release's dependencies are installed: by
default a new virtual environment (``pip install`` of the release, some minutes), or
``--python PYTHON`` where the pins are the same (``git diff COMMIT -- pyproject.toml``). The
ratings and season results are worked out as the release works them out (inline here, where
the release would in a background thread, so that none is cut off when the process ends).

Needs git, a PostgreSQL server (``--postgres``, default ``postgres://postgres@127.0.0.1:5432``;
a scratch database is made and dropped) and ``pg_dump``. Standard library only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RELEASES = HERE / "releases"

# Run inside the release's code (its folder first on sys.path): the demo, the played
# tournament, the publication. Only what every release has: Django's call_command and the
# commands by name.
DRIVER = r"""
import json, os, sys
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
import django
django.setup()
from django.conf import settings
from django.core.management import call_command

# The release works these out in a thread after each commit; here at once, so that nothing
# is cut off when the process ends.
settings.RATINGS_AHEAD = "inline"
settings.SEASON_RESULTS_AHEAD = "inline"

step = sys.argv[1]
if step == "demo":
    call_command("migrate", interactive=False, verbosity=0)
    call_command("load_demo")
    if len(sys.argv) > 2:
        call_command("load_demo", players=int(sys.argv[2]), rounds=int(sys.argv[3]))
    from tournaments.models import Tournament
    played = Tournament.objects.filter(name__startswith="Demoturnier:").first()
    print(json.dumps({"played": played.pk if played else None}))
elif step == "serve":
    from wsgiref.simple_server import WSGIRequestHandler, make_server
    from django.core.wsgi import get_wsgi_application

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = make_server("127.0.0.1", int(sys.argv[2]), get_wsgi_application(), handler_class=Quiet)
    print("serving", flush=True)
    server.serve_forever()
else:
    call_command(*sys.argv[1:])
"""


def say(message: str) -> None:
    print(f"make_release_fixture: {message}", flush=True)


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=True, text=True, **kwargs)


def release_code(commit: str, target: Path) -> Path:
    source = target / "source"
    source.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    return source


def release_python(source: Path, target: Path, given: str | None) -> str:
    if given:
        return given
    env = target / "env"
    say(f"a virtual environment with the release's dependencies ({env})")
    run([sys.executable, "-m", "venv", str(env)])
    python = str(env / "bin" / "python")
    run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(source)])
    return python


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def row_counts_sqlite(path: Path) -> dict[str, int]:
    connection = sqlite3.connect(path)
    try:
        names = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        return {
            name: connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            for name in names
        }
    finally:
        connection.close()


def row_counts_postgres(url: str) -> dict[str, int]:
    names = run(
        [
            "psql",
            url,
            "-Atq",
            "-c",
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
        ],  # fmt: skip
        capture_output=True,
    ).stdout.split()
    counts = {}
    for name in names:
        counts[name] = int(
            run(["psql", url, "-Atq", "-c", f'SELECT count(*) FROM "{name}"'], capture_output=True)
            .stdout.strip()
        )  # fmt: skip
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", required=True, help="the release's commit (or tag)")
    parser.add_argument("--version", required=True, help="the release's version, e.g. 0.1.0")
    parser.add_argument("--python", help="a Python with the release's dependencies installed")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args(argv)
    commit = run(
        ["git", "-C", str(ROOT), "rev-parse", options.commit + "^{commit}"], capture_output=True
    ).stdout.strip()
    out = RELEASES / options.version
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cego-release-fixture-") as scratch_name:
        scratch = Path(scratch_name)
        source = release_code(commit, scratch)
        python = release_python(source, scratch, options.python)
        (scratch / "driver.py").write_text(DRIVER, encoding="utf-8")
        base = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "SQLITE_PATH", "SECRET_KEY", "PYTHONPATH"}
        }

        def driver(env: dict[str, str], *args: str, **kwargs) -> subprocess.CompletedProcess:
            return run(
                [python, str(scratch / "driver.py"), *args],
                cwd=source,
                env={**base, **env},
                capture_output=True,
                **kwargs,
            )

        # The laptop: a venue data folder as the release's `venue` keeps it (WAL, its key).
        data = scratch / "venue-data"
        data.mkdir()
        venue_env = {
            "DEBUG": "1",  # load_demo runs in debug mode only
            "SECRET_KEY_FILE": str(data / "secret_key"),
            "SQLITE_PATH": str(data / "db.sqlite3"),
            "SQLITE_WAL": "1",
            "CONN_MAX_AGE": "600",
        }
        say("the laptop: migrate, load_demo, a played tournament")
        made = driver(venue_env, "demo", str(options.players), str(options.rounds))
        played = json.loads(made.stdout.strip().splitlines()[-1])["played"]

        # The season server: PostgreSQL, the demo, a publishing token of the host club.
        database = f"cego_release_fixture_{os.getpid()}"
        admin = f"{options.postgres}/postgres"
        url = f"{options.postgres}/{database}"
        run(["psql", admin, "-q", "-c", f"CREATE DATABASE {database}"])
        try:
            server_env = {"DEBUG": "1", "DATABASE_URL": url, "SECRET_KEY": "fixture-" * 8}
            say("the season server: migrate, load_demo, a publishing token")
            driver(server_env, "demo")
            issued = driver(server_env, "publish_token", "--club", "CF Bräunlingen")
            token = issued.stdout.strip().splitlines()[-1].strip()
            port = free_port()
            server = subprocess.Popen(
                [python, str(scratch / "driver.py"), "serve", str(port)],
                cwd=source,
                env={**base, **server_env},
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            try:
                for _ in range(120):
                    try:
                        urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=2)
                        break
                    except OSError:
                        if server.poll() is not None:
                            raise SystemExit(server.stdout.read()) from None
                        time.sleep(0.5)
                say(f"the laptop publishes tournament {played}")
                sent = driver(
                    {**venue_env, "CEGO_PUBLISH_TOKEN": token},
                    "publish", "--to", f"http://127.0.0.1:{port}", "--tournament", str(played),
                )  # fmt: skip
                say(sent.stdout.strip())
            finally:
                server.terminate()
                server.wait(timeout=30)
            dump = run(
                ["pg_dump", "--no-owner", "--no-privileges", "--format=plain", url],
                capture_output=True,
            ).stdout
            server_counts = row_counts_postgres(url)
        finally:
            run(["psql", admin, "-q", "-c", f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"])

        # One self-contained file (no -wal beside it), as a backup is.
        copy = scratch / "venue.sqlite3"
        source_db = sqlite3.connect(data / "db.sqlite3")
        target_db = sqlite3.connect(copy)
        with target_db:
            source_db.backup(target_db)
        target_db.execute("PRAGMA journal_mode=DELETE")
        target_db.close()
        source_db.close()
        venue_counts = row_counts_sqlite(copy)
        # Compressed without a time stamp: the same data, the same bytes.
        (out / "venue.sqlite3.gz").write_bytes(gzip.compress(copy.read_bytes(), 9, mtime=0))
        (out / "server.sql.gz").write_bytes(gzip.compress(dump.encode(), 9, mtime=0))
    manifest = {
        "version": options.version,
        "commit": commit,
        "made_by": "python3 tests/upgrades/make_release_fixture.py "
        f"--commit {commit[:12]} --version {options.version}",
        "played_tournament": played,
        "venue_rows": venue_counts,
        "server_rows": server_counts,
    }
    (out / "fixture.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    say(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
