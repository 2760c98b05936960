"""``manage.py create_organiser`` (and ``manage.py venue --create-organiser``): an organiser's
account on the command line, in German: user name, password twice, and the club it runs (a
new one, or one that exists). The same service as the first-time setup page
(``clubs.services.setup.create_organiser``): the installation's first account is also its
superuser and is recorded as its first run.

Without a terminal (or with ``--no-input``) everything comes from options: ``--username``,
``--club-name``/``--club-short``/``--club-town`` or ``--club SHORT``, and the password from
the environment variable ``CEGO_ORGANISER_PASSWORD`` or, with ``--password-stdin``, from the
first line of standard input. Bad input is an error (exit code 1) and creates nothing.
"""

from __future__ import annotations

import getpass
import os
import sys

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.services.setup import create_organiser

PASSWORD_VARIABLE = "CEGO_ORGANISER_PASSWORD"


def organiser_arguments(parser) -> None:
    """The options, shared with ``manage.py venue --create-organiser`` (which hands them on)."""
    parser.add_argument("--username", default=None, help="the new account's user name")
    parser.add_argument("--club", default=None, help="short name of an existing club to run")
    parser.add_argument("--club-name", default=None, help="a new club: its name")
    parser.add_argument("--club-short", default=None, help="a new club: its short name")
    parser.add_argument("--club-town", default=None, help="a new club: its town")
    parser.add_argument(
        "--password-stdin",
        action="store_true",
        help=f"read the password from standard input (else: ${PASSWORD_VARIABLE} or a prompt)",
    )
    parser.add_argument(
        "--no-input",
        action="store_false",
        dest="interactive",
        help="ask nothing: missing options are an error",
    )


def field_labels() -> dict[str, str]:
    return {
        "username": _("user name"),
        "password": _("password"),
        "club_name": _("club's name"),
        "club_short_name": _("short name"),
        "club_town": _("town"),
        "club": _("club"),
    }


class Command(BaseCommand):
    help = "Create an organiser's account and the club it runs (asks in German)."
    leave_locale_alone = True  # the organiser reads it: in the site's language

    def add_arguments(self, parser):
        organiser_arguments(parser)

    def handle(self, *args, **options):
        interactive = options.get("interactive", True) and sys.stdin.isatty()
        values = {
            "username": options.get("username") or "",
            "club_name": options.get("club_name") or "",
            "club_short_name": options.get("club_short") or "",
            "club_town": options.get("club_town") or "",
        }
        if options.get("club") and any(values[name] for name in values if name != "username"):
            raise CommandError(
                _("Either --club or --club-name/--club-short/--club-town, not both.")
            )
        club = self._club_option(options.get("club"))
        password = self._password_option(options)
        if not interactive:
            missing = [name for name in ("username",) if not values[name]]
            if club is None:
                missing += [name for name in ("club_name", "club_short_name", "club_town")]
                missing = [name for name in missing if not values[name]]
            if password is None:
                missing.append("password")
            if missing:
                labels = field_labels()
                raise CommandError(
                    _("Missing: %(fields)s. Without a terminal give them as options (see --help).")
                    % {"fields": ", ".join(labels[name] for name in missing)}
                )
        asked: set[str] = set()
        while True:
            if interactive:
                club, password = self._ask(values, club, password, asked)
            try:
                user = create_organiser(
                    username=values["username"],
                    password=password or "",
                    club=club,  # when given, the new club's fields are not read
                    club_name=values["club_name"],
                    club_short_name=values["club_short_name"],
                    club_town=values["club_town"],
                )
            except ValidationError as error:
                problems = error.message_dict
                labels = field_labels()
                lines = [
                    f"{labels.get(name, name)}: {' '.join(messages)}"
                    for name, messages in problems.items()
                ]
                if not interactive:
                    raise CommandError(_("Nothing created.") + "\n" + "\n".join(lines)) from error
                self.stderr.write("\n".join(lines))
                # Ask again for what was wrong (the rest stays as typed).
                for name in problems:
                    asked.discard(name)
                    if name == "password":
                        password = None
                    elif name in values:
                        values[name] = ""
                continue
            break
        self.stdout.write(
            self.style.SUCCESS(
                _("Account %(user)s created: organiser of %(club)s.")
                % {"user": user.get_username(), "club": user.club_roles.get().club.name}
            )
        )

    def _club_option(self, short: str | None) -> Club | None:
        if not short:
            return None
        club = Club.objects.filter(short_name__iexact=short.strip()).first()
        if club is None:
            raise CommandError(
                _("There is no club with the short name %(short)s.") % {"short": short}
            )
        return club

    def _password_option(self, options) -> str | None:
        if options.get("password_stdin"):
            line = sys.stdin.readline().rstrip("\r\n")
            if not line:
                raise CommandError(_("No password on standard input."))
            return line
        return os.environ.get(PASSWORD_VARIABLE) or None

    def _ask(self, values, club, password, asked):
        """Ask in German for whatever is missing."""
        if not values["username"]:
            while not values["username"]:
                values["username"] = input(_("User name: ")).strip()
        while password is None:
            first = getpass.getpass(_("Password: "))
            if not first:
                continue
            if getpass.getpass(_("Password (again): ")) != first:
                self.stderr.write(_("The two passwords differ. Once more."))
                continue
            password = first
        new_club = any(values[name] for name in ("club_name", "club_short_name", "club_town"))
        if club is None and not new_club and "club" not in asked:
            asked.add("club")
            clubs = list(Club.objects.order_by("name"))
            if clubs:
                self.stdout.write(_("Which club does the account run?"))
                for number, choice in enumerate(clubs, start=1):
                    self.stdout.write(f"  {number}) {choice.name} ({choice.short_name})")
                self.stdout.write(_("  0) a new club"))
                while True:
                    answer = input(_("Number: ")).strip()
                    if answer.isdigit() and 0 <= int(answer) <= len(clubs):
                        break
                club = clubs[int(answer) - 1] if int(answer) else None
        if club is None:
            for name, prompt in (
                ("club_name", _("Name of the club: ")),
                ("club_short_name", _("Short name (on lists and printouts): ")),
                ("club_town", _("Town: ")),
            ):
                while not values[name]:
                    values[name] = input(prompt).strip()
        return club, password
