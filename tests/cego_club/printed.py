"""Commands the app prints, run as a user pastes them (``test_cli``, ``test_packaging``)."""

import os
import shlex
import sqlite3
import subprocess
from pathlib import Path

ORGANISER = ["--no-input", "--username", "anna", "--club-name", "Cegofreunde Bräunlingen"]
ORGANISER += ["--club-short", "CFB", "--club-town", "Bräunlingen", "--password-stdin"]
PASSWORD = "Kreuz-Bube-2026"


def run_printed(command: str, *, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    """``command`` as a user pastes it, answered without a terminal (the organiser's data as
    options, the password on standard input)."""
    # Windows: the line as typed is what the program parses (a terminal hands it on as it is).
    if os.name == "nt":
        pasted = f"{command} {subprocess.list2cmdline(ORGANISER)}"
    else:
        pasted = shlex.split(command) + ORGANISER
    return subprocess.run(
        pasted,
        cwd=cwd,
        env=env,
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )


def created_organisers(data: Path) -> list:
    with sqlite3.connect(data / "db.sqlite3") as db:
        return db.execute("SELECT username FROM auth_user").fetchall()


def printed_create_organiser(output: str) -> str:
    return next(line for line in output.splitlines() if "--create-organiser" in line).strip()
