#!/usr/bin/env python
import os
import secrets
import sys

# Commands that sign nothing (no session, no form) run without a configured key, so that a
# newcomer's first `manage.py score_deals` works; web servers still refuse without one.
KEYLESS_COMMANDS = {"score_deals"}


def main() -> None:
    # `manage.py venue` (and backup/restore with --data) configure the process for a
    # tournament day before the settings are read.
    from venue.environment import prepare_environment

    prepare_environment(sys.argv)
    keyless = len(sys.argv) > 1 and sys.argv[1] in KEYLESS_COMMANDS
    if keyless and not (os.environ.get("SECRET_KEY") or os.environ.get("SECRET_KEY_FILE")):
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)  # used for nothing, kept nowhere
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
