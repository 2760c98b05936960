"""The records an archive's entries need here (part of the write: ``archive_rows``): its
clubs, with the choices for unknown ones applied, and its players, matched, chosen or created
(with the archive's registry id where it is free). Who they are was worked out by the plan
(``archive_players``)."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractBaseUser

from clubs.models import Club, Membership, Player
from clubs.services.imports import NEW, NO_CLUB, Plan, PlanRow
from clubs.services.imports import _apply_club_choices as apply_club_choices
from tournaments.services.archive_plan import ArchivePlan
from tournaments.services.archive_players import ArchiveClubs


def clubs_here(
    *, plan: ArchivePlan, user: AbstractBaseUser | None
) -> tuple[dict[str, Club | None], frozenset[int]]:
    """The archive's clubs, after the choices for unknown ones are applied, and the ids of
    the clubs created for it."""
    rows = [PlanRow(line=0, status=NEW, club_key=unknown.key) for unknown in plan.unknown_clubs]
    created_ids, _remembered = apply_club_choices(
        Plan(rows=rows, columns=(), unknown_columns=(), unknown_clubs=plan.unknown_clubs),
        user=user,
    )
    clubs = ArchiveClubs(plan.clubs, None)
    found = {short_name: clubs.club(short_name) for short_name in plan.clubs}
    for unknown in plan.unknown_clubs:  # "no club": its players enter without a club
        if unknown.choice is not None and unknown.choice.action == NO_CLUB:
            for short_name, key in clubs.key_of.items():
                if key == unknown.key:
                    found[short_name] = None
    return found, created_ids


def _new_player(row, clubs: dict[str, Club | None], taken_ids: set, plan, created_club_ids):
    """A new record: a membership in the archive's club where the importer runs it; else
    that club shown as the player's without one (``Player.guest_club``), or an unknown
    club's name as the archive gives it (``guest_club_name``, until the club is created or
    its spelling mapped here: ``clubs.services.players.place_named_guests``)."""
    data = row.data
    player = Player(
        first_name=row.first_name,
        last_name=row.last_name,
        birth_year=data.get("birth_year"),
        category=data.get("category") or "open",
    )
    registry_id = str(data.get("uuid") or "")
    if _is_uuid(registry_id) and registry_id not in taken_ids:
        player.uuid = registry_id
        taken_ids.add(registry_id)
    club = clubs.get(row.club_name)
    runs_club = club is not None and (
        plan.own_club_ids is None or club.pk in plan.own_club_ids or club.pk in created_club_ids
    )
    if club is not None and not runs_club:
        player.guest_club = club
    elif club is None and row.club_name:
        named = plan.clubs.get(row.club_name, {}).get("name") or row.club_name
        player.guest_club_name = str(named).strip()[:120]
    player.save()
    if runs_club and club is not None:
        number = str(data.get("member_number") or "").strip()
        taken = number and Membership.objects.filter(club=club, member_number=number).exists()
        Membership.objects.create(player=player, club=club, member_number="" if taken else number)
    return player


def players_here(
    *, plan: ArchivePlan, clubs: dict[str, Club | None], created_club_ids: frozenset[int]
) -> tuple[dict[str, Player], int]:
    """The players of the entries to write as records here: matched, chosen, or created
    (with the archive's registry id where it is free, so that its next revision finds
    them)."""
    wanted = [str(row.data.get("uuid")) for row in plan.players if row.player is None]
    taken_ids = {
        str(u)
        for u in Player.objects.filter(uuid__in=[u for u in wanted if _is_uuid(u)]).values_list(
            "uuid", flat=True
        )
    }
    player_of: dict[str, Player] = {}
    created = 0
    for row in plan.players:
        if row.player is None:
            row.player = _new_player(row, clubs, taken_ids, plan, created_club_ids)
            created += 1
        player_of[row.key] = row.player
    return player_of, created


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
