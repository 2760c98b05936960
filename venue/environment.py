"""Venue mode: the organiser's laptop serves the hall's network (`manage.py venue`).

``prepare_environment`` runs in ``manage.py`` before Django reads its settings, so that the
whole process (and the server it starts) is configured for the day: DEBUG off, plain HTTP on
the local network, the secret key and the SQLite database in the data folder, allowed hosts
fitting the laptop's addresses, backups into the folder the organiser chose.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import shlex
import socket
import subprocess
import sys
from pathlib import Path

DEFAULT_PORT = 8000
# How the organiser starts the app, so that every command it prints works as printed: set by
# `cego-club` (cego_club/cli.py) and by the starter script; unset under manage.py.
COMMAND_VARIABLE = "CEGO_CLUB_COMMAND"
# A checkout's manage.py, beside the packages (an installed wheel has none).
CHECKOUT_MANAGE_PY = Path(__file__).resolve().parent.parent / "manage.py"
DEFAULT_DATA_DIR = "venue-data"
# Commands that take --data DIR and then work on that folder's database.
VENUE_COMMANDS = {
    "venue",
    "backup",
    "restore",
    "publish_token",
    "publish",
    "fetch_registry",
    "fetch_tournament",
}


def valid_port(text: object) -> int | None:
    """``text`` as a port a server can be reached on (1–65535), or None."""
    try:
        port = int(str(text).strip())
    except ValueError:
        return None
    return port if 1 <= port <= 65535 else None


def port_number(text: str) -> int:
    """``--port``: a port from 1 to 65535 (0 would be a different one at every start, so the
    printed score sheets' addresses would not last the day)."""
    port = valid_port(text)
    if port is None:
        from django.utils.translation import gettext as _

        raise argparse.ArgumentTypeError(
            _('"%(port)s" is not a port: give a number from 1 to 65535, e.g. --port 8000.')
            % {"port": text}
        )
    return port


def venue_arguments(parser: argparse.ArgumentParser, *, checked: bool = True) -> None:
    """The options ``manage.py venue`` shares with the environment set-up below (which reads
    them ``checked=False``: the command itself refuses a wrong one)."""
    parser.add_argument(
        "--data",
        default=None,
        help=f"folder for the database, secret key and static files (default: {DEFAULT_DATA_DIR})",
    )
    parser.add_argument(
        "--port",
        type=port_number if checked else str,
        default=DEFAULT_PORT,
        help="port, 1 to 65535 (default 8000)",
    )
    parser.add_argument(
        "--bind",
        default="0.0.0.0",
        help="address to listen on (default 0.0.0.0: every network of the laptop)",
    )
    parser.add_argument(
        "--backup-dir",
        default=None,
        help="folder for the backups written when a round is closed (default: DATA/backups)",
    )


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """The laptop's address on the network of its default route, or None without one.

    Connecting a UDP socket sends nothing; it only makes the system choose the interface (and
    so the source address) it would use to reach the outside world.
    """
    # First the default route (a documentation address, reached through it); without one,
    # a private network the laptop is on (a hall's Wi-Fi router without internet).
    for target in ("198.51.100.1", "192.168.255.254", "10.255.255.254", "172.31.255.254"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                address = probe.getsockname()[0]
        except OSError:
            continue
        if address and not is_loopback(address) and address != "0.0.0.0":
            return address
    return None


def host_names(lan: str | None) -> list[str]:
    """Every name and address the laptop answers to (the ALLOWED_HOSTS of the day)."""
    names = {"localhost", "127.0.0.1", "[::1]"}
    hostname = socket.gethostname()
    if hostname:
        names.update({hostname, hostname.lower(), f"{hostname.lower()}.local"})
        try:
            for info in socket.getaddrinfo(hostname, None):
                address = info[4][0]
                names.add(f"[{address}]" if ":" in address else address)
        except OSError:
            pass
    if lan:
        names.add(lan)
    return sorted(names)


def data_dir(value: str | None) -> Path:
    return Path(value or DEFAULT_DATA_DIR).expanduser().resolve()


# The day's SQLite database: readers never wait for the writer (WAL), and each server thread
# keeps its connection, so a spectator's cached page costs one small query instead of opening
# the database file on every request. The spectator benchmark serves with the same.
VENUE_DATABASE_ENVIRONMENT = {"SQLITE_WAL": "1", "CONN_MAX_AGE": "600"}


def prepare_environment(argv: list[str]) -> None:
    """Configure the process for a venue command, before the settings are read.

    Asked for help, or given arguments the command will refuse, it sets up nothing and
    writes nothing (the command then shows its help or says what is wrong); a restore does
    not make the data folder (it makes it once the backup has proved sound)."""
    if len(argv) < 2 or argv[1] not in VENUE_COMMANDS:
        return
    command = argv[1]
    parser = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    venue_arguments(parser, checked=False)
    try:
        options, _rest = parser.parse_known_args(argv[2:])
        refused = valid_port(options.port) is None
    except argparse.ArgumentError:
        refused = True
    if refused or {"-h", "--help"} & set(argv[2:]):
        use_nothing()
        return
    if command != "venue" and options.data is None:
        return  # backup/restore without --data: the database DATABASE_URL names
    use_data_folder(
        data_dir(options.data),
        backup_dir=options.backup_dir,
        port=valid_port(options.port) or 0,
        create=command != "restore",
    )


def use_nothing() -> None:
    """A process that only shows help or an error: a key kept nowhere, a database in memory."""
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["SQLITE_PATH"] = ":memory:"
    os.environ.pop("DATABASE_URL", None)


def use_data_folder(
    folder: Path, *, backup_dir: str | None = None, port: int = 0, create: bool = True
) -> None:
    """This process works on the venue data folder ``folder``: its database, secret key,
    static files and backups (the venue commands, and every command of ``cego-club``).
    ``create=False``: nothing is made yet (the folder, its secret key) where missing."""
    if create:
        folder.mkdir(parents=True, exist_ok=True)
    lan = lan_address()
    os.environ.update(
        {
            "DEBUG": "0",
            "HTTPS": "0",  # plain HTTP on the hall's network
            "VENUE_MODE": "1",  # logins held to their device and the day (venue/sessions.py)
            "SECRET_KEY_FILE": str(folder / "secret_key"),
            "SQLITE_PATH": str(folder / "db.sqlite3"),
            **VENUE_DATABASE_ENVIRONMENT,
            "STATIC_ROOT": str(folder / "static"),
            "ALLOWED_HOSTS": ",".join(host_names(lan)),
            "VENUE_BACKUP_DIR": str(
                Path(backup_dir).expanduser().resolve() if backup_dir else folder / "backups"
            ),
        }
    )
    os.environ.pop("SECRET_KEY", None)  # the day's key is the one in the data folder
    if not create and not (folder / "secret_key").exists():
        # The settings would make the key file (and the folder): a key kept nowhere instead.
        os.environ.pop("SECRET_KEY_FILE")
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ.pop("DATABASE_URL", None)  # the day's database is the one in the data folder
    os.environ.pop("REDIS_URL", None)  # one process: local memory is the cache
    if lan and port:
        os.environ["PUBLIC_BASE_URL"] = f"http://{lan}:{port}"
    else:
        os.environ.pop("PUBLIC_BASE_URL", None)


def typed_path(path: str | Path, *, program: bool = False) -> str:
    """``path`` as one types it here. A file or folder: relative to the current folder when it
    lies inside it, else absolute. A program: absolute (the command then works from any
    folder), except on Windows where that path would need quotes (a user name with a space):
    PowerShell does not run a quoted program, so ``.\\.venv\\Scripts\\python.exe`` it is."""
    absolute = Path(path).absolute()
    try:
        relative = str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)
    if not program:
        return relative
    if os.name == "nt" and shell_quote(str(absolute)) != str(absolute):
        return ".\\" + relative
    return str(absolute)


def shell_quote(word: str) -> str:
    return subprocess.list2cmdline([word]) if os.name == "nt" else shlex.quote(word)


def command_line(*args: str) -> str:
    """The command that runs ``args`` (``venue --create-organiser``) on this machine, the way
    the app is started here: ``cego-club …`` or the starter script (``CEGO_CLUB_COMMAND``), else
    this environment's Python (a bare ``python`` may not be the one Django is installed in)
    with the checkout's ``manage.py`` (by its full path: it works from any folder), or with
    ``-m cego_club`` in an installed package, which has no ``manage.py``."""
    prefix = os.environ.get(COMMAND_VARIABLE)
    if not prefix:
        python = shell_quote(typed_path(sys.executable, program=True))
        manage = CHECKOUT_MANAGE_PY
        prefix = f"{python} {shell_quote(str(manage)) if manage.exists() else '-m cego_club'}"
    return " ".join([prefix, *(shell_quote(arg) for arg in args)])
