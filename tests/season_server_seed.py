"""The season server's side of the live-season test (``python -m tests.season_server_seed
ACTION …``), run as its own process on the season server's database (``DATABASE_URL``), so
that the server can run on SQLite in a file of its own, apart from the test's database.

- ``setup``: migrated; two clubs (``CF Br`` with three members, ``CC Tr``), the season, a
  publishing token for each club. Prints JSON: tokens, the members' registry ids.
- ``prepare CLUB``: a tournament set up on the server by CLUB for the way back: 8
  registrations (the club's three members and five more), a team of two and a keep-apart
  pair. Prints JSON: the archive id and the players' registry ids.
- ``register ARCHIVE_ID``: the organiser registers one more player on the server (after the
  hand-over: kept for the hall). Prints JSON: the player's registry id, whether it waits.
- ``entries ARCHIVE_ID``: the tournament's entries (start number, player's registry id,
  checked in), its registrations for the hall (registry id, delivered) and whether the hall
  holds it.
- ``deals ARCHIVE_ID``: what the server holds of that tournament: its copies (there must be
  one), its season and host, and per deal (``r1-t1-d1``) its scores and history actions.
"""

import json
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
    import django

    django.setup()
    action = sys.argv[1]
    if action == "setup":
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        from clubs.models import Club, Membership, Player
        from publishing.server.services import issue_token
        from seasons.models import Season

        club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
        other = Club.objects.create(name="Cego-Club Triberg", short_name="CC Tr", town="Triberg")
        members = []
        for index, (first, last) in enumerate(
            [("Anna", "Faller"), ("Bernd", "Gut"), ("Clara", "Hu")]
        ):
            player = Player.objects.create(first_name=first, last_name=last)
            Membership.objects.create(player=player, club=club, member_number=f"M{index}")
            members.append(str(player.uuid))
        Season.objects.create(name=sys.argv[2], starts_on="2026-09-01", ends_on="2027-06-30")
        _row, token = issue_token(club=club, label="Laptop")
        _other, other_token = issue_token(club=other, label="Triberg")
        print(json.dumps({"token": token, "other_token": other_token, "members": members}))
    elif action == "prepare":
        from clubs.models import Club, Membership, Player
        from tournaments.models import Entry, KeepApart, Team

        club = Club.objects.get(short_name=sys.argv[2])
        players = list(Player.objects.filter(memberships__club=club).order_by("last_name"))
        for index, (first, last) in enumerate(
            [("Dora", "Ketterer"), ("Emil", "Lang"), ("Frieda", "Moser"), ("Gustav", "Noll")]
            + [("Hanna", "Ott")]
        ):
            player = Player.objects.create(first_name=first, last_name=last, birth_year=1970)
            Membership.objects.create(player=player, club=club, member_number=f"N{index}")
            players.append(player)
        from tests.factories import TournamentFactory

        tournament = TournamentFactory(
            name="Vorangemeldet",
            host_club=club,
            rules_slug="swm",
            deals_per_round=12,
            date="2026-11-28",
            season=None,
        )
        team = Team.objects.create(tournament=tournament, name="Bräunlingen 1", club=club)
        entries = [
            Entry.objects.create(
                tournament=tournament,
                player=player,
                number=number,
                team=team if number <= 2 else None,
            )
            for number, player in enumerate(players[:8], start=1)
        ]
        KeepApart.objects.create(tournament=tournament, first=entries[0], second=entries[3])
        print(
            json.dumps(
                {
                    "archive_id": str(tournament.archive_id),
                    "players": [str(p.uuid) for p in players[:8]],
                }
            )
        )
    elif action == "register":
        from clubs.models import Membership, Player
        from tournaments.models import HallRegistration, Tournament
        from tournaments.services.registration import register_players

        tournament = Tournament.objects.get(archive_id=sys.argv[2])
        player = Player.objects.create(first_name="Ida", last_name="Spätling", birth_year=1999)
        Membership.objects.create(player=player, club=tournament.host_club)
        register_players(tournament=tournament, players=[player])
        waiting = HallRegistration.objects.filter(tournament=tournament, player=player).exists()
        print(json.dumps({"player": str(player.uuid), "waiting": waiting}))
    elif action == "entries":
        from tournaments.models import HallRegistration, Tournament

        tournament = Tournament.objects.get(archive_id=sys.argv[2])
        entries = [
            [e.number, str(e.player.uuid), e.checked_in]
            for e in tournament.entries.select_related("player").order_by("number")
        ]
        hall = [
            [str(r.player.uuid), r.delivered_at is not None]
            for r in HallRegistration.objects.filter(tournament=tournament).select_related("player")
        ]
        print(
            json.dumps(
                {
                    "copies": Tournament.objects.filter(name=tournament.name).count(),
                    "entries": entries,
                    "hall": hall,
                    "held": tournament.in_hall_since is not None,
                    "teams": list(tournament.teams.values_list("name", flat=True)),
                    "keep_apart": tournament.keep_apart_pairs.count(),
                }
            )
        )
    elif action == "deals":
        from tournaments.models import Deal, DealChange, Tournament

        archive_id = sys.argv[2]
        copies = list(Tournament.objects.filter(archive_id=archive_id).select_related("season"))
        history: dict[int, list[str]] = {}
        for change in DealChange.objects.filter(
            deal__table__round__tournament__archive_id=archive_id
        ).order_by("changed_at", "pk"):
            history.setdefault(change.deal_id, []).append(change.action)
        deals = {
            f"r{deal.table.round.number}-t{deal.table.number}-d{deal.number}": {
                "scores": list(deal.scores),
                "status": deal.status,
                "history": history.get(deal.pk, []),
            }
            for deal in Deal.objects.filter(
                table__round__tournament__archive_id=archive_id
            ).select_related("table__round")
        }
        print(
            json.dumps(
                {
                    "copies": len(copies),
                    "season": copies[0].season.name if copies and copies[0].season else None,
                    "host": copies[0].host_club.short_name if copies else None,
                    "revision": copies[0].archive_revision if copies else None,
                    "deals": deals,
                }
            )
        )
    else:
        raise SystemExit(f"unknown action {action}")


if __name__ == "__main__":
    main()
