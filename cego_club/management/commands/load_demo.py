import datetime as dt
import random
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.demo import load_members_and_fees
from clubs.models import Club, ClubRole, Membership, Player
from clubs.services.admin import save_club
from ratings.services import bring_up_to_date
from seasons.models import Season
from tournaments import demo, rule_snapshot
from tournaments.models import Deal, Round, Tournament
from tournaments.seating import sitting_out_position
from tournaments.services import checkin, draws, phone_entry, setup

DEMO_USERNAME = "organisator"
DEMO_PASSWORD = "cego-demo"
# Organiser of the second club: sees the host club's tournaments only as the public does.
GUEST_USERNAME = "gast"
# Referee of the host club's upcoming tournament: corrects results there, creates nothing.
REFEREE_USERNAME = "schiri"


def server_address(address: str) -> str:
    """The address the server really uses: the one runserver is given (``make run`` passes
    the same ADDRESS to both), else PUBLIC_BASE_URL, else runserver's default."""
    if address:
        host, _, port = address.rpartition(":")
        if not host:  # "8600" means 127.0.0.1:8600, as for runserver
            host = "127.0.0.1"
        return f"http://{host}:{port}/"
    public = getattr(settings, "PUBLIC_BASE_URL", "")
    return f"{public}/" if public else "http://127.0.0.1:8000/"


class Command(BaseCommand):
    help = (
        "Load demo data: a club, a season, 40 players, a finished tournament with two rounds "
        "of 24 deals and an upcoming one with teams, and three finished tournaments with teams "
        "at three other host clubs; with --players N --rounds R also a finished tournament of "
        "that size. Safe to run twice."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--address",
            default="",
            help=(
                "Where the server will listen (as given to runserver, e.g. 127.0.0.1:8600), "
                "to print the right login address. Default: PUBLIC_BASE_URL, else runserver's "
                "own default 127.0.0.1:8000."
            ),
        )
        parser.add_argument(
            "--players",
            type=int,
            help=(
                "Also build a finished tournament of this many players (a multiple of 4, at "
                f"most {demo.SIZED_MAX_PLAYERS}), 24 deals a table a round, for trials and "
                "benchmarks."
            ),
        )
        parser.add_argument(
            "--rounds",
            type=int,
            help=f"The rounds of that tournament (1 to {demo.SIZED_MAX_ROUNDS}; default 3).",
        )
        parser.add_argument(
            "--seed",
            type=int,
            default=demo.DEMO_SEED,
            help="The seed of that tournament's draws and deals (the same seed, the same data).",
        )

    @transaction.atomic
    def handle(self, *args, **options):
        if not settings.DEMO_DATA_ALLOWED:
            raise CommandError(
                "load_demo makes logins whose password is published (cego-demo): it runs in "
                "debug mode only (make run), never on a real server's database. Nothing was "
                "changed."
            )
        sized_players, sized_rounds = options.get("players"), options.get("rounds")
        if sized_players is None and sized_rounds is not None:
            raise CommandError(
                gettext(
                    "--rounds is the number of rounds of --players: give both. Nothing was changed."
                )
            )
        if sized_players is not None:
            sized_rounds = 3 if sized_rounds is None else sized_rounds
            problem = demo.sized_demo_problem(sized_players, sized_rounds)
            if problem:
                raise CommandError(f"{problem} {gettext('Nothing was changed.')}")
        club, _ = Club.objects.get_or_create(
            short_name=demo.DEMO_CLUB["short_name"], defaults=demo.DEMO_CLUB
        )
        if not club.public_player_pages:  # a demo loaded before the clubs could choose
            club = save_club(
                club=club,
                name=club.name,
                short_name=club.short_name,
                town=club.town,
                public_player_pages=True,
            )
        season, _ = Season.objects.get_or_create(
            name=demo.DEMO_SEASON["name"],
            defaults={"starts_on": dt.date(2026, 11, 1), "ends_on": dt.date(2027, 4, 30)},
        )
        players = []
        for number, fields in enumerate(demo.demo_players(), start=1):
            player, _ = Player.objects.get_or_create(
                first_name=fields["first_name"], last_name=fields["last_name"], defaults=fields
            )
            Membership.objects.get_or_create(
                player=player, club=club, defaults={"member_number": f"{number:03d}"}
            )
            players.append(player)

        finished = self._tournament(club, season, demo.DEMO_FINISHED_NAME, dt.date(2026, 11, 14))
        if not finished.round_set.exists():
            self._register(finished, players)
            self._play(finished)
        upcoming = self._tournament(club, season, demo.DEMO_TOURNAMENT_NAME, dt.date(2026, 11, 28))
        self._register(upcoming, players)
        load_members_and_fees(
            club=club, season=season, players=players, tournaments=[finished, upcoming]
        )
        # The season's other host clubs, their tournaments and the teams.
        demo.load_season_demo(season=season, players=players, home_club=club)
        guest_club, _ = Club.objects.get_or_create(
            short_name=demo.GUEST_CLUB["short_name"], defaults=demo.GUEST_CLUB
        )

        # Roles, not the staff flag, open the app: the demo users cannot enter the Django
        # admin (create a superuser with `manage.py createsuperuser` for that).
        organiser = self._user(DEMO_USERNAME)
        ClubRole.objects.get_or_create(user=organiser, club=club, role=ClubRole.Role.ORGANISER)
        guest = self._user(GUEST_USERNAME)
        ClubRole.objects.get_or_create(user=guest, club=guest_club, role=ClubRole.Role.ORGANISER)
        referee = self._user(REFEREE_USERNAME)
        if not upcoming.referees.filter(pk=referee.pk).exists():
            setup.set_referees(
                tournament=upcoming,
                referees=[*upcoming.referees.all(), referee],
                user=organiser,
            )
        if sized_players is not None:
            self._sized(sized_players, sized_rounds, options["seed"], season, club, organiser)
        # The rating across seasons of the finished demo tournaments (some were finished by
        # hand above, without the save that tells the ratings).
        bring_up_to_date(reason="load_demo")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready at {server_address(options['address'])} . Logins (password "
                f"{DEMO_PASSWORD}): {DEMO_USERNAME} (organiser, {club.short_name}), "
                f"{GUEST_USERNAME} (organiser, {guest_club.short_name}), "
                f"{REFEREE_USERNAME} (referee of “{upcoming.name}”)"
            )
        )

    def _sized(self, players, rounds, seed, season, club, organiser) -> None:
        """The demo of any size: one more finished tournament, timed."""
        start, cpu = time.perf_counter(), time.process_time()
        tournament, built = demo.load_sized_demo(
            players=players,
            rounds=rounds,
            seed=seed,
            season=season,
            host_club=club,
            organiser=organiser,
        )
        deals = Deal.objects.filter(table__round__tournament=tournament).count()
        if built:
            message = gettext(
                "“%(name)s”: %(deals)s deals, built in %(seconds).1f s (%(cpu).1f s of CPU)."
            )
        else:
            message = gettext("“%(name)s” exists already (%(deals)s deals): left as it is.")
        self.stdout.write(
            message
            % {
                "name": tournament.name,
                "deals": deals,
                "seconds": time.perf_counter() - start,
                "cpu": time.process_time() - cpu,
            }
        )

    def _user(self, username: str):
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first()
        if user is None:
            user = user_model.objects.create_user(username, "", DEMO_PASSWORD)
        elif user.is_staff or user.is_superuser:
            # Older demo databases made the organiser a superuser: roles decide now.
            user.is_staff = user.is_superuser = False
            user.save(update_fields=["is_staff", "is_superuser"])
        return user

    def _tournament(self, club, season, name, date) -> Tournament:
        tournament = Tournament.objects.filter(name=name, host_club=club).first()
        if tournament is None:
            tournament = setup.create_tournament(
                name=name,
                host_club=club,
                season=season,
                date=date,
                venue="Stadthalle Bräunlingen",
                rules_slug="swm",
            )
        return tournament

    def _register(self, tournament, players) -> None:
        registered = set(tournament.entries.values_list("player_id", flat=True))
        for player in players:
            if player.pk not in registered:
                setup.register_player(tournament=tournament, player=player)

    def _play(self, tournament) -> None:
        """Check everyone in, draw both rounds with fixed seeds and enter every deal."""
        for entry in tournament.entries.all():
            checkin.set_checked_in(entry=entry, checked_in=True)
            if not entry.plays_free:
                checkin.set_fee_paid(entry=entry, paid=True)
        rng = random.Random(demo.DEMO_SEED)
        rules = rule_snapshot.rule_source_of(tournament)
        for number in range(1, tournament.rounds + 1):
            round_ = draws.draw_next_round(
                tournament=tournament, number=number, seed=demo.DEMO_SEED + number
            )
            if round_.awaiting_release:  # checked and shown, as on the day
                round_ = draws.release_draw(round=round_, user=None)
            for table in round_.tables.order_by("number"):
                size = table.seats.count()
                for deal_number in range(1, tournament.deals_per_round + 1):
                    out = sitting_out_position(
                        rules=rules, table_size=size, deal_number=deal_number
                    )
                    active = [seat for seat in range(size) if seat != out]
                    phone_entry.enter_deal(
                        table=table,
                        number=deal_number,
                        inputs=demo.plausible_deal(rng, rules=rules, active_seats=active),
                        actor="Demo",
                    )
            Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
        # the finished step: final standings and prizes, results locked
        Tournament.objects.filter(pk=tournament.pk).update(finished_at=timezone.now())
