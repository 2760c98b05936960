#!/usr/bin/env python
import os
import sys


def main() -> None:
    # `manage.py venue` (and backup/restore with --data) configure the process for a
    # tournament day before the settings are read.
    from cego_club.venue import prepare_environment

    prepare_environment(sys.argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
