"""Real server processes for tests and benchmarks, and phones that talk to them over HTTP.

A phone here is what a player's browser does: open the table's page (session and CSRF
cookies), say which seat it is, and post the deal form with the CSRF token and a fresh
submission key, following the redirect back to the page.
"""

from __future__ import annotations

import atexit
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EINE = {"contract": "eine", "declarer": "2", "declarer_points": "41"}


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a fresh shell plus ``extra``: none of the test run's settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "SECRET_KEY",
            "SECRET_KEY_FILE",
            "ALLOWED_HOSTS",
            "DATABASE_URL",
            "REDIS_URL",
            "PUBLIC_BASE_URL",
            "VENUE_BACKUP_DIR",
            "STATIC_ROOT",
            "HTTPS",
            "SQLITE_WAL",
            "SQLITE_PATH",
            "VENUE_MODE",
            "CONN_MAX_AGE",
            "CEGO_PUBLISH_TOKEN",
            "DJANGO_SETTINGS_MODULE",
            "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by the browser tests for their own process
        }
    }
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def manage(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def free_port() -> int:
    """A port nothing listens on now (the venue refuses --port 0: its address must last)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_line(log: Path, pattern: str, process: subprocess.Popen, timeout: float = 90) -> str:
    """The first match of ``pattern`` in the log a starting server writes."""
    deadline = time.monotonic() + timeout
    regex = re.compile(pattern)
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if match := regex.search(text):
            return match.group(1)
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped:\n{text}")
        time.sleep(0.1)
    raise RuntimeError(f"the server did not start in time:\n{log.read_text(errors='replace')}")


@dataclass
class Server:
    process: subprocess.Popen
    url: str
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_venue(
    data: Path,
    *,
    bind: str = "127.0.0.1",
    port: int = 0,
    threads: int | None = None,
    log: Path,
    env: dict[str, str],
    prefix: tuple[str, ...] = (),
    extra: tuple[str, ...] = (),
    start_timeout: float = 90,
) -> Server:
    """``manage.py venue`` as an organiser starts it (``--data DIR --port N --bind ADDRESS
    --no-qr``, nothing tuned; ``threads`` only if given; ``extra`` arguments added), on a free
    port unless ``port`` (0: a free one); its URL is the address it prints for phones (or the local one where
    it listens on 127.0.0.1 only). ``prefix`` runs it through another command (``ip netns
    exec HOST``: on another host of a test network)."""
    handle = open(log, "w")  # noqa: SIM115 - the server writes to it until stopped
    port = port or free_port()
    tuned = ["--threads", str(threads)] if threads is not None else []
    process = subprocess.Popen(
        [*prefix, sys.executable, str(ROOT / "manage.py"), "venue", "--data", str(data)]
        + ["--port", str(port), "--bind", bind, "--no-qr", *tuned, *extra],
        cwd=ROOT,
        env=env,
        stdout=handle,
        stderr=subprocess.STDOUT,
    )
    try:
        port = wait_for_line(log, r"localhost:(\d+)/", process, timeout=start_timeout)
        url = f"http://127.0.0.1:{port}"
        if bind != "127.0.0.1":
            url = wait_for_line(log, r"^\s+(http://\S+?)/?$".replace("^", "(?m)^"), process)
    except RuntimeError:
        process.kill()  # a server that did not start is not left running
        raise
    return Server(process, url.rstrip("/"), log)


def start_gunicorn(*, log: Path, env: dict[str, str], threads: int = 4, port: int = 0) -> Server:
    """gunicorn on ``port`` (0: a free one; a fixed one to start a stopped server again)."""
    handle = open(log, "w")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
        + ["--threads", str(threads), "--timeout", "120", "cego_club.wsgi:application"],
        cwd=ROOT,
        env=env,
        stdout=handle,
        stderr=subprocess.STDOUT,
    )
    url = wait_for_line(log, r"Listening at: (http://127\.0\.0\.1:\d+)", process)
    return Server(process, url, log)


def http_get(url: str, timeout: float = 30) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


@dataclass
class Phone:
    """One player's phone at one table (its own cookies)."""

    token: str
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def _csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def request(self, url: str, data: dict[str, str] | None = None) -> tuple[int, str, str]:
        """(status, where it redirects to or "", page); a redirect is followed like a browser."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body)
        try:
            with self.opener.open(request, timeout=120) as response:
                return response.status, "", response.read().decode()
        except urllib.error.HTTPError as error:
            with error:  # closes the connection: a server thread may wait for it
                body = error.read().decode(errors="replace")
            if error.code in (301, 302, 303):
                location = urllib.parse.urljoin(url, error.headers["Location"])
                status, _, page = self.request(location)
                return error.code, location, page if status == 200 else f"{status}: {page}"
            return error.code, "", body

    def sit_down(self, base: str, position: int = 0) -> None:
        status, _, _ = self.request(f"{base}/t/{self.token}/")
        assert status == 200, status
        status, _, page = self.request(
            f"{base}/t/{self.token}/seat/",
            {"csrfmiddlewaretoken": self._csrf(), "position": str(position)},
        )
        assert status == 302 and 'id="deal-form"' in page, (status, page[:500])

    def enter_deal(self, base: str, number: int, *, key: str | None = None) -> tuple[int, str, str]:
        """Post deal ``number``: (status, redirect target, page shown afterwards)."""
        fields = {
            "csrfmiddlewaretoken": self._csrf(),
            "number": str(number),
            "submission_key": key or str(uuid.uuid4()),
            **EINE,
        }
        return self.request(f"{base}/t/{self.token}/", fields)


def stored(status: int, location: str, token: str) -> bool:
    """The deal form answered with its redirect back to the table's page (stored, or stored
    before under the same key); a refused form answers 200 itself, without a redirect."""
    return status == 302 and urllib.parse.urlsplit(location).path == f"/t/{token}/"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # Phone.request sees the redirect itself


_MIGRATED: dict[str, Path] = {}


def migrated_venue_database(env: dict[str, str]) -> Path:
    """An empty venue database, migrated once for this test process (in a folder of its own)
    and copied for each venue a test seeds: migrating a fresh folder cost the seeds some 10 s
    of CPU each (most of a minute on a busy machine); the copy's ``migrate`` finds nothing to
    do, as a venue restarted on its folder does. The migrations themselves are tested on
    fresh folders elsewhere (tests/venue/test_versions.py, tests/upgrades, a venue's first
    start in tests/cego_club)."""
    if "db" not in _MIGRATED:
        folder = Path(tempfile.mkdtemp(prefix="cego-migrated-venue-"))
        atexit.register(shutil.rmtree, folder, True)
        json_from(
            [sys.executable, "-m", "tests.venue_seed", "--migrate-only", str(folder)], env=env
        )
        assert not (folder / "db.sqlite3-wal").exists()  # checkpointed: the file is whole
        _MIGRATED["db"] = folder / "db.sqlite3"
    return _MIGRATED["db"]


def seed_venue(data: Path, *, tables: int, deals: int, env: dict[str, str]) -> dict:
    """A tournament with ``tables`` seated tables (and a staff user ``orga``) in the venue
    database in ``data`` (a copy of the migrated empty one where ``data`` holds none yet):
    {"tournament": pk, "tables": [{"token", "short_code"}, ...]}."""
    if not (data / "db.sqlite3").exists():
        data.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(migrated_venue_database(env), data / "db.sqlite3")
    return json_from(
        [sys.executable, "-m", "tests.venue_seed", str(data), str(tables), str(deals)], env=env
    )


def json_from(command: list[str], *, env: dict[str, str], timeout: float = 300) -> dict:
    """Run ``command`` (from the project folder) and read the JSON of its last line."""
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
