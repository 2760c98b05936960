from django.core.management.base import BaseCommand, CommandError

from clubs.management.commands._import_common import club_option, load, print_plan
from clubs.services.imports import ImportBlocked, apply_players, plan_players


class Command(BaseCommand):
    help = (
        "Import a member list (CSV or Excel). Without --commit: a dry run that prints what "
        "each row would do. With --commit: writes in one transaction; refuses (exit code 1, "
        "nothing written) while rows have errors, unless --skip-errors."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--club", help="short name of the club for rows without one")
        parser.add_argument("--commit", action="store_true", help="write the import")
        parser.add_argument("--skip-errors", action="store_true", help="leave out error rows")

    def handle(self, *args, file, club=None, commit=False, skip_errors=False, **options):
        table = load(file)
        club = club_option(club)
        plan = plan_players(table=table, club=club)
        print_plan(self, plan)
        if not commit:
            self.stdout.write("Dry run: nothing written (add --commit to import).")
            return
        try:
            outcome = apply_players(table=table, club=club, skip_errors=skip_errors)
        except ImportBlocked as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported: {outcome.created} new, {outcome.updated} completed, "
                f"{outcome.unchanged} unchanged, {outcome.skipped} skipped."
            )
        )
