from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from venue.backups import SUMMARY_MODELS, BackupError, restore_database
from venue.environment import data_dir
from venue.signals import database_restored, lines_from


class Command(BaseCommand):
    help = (
        "Bring the database back from a file `manage.py backup` wrote. Refuses a database "
        "that holds tournaments, players or deals unless --force is given (it is then "
        "replaced, after showing what it holds and what the backup holds), and a backup older "
        "than that data unless --allow-older is given as well. A damaged or foreign file, or "
        "a restore that would leave fewer rows than the backup holds, is an error and changes "
        "nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file")
        parser.add_argument(
            "--force", action="store_true", help="replace a database that holds data"
        )
        parser.add_argument(
            "--allow-older",
            action="store_true",
            help=_(
                "restore a backup even when it is older than the data in the database "
                "(what was entered after the backup is lost)"
            ),
        )
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, **options):
        try:
            held = restore_database(
                path=Path(options["file"]),
                force=options["force"],
                allow_older=options["allow_older"],
                say=self.stdout.write,
                # its lock: not while a venue serves from it (venue/folder_lock.py)
                folder=data_dir(options["data"]) if options["data"] else None,
            )
        except BackupError as error:
            raise CommandError(str(error)) from error
        tournaments, players, deals = (held.counts.get(label, 0) for label in SUMMARY_MODELS)
        self.stdout.write(
            _(
                "Restored %(file)s: the database now holds %(tournaments)s tournaments, "
                "%(players)s players and %(deals)s deals."
            )
            % {
                "file": options["file"],
                "tournaments": tournaments,
                "players": players,
                "deals": deals,
            }
        )
        # What the areas above do with restored data (publishing: take back first).
        for line in lines_from(database_restored.send(sender=None)):
            self.stdout.write(line)
