"""Seed a venue data folder (``python -m tests.venue_seed DIR TABLES DEALS``): a tournament
whose first round has TABLES tables of four. Prints the tables (token, short code) as JSON.
For the venue server tests and `bench/bench_venue_phones.py`. ``python -m tests.venue_seed
--migrate-only DIR``: the empty, migrated venue database that tests/servers.py copies."""

import json
import os
import sys

ORGANISER_PASSWORD = "test-organiser-pw-7391"


def main() -> None:
    migrate_only = sys.argv[1] == "--migrate-only"  # an empty venue database, migrated
    if migrate_only:
        data, tables, deals = sys.argv[2], 0, 0
    else:
        data, tables, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    from venue.environment import prepare_environment

    prepare_environment(["manage.py", "venue", "--data", data])
    os.environ["DJANGO_SETTINGS_MODULE"] = "cego_club.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    if migrate_only:
        from django.db import connection

        connection.close()  # the last connection: SQLite writes the WAL back into the file
        print(json.dumps({"migrated": data}))
        return
    from django.contrib.auth import get_user_model

    from tests.factories import TournamentFactory
    from tests.tournaments.results.conftest import seat_table

    tournament = TournamentFactory(rules_slug="swm", deals_per_round=deals)
    seated = [seat_table(tournament=tournament, table_number=n) for n in range(1, tables + 1)]
    # An organiser for the tests that print score sheets (never created by the venue itself).
    get_user_model().objects.create_superuser("orga", "", ORGANISER_PASSWORD)
    print(
        json.dumps(
            {
                "tournament": tournament.pk,
                "tables": [{"token": t.token, "short_code": t.short_code} for t in seated],
            }
        )
    )


if __name__ == "__main__":
    main()
