"""The app outside its checkout: the wheel built from a copy of the sources, installed into a
fresh virtual environment, serving ``cego-club venue`` on an empty data folder in German with
its static files; and the starter script setting up and starting a copy of the checkout.

Slow (pip installs every dependency into a new environment), hence the ``servers`` mark.
"""

import re
import runpy
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.cego_club.printed import created_organisers, printed_create_organiser, run_printed
from tests.servers import ROOT, Server, clean_env, free_port, http_get, wait_for_line
from venue.environment import shell_quote

pytestmark = [pytest.mark.servers, pytest.mark.xdist_group("packaging")]  # one build, one worker

# The apps the starter installs: the one list besides pyproject's (which
# tests/cego_club/test_package_layout.py holds against the installed apps).
PACKAGES = runpy.run_path(str(ROOT / "start_cego_club.py"))["PACKAGES"]
SOURCE_FILES = ["pyproject.toml", "setup.py", "MANIFEST.in", "start_cego_club.py"]


def copy_source(target: Path) -> Path:
    """What a download of the repository holds for installing (no compiled catalogues, no
    caches): the checkout as a user gets it."""
    target.mkdir(parents=True)
    for name in SOURCE_FILES:
        shutil.copy2(ROOT / name, target / name)
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            target / package,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "*.tmp"),
        )
    return target


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done


def bin_dir(venv: Path) -> Path:
    return venv / ("Scripts" if sys.platform == "win32" else "bin")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("wheel")
    source = copy_source(base / "source")
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist")]
        + [str(source)],
        timeout=600,
    )
    (built,) = (base / "dist").glob("cego_club-*.whl")
    return built


def checkout_packages() -> set[str]:
    """The project's top-level packages in the checkout (tests, benches and the Windows
    packaging are not part of the app)."""
    return {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in {"tests", "bench", "packaging"}
    }


def test_every_package_is_listed_for_the_wheel_and_the_starter():
    # A new app missing from one list: the wheel lacks it (the installed venue cannot start)
    # or the starter does not notice its files changed.
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = {
        name.rstrip("*") for name in project["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    assert checkout_packages() == found
    assert checkout_packages() == set(PACKAGES)


def test_the_wheel_carries_the_apps_and_their_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in PACKAGES:
        assert f"{package}/__init__.py" in names
    assert "cego_club/templates/base.html" in names
    assert any(name.startswith("printing/templates/print/") for name in names)
    for app in ("clubs", "tournaments", "seasons", "treasury", "publishing", "rules"):
        assert any(name.startswith(f"{app}/templates/{app}/") for name in names), app
    assert "cego_club/static/css/app.css" in names
    assert "cego_club/static/js/offline-deals.js" in names
    assert {"cego_club/static/img/favicon.svg", "cego_club/static/img/favicon.ico"} <= names
    assert "tournaments/migrations/0001_initial.py" in names
    assert "venue/migrations/0001_data_version.py" in names  # the record of the data's version
    # the version written once (cego_club.__version__), in the wheel's name and metadata
    from cego_club import __version__

    assert wheel.name == f"cego_club-{__version__}-py3-none-any.whl"
    metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
    assert f"\nVersion: {__version__}\n" in zipfile.ZipFile(wheel).read(metadata).decode()
    # every page and static file of every app (found by APP_DIRS and the static finders)
    for package in checkout_packages():
        for folder in ("templates", "static"):
            for path in (ROOT / package / folder).rglob("*"):
                if path.is_file() and "__pycache__" not in path.parts:
                    assert path.relative_to(ROOT).as_posix() in names
    assert "rules/builtin/swm.json" in names
    assert any(name.startswith("handbook/templates/handbook/") for name in names)
    assert any(name.startswith("handbook/static/handbook/screens/") for name in names)
    # compiled while building (the copy had none); the sources stay out, so an installed
    # package never tries to compile into its own folder
    assert "cego_club/locale/de/LC_MESSAGES/django.mo" in names
    assert not any(name.endswith(".po") for name in names)
    assert not any(name.startswith(("tests/", "bench/")) for name in names)
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "cego-club = cego_club.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_installed_wheel_serves_a_tournament_day_in_german(wheel, tmp_path):
    venv = tmp_path / "env"
    run([sys.executable, "-m", "venv", str(venv)], timeout=300)
    python = bin_dir(venv) / "python"
    run([str(python), "-m", "pip", "install", "-q", str(wheel)], timeout=900)
    hall = tmp_path / "hall"  # the organiser's folder, far from any checkout
    hall.mkdir()
    env = clean_env()  # the environment is not activated: PATH does not know cego-club
    where = run([str(python), "-c", "import cego_club; print(cego_club.__file__)"], cwd=hall)
    assert Path(where.stdout.strip()).is_relative_to(venv)

    log = tmp_path / "venue.log"
    with open(log, "w") as handle:
        process = subprocess.Popen(
            [
                str(bin_dir(venv) / "cego-club"),
                "venue",
                "--data",
                "leer",
                "--port",
                str(free_port()),
            ]
            + ["--bind", "127.0.0.1", "--no-qr"],
            cwd=hall,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
    server = Server(process, "", log)
    try:
        port = wait_for_line(log, r"localhost:(\d+)/", process, timeout=120)
        status, page = http_get(f"http://127.0.0.1:{port}/")
        assert status == 200
        assert '<html lang="de"' in page and "Turniere" in page
        css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', page)
        assert css, "the page links the collected, hashed stylesheet"
        status, stylesheet = http_get(f"http://127.0.0.1:{port}{css.group(1)}")
        assert status == 200 and "{" in stylesheet
        icon = re.search(r'rel="icon" href="(/static/img/favicon\.[0-9a-f]{12}\.svg)"', page)
        assert icon, "the page links the collected, hashed icon"
        status, svg = http_get(f"http://127.0.0.1:{port}{icon.group(1)}")
        assert status == 200 and "<svg" in svg
    finally:
        server.stop()
    output = server.output()
    assert f"Datenordner: {hall / 'leer'}" in output
    assert (hall / "leer" / "db.sqlite3").exists()
    assert "W001" not in output  # the catalogues came compiled

    # The create-organiser command it printed runs as printed, from another folder.
    command = printed_create_organiser(output)
    assert command == f"{python} -m cego_club venue --data {hall / 'leer'} --create-organiser"
    done = run_printed(command, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert created_organisers(hall / "leer") == [("anna",)]


def test_the_starter_sets_up_a_checkout_and_starts_the_venue(tmp_path):
    checkout = copy_source(tmp_path / "cego-club")
    starter = checkout / "start_cego_club.py"
    day = tmp_path / "Turnier Tag"  # a space, as in many Windows user folders
    env = clean_env()
    log = tmp_path / "start.log"
    with open(log, "w") as handle:
        process = subprocess.Popen(
            [sys.executable, str(starter), "--data", str(day), "--port", str(free_port())]
            + ["--bind", "127.0.0.1", "--no-qr"],
            cwd=checkout,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
    server = Server(process, "", log)
    try:
        port = wait_for_line(log, r"localhost:(\d+)/", process, timeout=900)
        status, page = http_get(f"http://127.0.0.1:{port}/")
        assert status == 200 and "Turniere" in page
    finally:
        server.stop()
    first = server.output()
    assert "Die Python-Umgebung wird angelegt" in first
    assert "Cego Club wird in die Umgebung installiert" in first
    assert (bin_dir(checkout / ".venv") / "cego-club").exists()
    assert not (checkout / "build").exists()

    # The command it printed goes through the starter again, which reuses the environment.
    command = printed_create_organiser(first)
    assert command.startswith(("python3 start_cego_club.py venue", f"{sys.executable} "))
    assert command.endswith(f"venue --data {shell_quote(str(day))} --create-organiser")
    again = run_printed(command, cwd=checkout, env=env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "installiert" not in again.stdout  # nothing changed: no second installation
    assert created_organisers(day) == [("anna",)]
