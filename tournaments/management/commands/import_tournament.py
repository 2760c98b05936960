from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from seasons.models import Season
from tournaments.archive_format import ArchiveError, parse_archive
from tournaments.services.archive_write import import_tournament_archive


class Command(BaseCommand):
    help = (
        "Import a tournament archive written by export_tournament. Every deal is scored again; "
        "any error writes nothing. Importing the same archive twice gives one tournament; a "
        "newer revision of it replaces the copy here, an older one is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (JSON)")
        parser.add_argument("--season", help="the season it joins (its name)")
        parser.add_argument(
            "--allow-unfinished",
            action="store_true",
            help="import a tournament that is not finished (no final standings yet)",
        )
        parser.add_argument(
            "--create-clubs",
            action="store_true",
            help="create the clubs the archive names that are not here (else refused)",
        )

    def handle(self, *args, file, season, allow_unfinished, create_clubs, **options):
        try:
            raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from error
        target = None
        if season:
            target = Season.objects.filter(name=season).first()
            if target is None:
                raise CommandError(f"There is no season named {season}.")
        try:
            outcome = import_tournament_archive(
                data=parse_archive(raw),
                season=target,
                allow_unfinished=allow_unfinished,
                create_clubs=create_clubs,
            )
        except ArchiveError as error:
            raise CommandError(f"{file}: {error.message}") from error
        tournament = outcome.tournament
        if outcome.replaced:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Replaced {tournament} (id {tournament.pk}) by revision "
                    f"{tournament.archive_revision}: {outcome.deals} deals checked, "
                    f"{outcome.players_created} new players."
                )
            )
            return
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
