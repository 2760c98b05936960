"""``cego-club``: the one command of an installed Cego Club (``pipx install``, or ``pip install``
of the wheel), for what an organiser types: ``cego-club venue``, ``backup``, ``restore``, the
imports, and every other management command.

Like ``manage.py`` it configures the process before Django reads its settings. Unlike it, it
never falls back to a database beside the code (in an installed package that would be somewhere
in site-packages): unless ``DATABASE_URL`` names a server's database, every command works on
the venue data folder, ``--data DIR`` (default: ``venue-data`` in the current folder, as
``manage.py venue`` uses; the venue server prints the full path when it starts).
"""

from __future__ import annotations

import argparse
import gettext
import os
import secrets
import shutil
import sys
import textwrap
from pathlib import Path

from cego_club import __version__
from venue.environment import (
    COMMAND_VARIABLE,
    DEFAULT_DATA_DIR,
    VENUE_COMMANDS,
    command_line,
    data_dir,
    prepare_environment,
    shell_quote,
    typed_path,
    use_data_folder,
)
from venue.versions import newer_data_problem, written_in_file

PROGRAM = "cego-club"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
# Commands that sign nothing run without a data folder (as under manage.py): scoring a file
# of deals by the built-in rules needs no database.
KEYLESS_COMMANDS = {"score_deals"}
# Commands that may start on a folder without a database: the venue sets one up, a restore
# brings one back. Any other command on an empty folder is a mistyped --data.
CREATING_COMMANDS = {"venue", "restore"}
# Commands that work on data a newer version wrote: a backup reads them, a restore replaces
# them (and refuses a newer backup itself). Every other one refuses them at once.
VERSION_FREE_COMMANDS = {"backup", "restore"}


def gettext_noop(message: str) -> str:
    """Marks a message for the catalogue; translated where it is printed."""
    return message


# What an organiser types, in the order --help lists them.
ORGANISER_COMMANDS = [
    (
        "venue",
        gettext_noop(
            "serve the tournament day to the hall's network from this laptop "
            "(--port N; --create-organiser: create an organiser account)"
        ),
    ),
    ("backup", gettext_noop("write a backup of the database (--output FOLDER)")),
    ("restore", gettext_noop("bring the database back from a backup file (FILE)")),
    (
        "import_players",
        gettext_noop("import a club's member list (CSV or Excel; --commit writes it)"),
    ),
    (
        "import_results",
        gettext_noop("import the totals of a tournament played on paper (--tournament ID)"),
    ),
    ("export_tournament", gettext_noop("write a tournament into an archive file (ID -o FILE)")),
    ("import_tournament", gettext_noop("read a tournament archive file (FILE)")),
    ("score_deals", gettext_noop("score a file of deals (reads standard input)")),
    (
        "publish_token",
        gettext_noop("on the season server: a club's publishing token (--club SHORT)"),
    ),
    (
        "fetch_registry",
        gettext_noop("fetch the season server's clubs and players (--from URL)"),
    ),
    (
        "publish",
        gettext_noop("send one tournament to the season server now (--to URL --tournament ID)"),
    ),
    (
        "fetch_tournament",
        gettext_noop("take a tournament set up on the season server to this laptop (--from URL)"),
    ),
]


def translator() -> gettext.NullTranslations:
    """The terminal speaks the site's language, German, before Django is set up."""
    from cego_club.catalogues import ensure_compiled

    ensure_compiled([LOCALE_DIR])  # a checkout compiles here; a wheel ships the .mo files
    return gettext.translation("django", localedir=LOCALE_DIR, languages=["de"], fallback=True)


def overview() -> str:
    _ = translator().gettext
    width = max(len(name) for name, _words in ORGANISER_COMMANDS)
    lines = [
        _("Usage: %(program)s COMMAND [options]") % {"program": PROGRAM},
        "",
        _("Commands:"),
        *(
            textwrap.fill(
                _(words),
                width=79,
                initial_indent=f"  {name:<{width}}  ",
                subsequent_indent=" " * (width + 4),
            )
            for name, words in ORGANISER_COMMANDS
        ),
        "",
    ]
    notes = [
        _(
            "Every command works on the data folder --data FOLDER (default: %(folder)s in the "
            "current folder); the venue server creates it and prints where it is."
        )
        % {"folder": DEFAULT_DATA_DIR},
        _("A command's options: %(program)s COMMAND --help") % {"program": PROGRAM},
        _("Every other Django management command (for experts): %(program)s help")
        % {"program": PROGRAM},
    ]
    return "\n".join(lines + [textwrap.fill(note, width=79) for note in notes])


def invocation() -> str:
    """How to start this same program again in this system's terminal, for the commands the
    app prints: ``cego-club`` when that is what was started and the terminal finds it (pipx,
    an activated environment), else this environment's Python with ``-m cego_club``."""
    started = Path(sys.argv[0]).stem.lower() if sys.argv and sys.argv[0] else ""
    # On Windows the launcher runs as "...\Scripts\cego-club" and PATH finds "cego-club.EXE";
    # pipx may copy it, so the name is compared, not the file.
    if started == PROGRAM and shutil.which(PROGRAM):
        return PROGRAM
    return f"{shell_quote(typed_path(sys.executable, program=True))} -m cego_club"


def split_data_option(args: list[str]) -> tuple[str | None, list[str]]:
    """``--data DIR`` (or ``--data=DIR``) taken out of ``args``; for commands that do not know
    the option themselves."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--data")
    options, rest = parser.parse_known_args(args)
    return options.data, rest


def known_command(name: str) -> bool:
    import django
    from django.core.management import get_commands

    django.setup()  # get_commands() keeps its first answer: the apps' commands must be in it

    return name in get_commands()


def newer_data(folder: Path, command: str) -> str | None:
    """The refusal, at once and in German, of data a newer version wrote (``venue.versions``:
    the file only read). A backup of them and a restore over them stay possible."""
    if command in VERSION_FREE_COMMANDS:
        return None
    found = written_in_file(folder / "db.sqlite3")
    if found is None:
        return None
    _ = translator().gettext
    problem = newer_data_problem(found, gettext=_)
    if problem is None:
        return None
    return f"{problem}\n{_('Data folder: %(path)s') % {'path': folder}}"


def fail(message: str) -> int:
    print(f"{PROGRAM}: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print(overview(), file=sys.stderr)
        return 2
    if args[0] in {"-h", "--help"}:
        print(overview())
        return 0
    if args[0] == "--version":
        # The code's own version (cego_club/__init__.py), right also in a checkout whose
        # installed metadata is older.
        print(f"{PROGRAM} {__version__}")
        return 0
    # import-players as well as import_players: Django's names have underscores.
    command = args[0] if args[0].startswith("-") else args[0].replace("-", "_")
    rest = args[1:]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    os.environ.setdefault(COMMAND_VARIABLE, invocation())

    if command == "help" or "-h" in rest or "--help" in rest:
        # Help creates no data folder; the settings still want a key.
        os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    elif os.environ.get("DATABASE_URL") and not any(
        arg == "--data" or arg.startswith("--data=") for arg in rest
    ):
        pass  # a server's database and key, named by its environment (docs/DEPLOY.md)
    else:
        data, django_rest = split_data_option(rest)
        folder = data_dir(data)
        if command in VENUE_COMMANDS:
            # The venue commands take --data themselves; backup and restore need it to work
            # on the folder at all.
            if data is None:
                rest = ["--data", str(folder), *rest]
        else:
            rest = django_rest
        if (folder / "db.sqlite3").exists() or command in CREATING_COMMANDS:
            problem = newer_data(folder, command)
            if problem:
                return fail(problem)
            if command in VENUE_COMMANDS:
                prepare_environment([PROGRAM, command, *rest])
            else:
                use_data_folder(folder)
        else:
            os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)  # used for nothing, kept nowhere
            # and no database file beside the code (house rules are then a line's error)
            os.environ["SQLITE_PATH"] = ":memory:"
            os.environ.pop("DATABASE_URL", None)
            if known_command(command) and command not in KEYLESS_COMMANDS:
                _ = translator().gettext
                return fail(
                    _(
                        "There is no tournament database in the folder %(folder)s. Start "
                        "`%(venue)s` there first, or name the data folder with --data FOLDER."
                    )
                    % {
                        "folder": folder,
                        "venue": command_line("venue", "--data", typed_path(folder)),
                    }
                )
            # An unknown command: Django says so (and lists the known ones with `help`).

    from django.core.management import execute_from_command_line

    execute_from_command_line([PROGRAM, command, *rest])
    return 0
