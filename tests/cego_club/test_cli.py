"""``cego-club`` (``cego_club/cli.py``, here as ``python -m cego_club`` from a folder outside
the checkout): its help, the data folder every command works on, clear refusals, and the
commands the app prints working as printed."""

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cego_club.printed import created_organisers, printed_create_organiser, run_printed
from tests.servers import ROOT, clean_env
from venue import environment
from venue.environment import command_line, shell_quote, typed_path


def cego_club(*args: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess:
    env = clean_env(PYTHONPATH=str(ROOT), **extra)
    return subprocess.run(
        [sys.executable, "-m", "cego_club", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_help_lists_the_organisers_commands_in_german(tmp_path):
    done = cego_club("--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Aufruf: cego-club BEFEHL [Optionen]")
    # every command the README tells people to type
    named = set(re.findall(r"cego-club ([a-z][a-z_]+)", (ROOT / "README.md").read_text()))
    assert {"venue", "backup", "restore", "publish", "publish_token", "fetch_registry"} <= named
    for command in named:
        assert f"\n  {command} " in done.stdout
    assert "Schlüssel zum Veröffentlichen" in done.stdout  # publish_token, in German
    assert "Mitgliederliste eines Vereins einlesen" in done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) <= 79  # a Windows console
    assert list(tmp_path.iterdir()) == []  # help makes no data folder


def test_no_command_is_a_usage_error(tmp_path):
    done = cego_club(cwd=tmp_path)
    assert done.returncode == 2
    assert "Aufruf: cego-club" in done.stderr


def test_a_command_on_a_folder_without_a_database_is_refused_and_creates_nothing(tmp_path):
    done = cego_club("import-players", "liste.csv", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"Im Ordner {tmp_path / 'venue-data'} liegt keine Turnier-Datenbank" in done.stderr
    # the command it names is one that runs here
    assert f"{sys.executable} -m cego_club venue --data venue-data" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_command_is_named(tmp_path):
    done = cego_club("venu", cwd=tmp_path)
    assert done.returncode == 1
    assert "Unknown command: 'venu'" in done.stderr and "Traceback" not in done.stderr


def test_every_command_works_on_the_data_folder(tmp_path):
    data = tmp_path / "tag"
    data.mkdir()
    sqlite3.connect(data / "db.sqlite3").close()
    migrated = cego_club("migrate", "--data", str(data), "-v", "0", cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stderr
    (tmp_path / "liste.csv").write_text("Nachname;Vorname\nMüller;Anna\n", encoding="utf-8")
    preview = cego_club("import-players", "liste.csv", f"--data={data}", cwd=tmp_path)
    assert preview.returncode == 0, preview.stderr
    assert "Müller" in preview.stdout and "nothing written" in preview.stdout
    committed = cego_club(
        "import_players", "liste.csv", "--data", str(data), "--commit", cwd=tmp_path
    )
    assert committed.returncode == 0, committed.stderr
    with sqlite3.connect(data / "db.sqlite3") as db:
        assert db.execute("SELECT last_name FROM tournaments_player").fetchall() == [("Müller",)]
    assert (data / "secret_key").exists()
    assert not (tmp_path / "venue-data").exists()  # --data was used, not the default


def test_a_backup_of_a_folder_without_a_database_is_refused(tmp_path):
    done = cego_club("backup", "--output", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 2 and "keine Turnier-Datenbank" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_server_database_named_by_the_environment_is_left_alone(tmp_path):
    """A club server (DATABASE_URL, SECRET_KEY) uses cego-club like manage.py."""
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    done = cego_club("migrate", "-v", "0", cwd=tmp_path, DATABASE_URL=url, SECRET_KEY="k" * 50)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "server.sqlite3").exists() and not (tmp_path / "venue-data").exists()


def test_the_printed_command_is_the_one_this_process_was_started_with(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(environment.COMMAND_VARIABLE, raising=False)
    python = shell_quote(sys.executable)
    # a checkout: this environment's Python (not a bare `python`) and manage.py's full path
    manage = tmp_path / "Cego Club" / "manage.py"
    monkeypatch.setattr(environment, "CHECKOUT_MANAGE_PY", manage)
    manage.parent.mkdir()
    manage.touch()
    assert command_line("venue", "--create-organiser") == (
        f"{python} {shell_quote(str(manage))} venue --create-organiser"
    )
    # an installed package has no manage.py: its own entry point
    manage.unlink()
    assert command_line("venue") == f"{python} -m cego_club venue"
    # started as cego-club (or by the starter): that, with the arguments quoted
    monkeypatch.setenv(environment.COMMAND_VARIABLE, "cego-club")
    assert command_line("venue", "--data", "Turnier 2026") == (
        f"cego-club venue --data {shell_quote('Turnier 2026')}"  # 'Turnier 2026', on Windows "…"
    )
    assert typed_path(tmp_path / "venue-data") == "venue-data"
    assert typed_path("/elsewhere/x") == str(Path("/elsewhere/x").absolute())
    # a program by its full path: the command works from any folder
    program = tmp_path / ".venv" / "bin" / "python"
    assert typed_path(program, program=True) == str(program)


@pytest.mark.parametrize(
    ("argv0", "on_path", "expected"),
    [
        ("/home/anna/.local/bin/cego-club", "/home/anna/.local/bin/cego-club", "cego-club"),
        # an environment that is not activated: PATH does not find the command
        ("/srv/env/bin/cego-club", None, "{python} -m cego_club"),
        ("/x/cego_club/__main__.py", "/usr/bin/cego-club", "{python} -m cego_club"),
    ],
)
def test_cego_club_names_itself_as_the_terminal_finds_it(monkeypatch, argv0, on_path, expected):
    from cego_club import cli

    monkeypatch.setattr(sys, "argv", [argv0])
    monkeypatch.setattr(cli.shutil, "which", lambda name: on_path)
    python = shell_quote(typed_path(sys.executable, program=True))
    assert cli.invocation() == expected.format(python=python)


@pytest.mark.servers
def test_the_venue_prints_a_create_organiser_command_that_runs(tmp_path):
    """What the venue server prints is run as printed, from another folder (here: the
    environment's Python with manage.py; ``test_packaging`` does the same for an installed
    ``cego-club`` and for the starter)."""
    from tests.servers import start_venue, wait_for_line

    data = tmp_path / "day"
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    server = start_venue(data, log=tmp_path / "venue.log", env=env)
    try:
        # printed after the address (start_venue waits for that one), before the first answer
        wait_for_line(server.log, r"(--create-organiser)", server.process, timeout=60)
        printed = server.output()
    finally:
        server.stop()
    command = printed_create_organiser(printed)
    assert command == (
        f"{shell_quote(sys.executable)} {shell_quote(str(ROOT / 'manage.py'))} venue --data "
        f"{shell_quote(str(data))} --create-organiser"
    )
    done = run_printed(command, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No module named" not in done.stderr
    assert created_organisers(data) == [("anna",)]


def test_start_up_goes_on_where_the_catalogues_cannot_be_written(tmp_path, monkeypatch):
    """A read-only installed folder: the compile at start-up reports, it does not fail."""
    from cego_club import catalogues

    locale = tmp_path / "locale"
    po = locale / "de" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Close round"\nmsgstr "Runde abschließen"\n')

    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(catalogues.tempfile, "mkstemp", read_only)
    assert catalogues.ensure_compiled([locale]) == [po]
    assert not po.with_suffix(".mo").exists()


def test_deals_are_scored_without_a_data_folder(tmp_path):
    """Built-in rules need no database: nothing is created, here or beside the code."""
    record = (
        '{"rules": "swm", "seats": 4, "contract": "eine", "declarer": 2, "declarer_points": 41}'
    )
    env = clean_env(PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "cego_club", "score-deals"],
        input=record + "\n",
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert '"scores"' in done.stdout and '"error"' not in done.stdout
    assert list(tmp_path.iterdir()) == []
