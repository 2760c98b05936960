import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments import demo
from tournaments.models import Club, Membership, Player, Season, Tournament
from tournaments.services import setup as services

DEMO_USERNAME = "organisator"
DEMO_PASSWORD = "cego-demo"


class Command(BaseCommand):
    help = "Load demo data (a club, a season, a tournament with 40 players). Safe to run twice."

    @transaction.atomic
    def handle(self, *args, **options):
        club, _ = Club.objects.get_or_create(
            short_name=demo.DEMO_CLUB["short_name"], defaults=demo.DEMO_CLUB
        )
        season, _ = Season.objects.get_or_create(
            name=demo.DEMO_SEASON["name"],
            defaults={"starts_on": dt.date(2026, 11, 1), "ends_on": dt.date(2027, 4, 30)},
        )
        tournament = Tournament.objects.filter(
            name=demo.DEMO_TOURNAMENT_NAME, host_club=club
        ).first()
        if tournament is None:
            tournament = services.create_tournament(
                name=demo.DEMO_TOURNAMENT_NAME,
                host_club=club,
                season=season,
                date=dt.date(2026, 11, 28),
                venue="Stadthalle Bräunlingen",
                rules_slug="swm",
            )
        for number, fields in enumerate(demo.demo_players(), start=1):
            player, _ = Player.objects.get_or_create(
                first_name=fields["first_name"],
                last_name=fields["last_name"],
                defaults=fields,
            )
            Membership.objects.get_or_create(
                player=player, club=club, defaults={"member_number": f"{number:03d}"}
            )
            if not tournament.entries.filter(player=player).exists():
                services.register_player(tournament=tournament, player=player)

        user_model = get_user_model()
        if not user_model.objects.filter(username=DEMO_USERNAME).exists():
            user_model.objects.create_superuser(DEMO_USERNAME, "", DEMO_PASSWORD)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready. Organiser login: {DEMO_USERNAME} / {DEMO_PASSWORD} "
                "at http://127.0.0.1:8000/admin/"
            )
        )
