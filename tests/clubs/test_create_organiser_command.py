"""``manage.py create_organiser`` (``venue --create-organiser``) and ``manage.py setup_code``:
the same service as the first-time setup page, in German, with flags for scripts."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.models import Club, ClubRole, FirstRun
from clubs.services import setup
from tests.servers import clean_env

PASSWORD = "Kartenspiel-2026"
NEW_CLUB = {"club_name": "Cegofreunde Bräunlingen", "club_short": "CFB", "club_town": "Bräunlingen"}


def run(**options) -> str:
    out = io.StringIO()
    call_command("create_organiser", interactive=False, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


@pytest.fixture
def password(monkeypatch):
    monkeypatch.setenv("CEGO_ORGANISER_PASSWORD", PASSWORD)


@pytest.mark.django_db
def test_flags_create_the_first_organiser_and_the_club(password, django_user_model):
    out = run(username="anna", **NEW_CLUB)
    assert "Konto anna angelegt: Organisator von Cegofreunde Bräunlingen" in out
    user = django_user_model.objects.get()
    assert user.is_superuser and user.check_password(PASSWORD)
    assert ClubRole.objects.get().club == Club.objects.get(short_name="CFB")
    assert FirstRun.objects.get().via == "command"


@pytest.mark.django_db
def test_a_second_organiser_for_an_existing_club(password, django_user_model, monkeypatch):
    run(username="anna", **NEW_CLUB)
    monkeypatch.delenv("CEGO_ORGANISER_PASSWORD")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Zweites-Passwort-7\n"))
    run(username="berta", club="cfb", password_stdin=True)
    berta = django_user_model.objects.get(username="berta")
    assert not berta.is_superuser and berta.check_password("Zweites-Passwort-7")
    assert ClubRole.objects.get(user=berta).club.short_name == "CFB"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"username": "anna"}, "Es fehlt: Name des Vereins, Kurzname, Ort"),
        ({**NEW_CLUB}, "Es fehlt: Benutzername"),
        ({"username": "anna", "club": "XYZ"}, "keinen Verein mit dem Kurznamen XYZ"),
        ({"username": "anna", "club": "CFB", **NEW_CLUB}, "nicht beides"),
        ({"username": "a b", **NEW_CLUB}, "Benutzername: Nur Buchstaben"),
    ],
)
def test_bad_flags_are_errors_and_create_nothing(password, django_user_model, options, message):
    with pytest.raises(CommandError) as raised:
        run(**options)
    assert message in str(raised.value)
    assert not django_user_model.objects.exists() and not Club.objects.exists()


@pytest.mark.django_db
def test_a_weak_or_missing_password_is_refused(monkeypatch, django_user_model):
    with pytest.raises(CommandError) as raised:
        run(username="anna", **NEW_CLUB)
    assert "Passwort" in str(raised.value)
    monkeypatch.setenv("CEGO_ORGANISER_PASSWORD", "12345")
    with pytest.raises(CommandError) as raised:
        run(username="anna", **NEW_CLUB)
    assert "Nichts angelegt" in str(raised.value) and "Passwort:" in str(raised.value)
    assert not django_user_model.objects.exists() and not Club.objects.exists()


@pytest.mark.django_db
def test_setup_code_prints_the_address_and_the_code_that_works():
    out = io.StringIO()
    call_command(
        "setup_code",
        renew=True,
        local_url="http://localhost:8000",
        url=["http://192.168.1.20:8000"],
        venue_data="/daten",
        stdout=out,
    )
    text = out.getvalue()
    code = FirstRun.objects.get().code
    assert "http://localhost:8000/setup/" in text
    assert f"http://192.168.1.20:8000/setup/  mit dem Code  {setup.format_code(code=code)}" in text
    # A command line that works as printed: this Python, this manage.py.
    assert sys.executable in text and str(Path(settings.BASE_DIR) / "manage.py") in text
    assert "venue --data /daten --create-organiser" in text
    setup.check_setup_code(code=setup.format_code(code=code))


@pytest.mark.django_db
def test_setup_code_is_silent_once_an_account_exists(django_user_model):
    django_user_model.objects.create_user("anna", password=PASSWORD)
    out = io.StringIO()
    call_command("setup_code", renew=True, if_open=True, stdout=out)
    assert out.getvalue() == ""


def test_venue_create_organiser_end_to_end(tmp_path):
    """The venue command as the organiser types it: its own data folder, exit codes."""
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    data = tmp_path / "venue-data"
    base = [sys.executable, manage, "venue", "--data", str(data), "--create-organiser"]
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    bad = subprocess.run(
        [*base, "--no-input", "--username", "anna"],
        env={**env, "CEGO_ORGANISER_PASSWORD": PASSWORD},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0 and "Es fehlt" in bad.stderr
    good = subprocess.run(
        [*base, "--no-input", "--username", "anna"]
        + ["--club-name", "Cegofreunde Bräunlingen", "--club-short", "CFB"]
        + ["--club-town", "Bräunlingen", "--password-stdin"],
        env=env,
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert good.returncode == 0, good.stderr
    with sqlite3.connect(data / "db.sqlite3") as db:
        users = db.execute("SELECT username, is_superuser FROM auth_user").fetchall()
        roles = db.execute(
            "SELECT c.short_name, r.role FROM clubs_clubrole r "
            "JOIN tournaments_club c ON c.id = r.club_id"
        ).fetchall()
    assert users == [("anna", 1)] and roles == [("CFB", "organiser")]


@pytest.mark.django_db
def test_interactive_asks_in_german_and_asks_again_what_was_wrong(monkeypatch, django_user_model):
    Club.objects.create(name="Cegoclub Furtwangen", short_name="CCF", town="Furtwangen")
    django_user_model.objects.create_user("anna", password=PASSWORD)
    prompts: list[str] = []
    # "anna" is taken: asked again; the club: a new one (0), whose short name is taken first.
    answers = iter(["anna", "0", "Cegofreunde Bräunlingen", "CCF", "Bräunlingen", "berta", "CFB"])
    passwords = iter([PASSWORD, "vertippt-2026", PASSWORD, PASSWORD])

    def ask(prompt=""):
        prompts.append(prompt)
        return next(answers)

    def ask_secret(prompt=""):
        prompts.append(prompt)
        return next(passwords)

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", ask)
    monkeypatch.setattr("getpass.getpass", ask_secret)
    out, err = io.StringIO(), io.StringIO()
    call_command("create_organiser", stdout=out, stderr=err)
    assert prompts[:3] == ["Benutzername: ", "Passwort: ", "Passwort (noch einmal): "]
    assert "Nummer: " in prompts and "Kurzname (auf Listen und Ausdrucken): " in prompts
    assert "Welchen Verein führt das Konto?" in out.getvalue()
    assert "Die beiden Passwörter sind verschieden" in err.getvalue()
    assert "schon vergeben" in err.getvalue() and "Kürzel" in err.getvalue()
    berta = django_user_model.objects.get(username="berta")
    assert ClubRole.objects.get(user=berta).club.short_name == "CFB"
