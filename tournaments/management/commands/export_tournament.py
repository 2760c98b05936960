import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_archive


class Command(BaseCommand):
    help = (
        "Write a tournament with every deal to one JSON archive (import it with import_tournament)."
    )

    def add_arguments(self, parser):
        parser.add_argument("pk", type=int, help="the tournament's id")
        parser.add_argument("-o", "--output", required=True, help="the archive file to write")

    def handle(self, *args, pk, output, **options):
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None:
            raise CommandError(f"There is no tournament {pk}.")
        archive = tournament_archive(tournament=tournament)
        with open(output, "w", encoding="utf-8") as file:
            json.dump(archive, file, ensure_ascii=False, indent=1)
        deals = sum(len(t["deals"]) for r in archive["rounds"] for t in r["tables"])
        self.stdout.write(
            self.style.SUCCESS(
                f"{tournament}: {len(archive['entries'])} players, {deals} deals -> {output}"
            )
        )
