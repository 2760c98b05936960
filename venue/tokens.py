"""Where the venue's commands take a club's publishing token from: never the command line,
which every user of the computer sees in the process list (and the shell keeps in its
history). In this order:

1. the environment variable ``CEGO_PUBLISH_TOKEN``;
2. ``--publish-token-file FILE``: the file's first line (a file only its owner reads);
3. asked for (not shown while typed) when a person sits at the console.

The old ``--publish-token TOKEN`` (and ``--token`` of ``publish`` and ``fetch_registry``) is
refused with a German message naming these ways. Used by ``venue`` and by the publishing
commands (``publish``, ``fetch_registry``).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

TOKEN_VARIABLE = "CEGO_PUBLISH_TOKEN"
TOKEN_FILE_OPTION = "--publish-token-file"
MAX_TOKEN_LENGTH = 100  # as publishing.models.Publication.token


def token_arguments(parser: argparse.ArgumentParser, *, old_names: tuple[str, ...]) -> None:
    """``--publish-token-file FILE``, and the old options that named the token itself
    (hidden; refused by ``publish_token`` with a message saying what to use instead)."""
    parser.add_argument(
        TOKEN_FILE_OPTION,
        dest="publish_token_file",
        default=None,
        metavar="FILE",
        help=f"a file whose first line is the club's publishing token (or set {TOKEN_VARIABLE}; "
        "without either, the token is asked for)",
    )
    for name in old_names:
        parser.add_argument(name, dest="old_token_option", default=None, help=argparse.SUPPRESS)


def _ways() -> str:
    return _(
        "set the environment variable %(variable)s, or give %(option)s FILE (a file whose "
        "first line is the token), or type it when asked"
    ) % {"variable": TOKEN_VARIABLE, "option": TOKEN_FILE_OPTION}


def publish_token(
    options: Mapping[str, object],
    *,
    environ: Mapping[str, str] | None = None,
    stdin=None,
    ask: Callable[[str], str] = getpass.getpass,
) -> str:
    """The token, from where the organiser put it (see the module); ``CommandError`` in
    German when it is given on the command line, cannot be read, or is nowhere."""
    environ = os.environ if environ is None else environ
    stdin = sys.stdin if stdin is None else stdin
    if options.get("old_token_option"):
        raise CommandError(
            _(
                "The token no longer goes on the command line (everyone on this computer sees "
                "it in the process list): %(ways)s. The token you typed is now in your "
                "shell's history; revoke it on the season server if others use this computer."
            )
            % {"ways": _ways()}
        )
    token = environ.get(TOKEN_VARIABLE, "").strip()
    if not token and options.get("publish_token_file"):
        token = _first_line(Path(str(options["publish_token_file"])).expanduser())
    if not token and _console(stdin):
        try:
            token = ask(_("The club's publishing token (not shown while typed): ")).strip()
        except (EOFError, KeyboardInterrupt):
            token = ""
    if not token:
        raise CommandError(
            _("The club's publishing token is missing: %(ways)s.") % {"ways": _ways()}
        )
    if len(token) > MAX_TOKEN_LENGTH or any(ch.isspace() for ch in token):
        raise CommandError(
            _("That is not a publishing token (one word, at most %(max)s characters).")
            % {"max": MAX_TOKEN_LENGTH}
        )
    return token


def _first_line(path: Path) -> str:
    try:
        with path.open(encoding="utf-8-sig") as handle:
            return handle.readline(MAX_TOKEN_LENGTH + 2).strip()
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(
            _("The token file %(path)s cannot be read: %(error)s")
            % {"path": path, "error": getattr(error, "strerror", None) or error}
        ) from error


def _console(stdin) -> bool:
    try:
        return bool(stdin is not None and stdin.isatty())
    except (AttributeError, ValueError):
        return False
