from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from publishing.client import PublishError
from publishing.services import fetch_registry


class Command(BaseCommand):
    help = (
        "Before the day: take the season server's clubs and players (same registry ids), so "
        "that the players at the venue are the server's records."
    )

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="url", required=True, help="the season server")
        parser.add_argument("--token", required=True, help="the club's publishing token")
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, url, token, **options):
        if options.get("data"):  # a fresh laptop's folder: its database first
            call_command("migrate", interactive=False, verbosity=0)
        try:
            counts = fetch_registry(url=url, token=token)
        except (PublishError, ValueError, KeyError) as error:
            raise CommandError(f"{url}: {getattr(error, 'message', error)}") from error
        self.stdout.write(
            f"{counts['clubs']} clubs added, {counts['players_new']} players added, "
            f"{counts['players_updated']} updated."
        )
