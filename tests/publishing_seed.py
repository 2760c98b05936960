"""The venue side of the publishing test (``python -m tests.publishing_seed ACTION DIR …``),
run as its own process on the venue's data folder, as the organiser's desk would act.

- ``seed DIR CLUB SEASON``: a tournament hosted by CLUB (fetched from the season server) in a
  season named SEASON; one table of four: three of the club's fetched players and one player
  new at the venue. Prints JSON: tournament, table token, archive id, the players' ids.
- ``correct DIR TOURNAMENT``: deal 1 of table 1 corrected (the Cego lost with 20).
- ``fetched DIR ARCHIVE_ID``: what the venue holds of a fetched tournament: its entries
  (start number, player's registry id), teams, keep-apart pairs, publications.
- ``draw DIR ARCHIVE_ID``: the first eight entries checked in, round 1 drawn. Prints JSON:
  the tournament, the first table's token.
- ``deals DIR TOURNAMENT``: per deal (``r1-t1-d1``) its scores, status and history actions.
- ``enter DIR TOURNAMENT NUMBER DECLARER``: a deal of table 1 entered at the desk (a Cego
  won with 45 by the seat DECLARER), the venue not running.
- ``conflicts DIR TOURNAMENT``: the keys waiting for the desk's choice.
- ``settle DIR TOURNAMENT CHOICE``: every open conflict settled (``laptop`` or ``server``).
"""

import json
import os
import sys


def main() -> None:
    action, data = sys.argv[1], sys.argv[2]
    from venue.environment import prepare_environment

    prepare_environment(["manage.py", "venue", "--data", data])
    os.environ["DJANGO_SETTINGS_MODULE"] = "cego_club.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    from clubs.models import Club, Player
    from seasons.models import Season
    from tests.factories import EntryFactory, TournamentFactory
    from tournaments.models import Deal, Round, Seat, Table
    from tournaments.services.phone_entry import revise_deal

    if action == "seed":
        club = Club.objects.get(short_name=sys.argv[3])
        season = Season.objects.create(
            name=sys.argv[4], starts_on="2026-09-01", ends_on="2027-06-30"
        )
        tournament = TournamentFactory(
            rules_slug="swm", deals_per_round=12, host_club=club, season=season, date="2026-11-28"
        )
        players = list(Player.objects.filter(memberships__club=club).order_by("last_name")[:3])
        players.append(Player.objects.create(first_name="Nele", last_name="Neuhier"))
        round_ = Round.objects.create(tournament=tournament, number=1, draw_seed=1)
        table = Table.objects.create(round=round_, number=1)
        for position, player in enumerate(players):
            entry = EntryFactory(tournament=tournament, player=player, number=position + 1)
            Seat.objects.create(table=table, round=round_, position=position, entry=entry)
        print(
            json.dumps(
                {
                    "tournament": tournament.pk,
                    "token": table.token,
                    "archive_id": str(tournament.archive_id),
                    "players": [str(p.uuid) for p in players],
                }
            )
        )
    elif action == "correct":
        deal = Deal.objects.get(table__round__tournament_id=int(sys.argv[3]), number=1)
        revised = revise_deal(
            deal=deal,
            inputs={"contract": "eine", "declarer": 2, "declarer_points": 20},
            expected_version=deal.version,
            actor="desk",
            reason="wrong card points",
        )
        print(json.dumps({"scores": list(revised.scores)}))
    elif action == "fetched":
        from publishing.models import Publication
        from tournaments.models import KeepApart, Team, Tournament

        tournament = Tournament.objects.get(archive_id=sys.argv[3])
        print(
            json.dumps(
                {
                    "tournament": tournament.pk,
                    "entries": [
                        [e.number, str(e.player.uuid)]
                        for e in tournament.entries.select_related("player").order_by("number")
                    ],
                    "teams": list(
                        Team.objects.filter(tournament=tournament).values_list("name", flat=True)
                    ),
                    "keep_apart": KeepApart.objects.filter(tournament=tournament).count(),
                    "publications": list(
                        Publication.objects.filter(tournament=tournament).values_list(
                            "url", flat=True
                        )
                    ),
                }
            )
        )
    elif action == "draw":
        from tournaments.models import Tournament
        from tournaments.services.checkin import set_checked_in
        from tournaments.services.draws import draw_next_round, release_draw

        tournament = Tournament.objects.get(archive_id=sys.argv[3])
        for entry in tournament.entries.order_by("number")[:8]:
            set_checked_in(entry=entry, checked_in=True)
        round_ = draw_next_round(tournament=tournament, number=1, seed=7)
        if round_.awaiting_release:  # checked, then shown to the players, as the desk does
            round_ = release_draw(round=round_, user=None)
        table = round_.tables.order_by("number").first()
        print(json.dumps({"tournament": tournament.pk, "token": table.token}))
    elif action == "deals":
        from tournaments.models import DealChange

        history: dict[int, list[str]] = {}
        for change in DealChange.objects.filter(
            deal__table__round__tournament_id=int(sys.argv[3])
        ).order_by("changed_at", "pk"):
            history.setdefault(change.deal_id, []).append(change.action)
        deals = {
            f"r{deal.table.round.number}-t{deal.table.number}-d{deal.number}": {
                "scores": list(deal.scores),
                "status": deal.status,
                "history": history.get(deal.pk, []),
            }
            for deal in Deal.objects.filter(
                table__round__tournament_id=int(sys.argv[3])
            ).select_related("table__round")
        }
        print(json.dumps({"deals": deals}))
    elif action == "enter":
        from tournaments.services.phone_entry import enter_deal

        table = Table.objects.get(round__tournament_id=int(sys.argv[3]), number=1)
        contract = {"contract": "cego", "declarer": int(sys.argv[5]), "declarer_points": 45}
        deal = enter_deal(table=table, number=int(sys.argv[4]), inputs=contract, actor="desk")
        print(json.dumps({"scores": list(deal.scores)}))
    elif action in ("conflicts", "settle"):
        from publishing.laptop import merging
        from publishing.models import PublishConflict

        waiting = PublishConflict.objects.filter(
            publication__tournament_id=int(sys.argv[3]), settled_at__isnull=True
        ).order_by("key")
        keys = [conflict.key for conflict in waiting]
        if action == "settle":
            for conflict in waiting:
                merging.settle(conflict=conflict, choice=sys.argv[4], user=None)
        print(json.dumps({"conflicts": keys}))


if __name__ == "__main__":
    main()
