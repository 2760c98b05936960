from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from publishing.server.services import issue_token


class Command(BaseCommand):
    help = (
        "Issue a publishing token for a club (its venue laptops send tournaments with it); "
        "prints the token as the last line. Only its hash is stored."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="the club's short name")
        parser.add_argument("--label", default="", help="e.g. the laptop's name")
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, club, label, **options):
        found = Club.objects.filter(short_name=club).first()
        if found is None:
            raise CommandError(f"There is no club with the short name {club}.")
        _token, raw = issue_token(club=found, label=label)
        self.stdout.write(f"Publishing token for {found} (shown once):")
        self.stdout.write(raw)
