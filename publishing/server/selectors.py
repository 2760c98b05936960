"""What the season server hands a laptop before the day: its registry (clubs and players with
their registry ids and memberships), as the token's club may see it, and the sanctions still
to come (terms only, never reasons). Seven queries, whatever the registry's size."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from clubs.models import Club, Membership, Player
from clubs.permissions import club_registry_memberships, club_registry_players
from tournaments.archive_format import archive_hash
from tournaments.selectors.archive import tournament_archive
from tournaments.selectors.sanctions import still_to_come

REGISTRY_FORMAT = "cego-club/registry"
REGISTRY_VERSION = 2


def registry(*, club: Club) -> dict[str, Any]:
    """Every club and player, for a laptop of ``club`` (its publishing token's club): the
    club's own members in full (birth year, e-mail, member number, status and dates, as the
    club's organisers see them, with ``named_for_age``, the consent to be named as youngest or
    oldest; ``clubs.permissions.club_registry_players``), everybody else
    as the public pages show them (name, category, club, registry id; a guest's club
    without membership, ``guest_club``/``guest_club_name``). Version 2: a player row without
    ``birth_year``/``email``, a membership without ``member_number``/``status`` says nothing
    about them (a laptop keeps what it has); nor does one without ``guest_club`` and
    ``guest_club_name`` (an older server). ``sanctions`` (an addition to version 2 a laptop
    of an earlier release passes over): every ban not lifted that has not run out, as
    ``player`` (registry id), ``from``, ``until`` (the last day; for a ban of N tournaments
    the date of the N-th championship tournament once the calendar holds it, else null) and
    ``tournaments`` (N, or null): the terms the desk needs to warn, never the reason or who
    decided."""
    clubs = list(Club.objects.order_by("pk").values("pk", "uuid", "name", "short_name", "town"))
    uuid_of = {row["pk"]: str(row["uuid"]) for row in clubs}
    own_ids = set(club_registry_players(club, Player.objects.all()).values_list("pk", flat=True))
    full = {
        row["pk"]: row
        for row in club_registry_memberships(club, Membership.objects.all()).values(
            "pk", "member_number", "status", "since", "left_on"
        )
    }
    memberships: dict[int, list[dict[str, Any]]] = {}
    for pk, player_id, club_id in Membership.objects.order_by("pk").values_list(
        "pk", "player_id", "club_id"
    ):
        row: dict[str, Any] = {"club": uuid_of[club_id]}
        if pk in full:
            own = full[pk]
            row.update(
                member_number=own["member_number"],
                status=own["status"],
                since=own["since"].isoformat() if own["since"] else None,
                left_on=own["left_on"].isoformat() if own["left_on"] else None,
            )
        memberships.setdefault(player_id, []).append(row)
    players = []
    player_uuids: dict[int, str] = {}
    for p in Player.objects.order_by("pk").values(
        "pk",
        "uuid",
        "first_name",
        "last_name",
        "category",
        "birth_year",
        "email",
        "named_for_age",
        "guest_club_id",
        "guest_club_name",
    ):
        player_uuids[p["pk"]] = str(p["uuid"])
        row = {
            "uuid": str(p["uuid"]),
            "first_name": p["first_name"],
            "last_name": p["last_name"],
            "category": p["category"],
            # A guest's club without membership, as the public standings show it.
            "guest_club": uuid_of[p["guest_club_id"]] if p["guest_club_id"] else None,
            "guest_club_name": p["guest_club_name"],
        }
        if p["pk"] in own_ids:
            row.update(
                birth_year=p["birth_year"], email=p["email"], named_for_age=p["named_for_age"]
            )
        row["memberships"] = memberships.get(p["pk"], [])
        players.append(row)
    return {
        "format": REGISTRY_FORMAT,
        "version": REGISTRY_VERSION,
        "club": str(club.uuid),
        "clubs": [
            {
                "uuid": str(c["uuid"]),
                "name": c["name"],
                "short_name": c["short_name"],
                "town": c["town"],
            }
            for c in clubs
        ],
        "players": players,
        "sanctions": [
            {
                "player": player_uuids[terms.player_id],
                "from": terms.starts_on.isoformat(),
                "until": terms.last_day.isoformat() if terms.last_day else None,
                "tournaments": terms.tournaments,
            }
            for terms in still_to_come(today=timezone.localdate())
        ],
    }


def hall_archive(*, tournament, club: Club) -> dict[str, Any]:
    """The archive of a tournament set up on the season server, as a laptop of ``club`` may
    take it (``publishing.server.handover``): birth year and member number only of the club's own
    members (``clubs.permissions.club_registry_players``, as the registry gives them),
    everybody else as the public pages show them. Its ``content_hash`` is of that content."""
    archive = tournament_archive(tournament=tournament)
    uuids = [player["uuid"] for player in archive["players"]]
    shown = {
        str(value)
        for value in club_registry_players(club, Player.objects.filter(uuid__in=uuids)).values_list(
            "uuid", flat=True
        )
    }
    for player in archive["players"]:
        if player["uuid"] not in shown:
            player["birth_year"], player["member_number"] = None, ""
    archive["content_hash"] = archive_hash(archive)
    return archive
