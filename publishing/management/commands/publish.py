from django.core.management.base import BaseCommand, CommandError

from publishing import outbox
from publishing.client import PublishError, check_url
from publishing.sender import send
from publishing.services import follow
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Send one tournament to the season server now; fails when the server refuses it."

    def add_arguments(self, parser):
        parser.add_argument("--to", required=True, help="the season server's address (https://…)")
        parser.add_argument("--token", required=True, help="the club's publishing token")
        parser.add_argument("--tournament", required=True, type=int, help="the tournament's id")
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, to, token, tournament, **options):
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(f"There is no tournament {tournament}.")
        try:
            url = check_url(to)
            (publication,) = follow(url=url, token=token, tournaments=[found])
            outbox.retry(publication=publication)
            publication.refresh_from_db()
            status = send(publication=publication)
        except PublishError as error:
            raise CommandError(f"{to}: {error.message}") from error
        self.stdout.write(f"{found}: {status}")
