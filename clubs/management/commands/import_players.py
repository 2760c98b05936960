from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from clubs.management.commands._import_common import club_option, load, print_plan
from clubs.models import Club
from clubs.search import club_key
from clubs.services.imports import (
    CREATE,
    MAP,
    ClubChoice,
    ImportBlocked,
    Plan,
    apply_players,
    plan_players,
)


class Command(BaseCommand):
    help = (
        "Import a member list (CSV or Excel). Without --commit: a dry run that prints what "
        "each row would do. With --commit: writes in one transaction; refuses (exit code 1, "
        "nothing written) while rows have errors, unless --skip-errors. A club name that "
        "matches no club (nor a spelling remembered earlier) makes its rows errors, unless "
        "--create-clubs creates it or --map ties it to an existing club; both are remembered "
        "for the next import."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--club", help="short name of the club for rows without one")
        parser.add_argument("--commit", action="store_true", help="write the import")
        parser.add_argument("--skip-errors", action="store_true", help="leave out error rows")
        parser.add_argument(
            "--create-clubs",
            action="store_true",
            help="create the clubs the list names that match no existing club",
        )
        parser.add_argument(
            "--map",
            dest="maps",
            action="append",
            default=[],
            metavar="SPELLING=SHORT",
            help=(
                "the list's club name SPELLING is the existing club SHORT (its short name); "
                "may be given several times, e.g. --map 'Cego-Club Bräunlingen=CF Bräunlingen'"
            ),
        )

    def handle(
        self,
        *args,
        file,
        club=None,
        commit=False,
        skip_errors=False,
        create_clubs=False,
        maps=(),
        **options,
    ):
        table = load(file)
        club = club_option(club)
        choices = self._mapped(maps)
        plan = plan_players(table=table, club=club, club_choices=choices)
        if create_clubs:
            for unknown in plan.unknown_clubs:
                choices.setdefault(unknown.key, ClubChoice(CREATE, short_name=unknown.short_name))
            plan = plan_players(table=table, club=club, club_choices=choices)
        print_plan(self, plan)
        self._print_clubs(plan)
        if plan.club_errors:
            raise CommandError(" ".join(plan.club_errors))
        if not commit:
            self.stdout.write("Dry run: nothing written (add --commit to import).")
            return
        try:
            outcome = apply_players(
                table=table, club=club, skip_errors=skip_errors, club_choices=choices
            )
        except ImportBlocked as error:
            raise CommandError(" ".join(error.messages)) from error
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported: {outcome.created} new, {outcome.updated} completed, "
                f"{outcome.unchanged} unchanged, {outcome.skipped} skipped; "
                f"{outcome.clubs_created} clubs created, "
                f"{outcome.spellings_remembered} club spellings remembered."
            )
        )

    def _mapped(self, pairs) -> dict[str, ClubChoice]:
        choices = {}
        for pair in pairs:
            spelling, sep, short_name = pair.partition("=")
            if not sep or not spelling.strip() or not short_name.strip():
                raise CommandError(f"--map {pair!r}: write SPELLING=SHORT.")
            target = Club.objects.filter(short_name__iexact=short_name.strip()).first()
            if target is None:
                raise CommandError(f"--map {pair!r}: no club with the short name {short_name!r}.")
            choices[club_key(spelling)] = ClubChoice(MAP, club_id=target.pk)
        return choices

    def _print_clubs(self, plan: Plan) -> None:
        """Each unknown club once: what happens to it, or how to decide."""
        for unknown in plan.unknown_clubs:
            where = f"“{unknown.name}” ({unknown.lines} lines)"
            choice = unknown.choice
            if choice is not None and choice.action == CREATE:
                self.stdout.write(
                    f"new club {where}: created as {choice.short_name!r} when committed"
                )
            elif choice is not None and choice.action == MAP:
                self.stdout.write(f"club {where}: mapped to the existing club")
            else:
                hint = (
                    f"; likely the existing club {unknown.suggestion.short_name!r} "
                    f"(--map '{unknown.name}={unknown.suggestion.short_name}')"
                    if unknown.suggestion is not None
                    else ""
                )
                self.stdout.write(
                    self.style.WARNING(
                        f"unknown club {where}: an error unless --create-clubs{hint}"
                    )
                )
