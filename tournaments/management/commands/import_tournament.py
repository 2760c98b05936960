from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.services.archive import ArchiveError, import_tournament_archive, parse_archive


class Command(BaseCommand):
    help = (
        "Import a tournament archive written by export_tournament. Every deal is scored again; "
        "any error writes nothing. Importing the same archive twice gives one tournament."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (JSON)")

    def handle(self, *args, file, **options):
        try:
            raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from error
        try:
            outcome = import_tournament_archive(data=parse_archive(raw))
        except ArchiveError as error:
            raise CommandError(f"{file}: {error.message}") from error
        tournament = outcome.tournament
        if not outcome.created:
            self.stdout.write(
                f"{tournament} (id {tournament.pk}) was imported before; nothing changed."
            )
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {tournament} as id {tournament.pk}: {outcome.deals} deals checked, "
                f"{outcome.players_created} new players."
            )
        )
