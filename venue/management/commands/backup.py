from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from venue.backups import BackupError, backup_database


class Command(BaseCommand):
    help = (
        "Write one consistent backup file of the database into --output while the server "
        "keeps running; prints the file's path as the last line. With --data DIR: the venue "
        "database in that folder."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", required=True, help="folder to write the backup into")
        parser.add_argument(
            "--format",
            choices=["auto", "sqlite", "pgdump", "json"],
            default="auto",
            help="auto: SQLite's backup API on SQLite, pg_dump on PostgreSQL (JSON without it)",
        )
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, **options):
        try:
            path = backup_database(output_dir=Path(options["output"]), fmt=options["format"])
        except BackupError as error:
            if options["format"] != "auto" or "pg_dump" not in str(error):
                raise CommandError(str(error)) from error
            # pg_dump present but unusable (e.g. older than the server): the portable dump.
            self.stderr.write(f"{error}\nFalling back to the portable JSON format.")
            path = backup_database(output_dir=Path(options["output"]), fmt="json")
        self.stdout.write(str(path))
