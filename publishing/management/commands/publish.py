from django.core.management.base import BaseCommand, CommandError

from publishing.laptop import outbox
from publishing.laptop.client import PublishError, check_url
from publishing.laptop.sender import send, verify
from publishing.laptop.services import follow
from tournaments.models import Tournament
from venue.tokens import publish_token, token_arguments


class Command(BaseCommand):
    help = "Send one tournament to the season server now; fails when the server refuses it."
    leave_locale_alone = True  # the organiser reads it: in the site's language

    def add_arguments(self, parser):
        parser.add_argument("--to", required=True, help="the season server's address (https://…)")
        # Never on the command line: CEGO_PUBLISH_TOKEN, --publish-token-file, or asked for.
        token_arguments(parser, old_names=("--token", "--publish-token"))
        parser.add_argument("--tournament", required=True, type=int, help="the tournament's id")
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, to, tournament, **options):
        token = publish_token(options)
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(f"There is no tournament {tournament}.")
        try:
            url = check_url(to)
            (publication,) = follow(url=url, token=token, tournaments=[found])
            outbox.retry(publication=publication)
            publication.refresh_from_db()
            # Ask the server first: what it holds (with this token) decides what is sent.
            verify(publication=publication)
            publication.refresh_from_db()
            status = send(publication=publication)
        except PublishError as error:
            raise CommandError(f"{to}: {error.message}") from error
        self.stdout.write(f"{found}: {status}")
