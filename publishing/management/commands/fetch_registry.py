from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from publishing.laptop.client import PublishError
from publishing.laptop.registry_answer import RegistryError
from publishing.laptop.services import fetch_registry
from venue.tokens import TOKEN_VARIABLE, publish_token, token_arguments


class Command(BaseCommand):
    help = (
        "Before the day: take the season server's clubs and players (same registry ids), so "
        "that the players at the venue are the server's records. The token comes from "
        f"{TOKEN_VARIABLE}, --publish-token-file FILE, or is asked for."
    )
    leave_locale_alone = True  # the organiser reads it: in the site's language

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="url", required=True, help="the season server")
        token_arguments(parser, old_names=("--token", "--publish-token"))
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, url, **options):
        token = publish_token(options)
        if options.get("data"):  # a fresh laptop's folder: its database first
            call_command("migrate", interactive=False, verbosity=0)
        try:
            counts = fetch_registry(url=url, token=token)
        except (PublishError, RegistryError) as error:
            raise CommandError(
                _("%(url)s: %(problem)s Nothing was taken.")
                % {"url": url, "problem": error.message}
            ) from error
        self.stdout.write(
            _("%(clubs)s clubs added, %(new)s players added, %(updated)s updated.")
            % {
                "clubs": counts["clubs"],
                "new": counts["players_new"],
                "updated": counts["players_updated"],
            }
        )
        if counts["sanctions"]:
            self.stdout.write(
                ngettext(
                    "%(count)s sanction of the association taken: registration and check-in "
                    "warn about it.",
                    "%(count)s sanctions of the association taken: registration and check-in "
                    "warn about them.",
                    counts["sanctions"],
                )
                % {"count": counts["sanctions"]}
            )
