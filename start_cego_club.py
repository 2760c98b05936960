#!/usr/bin/env python3
"""Start Cego Club from this folder, without make and without knowing Python.

Windows: double-click this file, or type ``py start_cego_club.py``. macOS and Linux:
``python3 start_cego_club.py``. The first time it creates the environment ``.venv`` beside this
file and installs the app into it (that needs the internet, once); afterwards it reuses it and
installs again only when the app's files changed. Then it runs ``cego-club venue`` in the
current folder (the data folder ``venue-data`` is made there); every argument is passed on:
``start_cego_club.py --port 8080``, ``start_cego_club.py venue --create-organiser``,
``start_cego_club.py backup --output D:\\Sicherung`` (any command of ``cego-club``).

Standard library only, and nothing newer than Python 3.6 before the version check, so that an
old Python still gets the message saying which one to install.
"""

import ast
import contextlib
import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv")
WINDOWS = os.name == "nt"
BIN = os.path.join(VENV, "Scripts" if WINDOWS else "bin")
PYTHON = os.path.join(BIN, "python.exe" if WINDOWS else "python")
CEGO_CLUB = os.path.join(BIN, "cego-club.exe" if WINDOWS else "cego-club")
# What was installed last (a fingerprint of the app's files): the next start skips pip.
STAMP = os.path.join(VENV, "cego-club-installed.txt")
# `make install`'s own stamp: a developer's editable environment is used as it is.
MAKE_STAMP = os.path.join(VENV, ".installed")
PACKAGES = [
    "cego_club",
    "venue",
    "scoring",
    "rules",
    "clubs",
    "seasons",
    "ratings",
    "tournaments",
    "publishing",
    "signups",
    "treasury",
    "ceremony",
    "simultaneous",
    "sheetreading",
    "printing",
    "exports",
    "api",
    "handbook",
]
CATALOGUE = os.path.join(HERE, "cego_club", "locale", "de", "LC_MESSAGES", "django.po")


def german_messages():
    """The German catalogue's plain messages (the app is not installed yet, so no Django)."""
    messages = {}
    try:
        with open(CATALOGUE, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return messages
    entry, current = {}, None
    for raw in lines + [""]:
        line = raw.strip()
        if line.startswith('"') and current:
            entry[current] += ast.literal_eval(line)
            continue
        keyword, _space, rest = line.partition(" ")
        if keyword in ("msgid", "msgstr"):
            if keyword == "msgid":
                entry = {}
            current = keyword
            entry[keyword] = ast.literal_eval(rest)
            continue
        current = None
        if entry.get("msgid") and entry.get("msgstr"):
            messages[entry["msgid"]] = entry["msgstr"]
        entry = {}
    return messages


MESSAGES = german_messages()


def _(message):
    return MESSAGES.get(message, message)


def say(message):
    print(message, flush=True)


def give_up(message):
    say("")
    say(message)
    if WINDOWS and sys.stdin is not None and sys.stdin.isatty():
        # A double-clicked window would close before anyone could read why.
        with contextlib.suppress(EOFError):
            input(_("Press Enter to close this window."))
    sys.exit(1)


def check_python():
    if sys.version_info < (3, 11):  # noqa: UP036 - run by whatever Python a user has
        give_up(
            _(
                "Cego Club needs Python 3.11 or newer; this is Python %(version)s. Install "
                "Python from https://www.python.org/downloads/ (on Windows tick “Add python.exe "
                "to PATH”) and start this file again."
            )
            % {"version": "{}.{}".format(*sys.version_info[:2])}
        )


def fingerprint():
    """Every file that goes into the installed app, with its size and time: a change (an
    update of this folder) means installing again."""
    digest = hashlib.sha256(sys.version.encode())
    names = ["pyproject.toml", "setup.py", "MANIFEST.in"]
    for package in PACKAGES:
        for folder, subfolders, files in os.walk(os.path.join(HERE, package)):
            subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
            for name in sorted(files):
                if not name.endswith((".pyc", ".mo", ".tmp")):
                    names.append(os.path.relpath(os.path.join(folder, name), HERE))
    for name in names:
        path = os.path.join(HERE, name)
        if os.path.exists(path):
            status = os.stat(path)
            digest.update(f"{name} {status.st_size} {status.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def create_environment():
    if os.path.exists(PYTHON):
        return
    say(_("Creating the Python environment in %(folder)s …") % {"folder": VENV})
    result = subprocess.call([sys.executable, "-m", "venv", VENV])
    if result != 0 or not os.path.exists(PYTHON):
        shutil.rmtree(VENV, ignore_errors=True)  # half made: the next start begins afresh
        give_up(
            _(
                "The Python environment could not be created (see the message above). "
                'Install Python from python.org again, with "Add python.exe to PATH" '
                "ticked, or use the Windows download of Cego Club, which needs no Python."
            )
            if WINDOWS
            else _(
                "The Python environment could not be created (see the message above). On "
                "Debian or Ubuntu install the package python3-venv first."
            )
        )


def install():
    if os.path.exists(MAKE_STAMP) and os.path.exists(CEGO_CLUB):
        return  # `make install` keeps this environment (an editable install of this folder)
    wanted = fingerprint()
    if os.path.exists(CEGO_CLUB) and os.path.exists(STAMP):
        with open(STAMP, encoding="utf-8") as handle:
            if handle.read().strip() == wanted:
                return
    say(
        _(
            "Installing Cego Club into the environment: the first time this takes a few "
            "minutes and needs the internet."
        )
    )
    # setuptools copies into build/; what an earlier build left there would go along.
    shutil.rmtree(os.path.join(HERE, "build"), ignore_errors=True)
    quiet = ["--quiet", "--disable-pip-version-check"]
    result = subprocess.call([PYTHON, "-m", "pip", "install", *quiet, HERE], cwd=HERE)
    shutil.rmtree(os.path.join(HERE, "build"), ignore_errors=True)
    if result != 0 or not os.path.exists(CEGO_CLUB):
        give_up(
            _(
                "Installing failed (see pip's message above). The first installation "
                "downloads the app's parts from the internet: check the connection and start "
                "this file again."
            )
        )
    with open(STAMP, "w", encoding="utf-8") as handle:
        handle.write(wanted + "\n")


def typed(path, program=False):
    """A path as one types it in this folder's terminal (relative inside it), quoted."""
    path = os.path.abspath(path)
    try:
        relative = os.path.relpath(path)
    except ValueError:  # Windows: another drive
        relative = os.pardir
    if not relative.startswith(os.pardir):
        path = ((".\\" if WINDOWS else "./") + relative) if program else relative
    if WINDOWS:
        return subprocess.list2cmdline([path])
    import shlex

    return shlex.quote(path)


def this_command():
    """How to run this file again, for the commands the app prints (organiser account,
    backups): `py start_cego_club.py` on Windows, `python3 start_cego_club.py` elsewhere."""
    launcher = "py" if WINDOWS else "python3"
    python = launcher if shutil.which(launcher) else typed(sys.executable, program=True)
    return f"{python} {typed(os.path.abspath(__file__))}"


def main(arguments):
    check_python()
    create_environment()
    install()
    if not arguments or arguments[0].startswith("-"):
        arguments = ["venue", *arguments]  # options alone are the venue's
    environment = dict(os.environ)
    environment.setdefault("CEGO_CLUB_COMMAND", this_command())
    command = [CEGO_CLUB, *arguments]
    if not WINDOWS:
        os.execve(CEGO_CLUB, command, environment)  # the server is this process: signals reach it
    # Not subprocess.call: on Ctrl+C it kills the server after 0.25 s. Ctrl+C reaches both
    # processes; the server stops by itself (closing its database), and this one waits for it.
    server = subprocess.Popen(command, env=environment)
    while True:
        try:
            result = server.wait()
            break
        except KeyboardInterrupt:
            continue
    if result in (
        -2,
        3221225786,
    ):  # stopped by Ctrl+C (POSIX SIGINT, Windows STATUS_CONTROL_C_EXIT)
        result = 0
    if result != 0:
        give_up(_("Cego Club stopped with an error (see above)."))
    sys.exit(result)


if __name__ == "__main__":
    main(sys.argv[1:])
