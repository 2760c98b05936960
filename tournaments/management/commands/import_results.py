from django.core.management.base import BaseCommand, CommandError

from clubs.management.commands._import_common import club_option, load, print_plan
from clubs.services.imports import ImportBlocked
from tournaments.models import Tournament
from tournaments.services.results_import import apply_results, plan_results


class Command(BaseCommand):
    help = (
        "Import a paper result list (one total per player) into a totals-only tournament "
        "without drawn rounds. Dry run unless --commit; --skip-errors as for import_players."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--tournament", type=int, required=True, help="tournament id")
        parser.add_argument("--club", help="short name of the club for rows without one")
        parser.add_argument("--commit", action="store_true")
        parser.add_argument("--skip-errors", action="store_true")

    def handle(self, *args, file, tournament, club=None, commit=False, skip_errors=False, **o):
        target = Tournament.objects.filter(pk=tournament).first()
        if target is None:
            raise CommandError(f"No tournament with id {tournament}.")
        table = load(file)
        club = club_option(club)
        plan = plan_results(table=table, tournament=target, club=club)
        print_plan(self, plan, show_total=True)
        if not commit:
            self.stdout.write("Dry run: nothing written (add --commit to import).")
            return
        try:
            outcome = apply_results(
                table=table, tournament=target, club=club, skip_errors=skip_errors
            )
        except ImportBlocked as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported into {target}: {outcome.created} new, {outcome.updated} changed, "
                f"{outcome.unchanged} unchanged, {outcome.skipped} skipped."
            )
        )
