from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import formats
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from publishing.laptop.client import PublishError
from publishing.laptop.fetching import FetchError, fetch_tournament, fetchable
from publishing.laptop.registry_answer import RegistryError
from venue.tokens import TOKEN_VARIABLE, publish_token, token_arguments


class Command(BaseCommand):
    help = (
        "The way back: take a tournament set up on the season server (with its registrations, "
        "teams and keep-apart pairs) to this laptop, which runs and publishes it from then "
        "on. Without --tournament: the list of what can be fetched. The token comes from "
        f"{TOKEN_VARIABLE}, --publish-token-file FILE, or is asked for."
    )
    leave_locale_alone = True  # the organiser reads it: in the site's language

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="url", required=True, help="the season server")
        token_arguments(parser, old_names=("--token", "--publish-token"))
        parser.add_argument("--tournament", default=None, help="the tournament's id (archive id)")
        parser.add_argument("--data", help="the venue data folder (see `manage.py venue`)")

    def handle(self, *args, url, tournament, **options):
        token = publish_token(options)
        if options.get("data"):  # a fresh laptop's folder: its database first
            call_command("migrate", interactive=False, verbosity=0)
        try:
            if tournament is None:
                self._list(fetchable(url=url, token=token))
                return
            fetched = fetch_tournament(url=url, token=token, archive_id=tournament)
        except (PublishError, FetchError, RegistryError) as error:
            raise CommandError(
                _("%(url)s: %(problem)s Nothing was fetched.")
                % {"url": url, "problem": error.message}
            ) from error
        if fetched.warning:
            self.stdout.write(self.style.WARNING(fetched.warning))
        self.stdout.write(
            _(
                "%(name)s (%(date)s) is on this laptop now, with %(entries)s registrations; "
                "it is published to %(url)s whenever it changes."
            )
            % {
                "name": fetched.tournament.name,
                "date": formats.date_format(fetched.tournament.date, "SHORT_DATE_FORMAT"),
                "entries": fetched.entries,
                "url": fetched.publication.url,
            }
        )

    def _list(self, rows):
        if not rows:
            self.stdout.write(_("The season server has no tournament of your club to fetch."))
            return
        self.stdout.write(_("Tournaments to fetch (give one with --tournament ID):"))
        for row in rows:
            date = parse_date(str(row.get("date") or ""))
            line = _("%(date)s  %(name)s  (%(count)s registrations)  --tournament %(id)s") % {
                "date": formats.date_format(date, "SHORT_DATE_FORMAT") if date else "?",
                "name": row.get("name", ""),
                "count": row.get("registrations", 0),
                "id": row["archive_id"],
            }
            since = parse_datetime(str(row.get("in_hall_since") or ""))
            if since is not None:
                line += " " + _("(fetched by a laptop on %(when)s)") % {
                    "when": formats.date_format(since, "SHORT_DATETIME_FORMAT")
                }
            self.stdout.write(line)
