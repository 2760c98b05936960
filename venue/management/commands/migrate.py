"""``migrate``, as Django's, after a step of its own (``venue.versions``): before anything
else it reads which version wrote the database and refuses data of a newer version (German,
both versions named; nothing written, on SQLite the file only read). Once the database is up
to date, ``venue.receivers`` records this program's version (``post_migrate``). Every way a
database is migrated goes through it: the venue's start, a restore, a season server's update
(``manage.py migrate``, ``cego-club migrate``), the tests' database."""

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import DEFAULT_DB_ALIAS, connections

from venue.versions import refuse_newer_data


class Command(DjangoMigrate):
    help = (
        f"{DjangoMigrate.help} Refuses a database written by a newer version of Cego Club "
        "(before anything is written), and records this version once it is up to date."
    )

    def execute(self, *args, **options):
        # Before Django's own checks, which open the database (on SQLite that would switch a
        # venue's file to WAL mode).
        refuse_newer_data(connections[options.get("database") or DEFAULT_DB_ALIAS])
        return super().execute(*args, **options)
