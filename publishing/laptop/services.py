"""Publishing on the laptop: the season server's registry taken, the tournaments queued."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import Category, Club, Membership, Player, Sanction
from clubs.search import club_key
from publishing.laptop.registry_answer import (
    MemberData,
    Registry,
    RegistryError,
    fetch,
    read_registry,
)
from publishing.models import Publication
from tournaments.models import Tournament

REGISTRY_PATH = "/api/registry/"


def load_registry(*, registry: Registry) -> dict[str, int]:
    """On the laptop: take the season server's clubs and players as they are there, by
    registry id (a club of the same short name takes the server's id), in one transaction:
    a ``RegistryError`` writes nothing. Only what the answer gives is stored: another
    club's members come without birth year, e-mail, member number or status (the server
    gives those of the token's club only), and what the laptop knew of them stays. The
    sanctions the answer lists replace the laptop's earlier copies (terms only: the desk
    warns, ``tournaments.selectors.sanctions``). Returns counts."""
    try:
        return _load_registry(registry=registry)
    except IntegrityError as error:
        raise RegistryError(
            _("The registry does not fit this laptop's: %(error)s") % {"error": error}
        ) from error


@transaction.atomic
def _load_registry(*, registry: Registry) -> dict[str, int]:
    counts = {"clubs": 0, "players_new": 0, "players_updated": 0, "sanctions": 0}
    club_of: dict[uuid.UUID, Club] = {}
    by_uuid = {c.uuid: c for c in Club.objects.filter(uuid__in=[c.uuid for c in registry.clubs])}
    for row in registry.clubs:
        club = by_uuid.get(row.uuid)
        if club is None:
            club = Club.objects.filter(short_name=row.short_name).first() or Club(
                short_name=row.short_name
            )
            club.uuid = row.uuid
            counts["clubs"] += 1
        if (
            club_key(club.name or "") != club_key(row.name)
            and Club.objects.filter(name=row.name).exclude(pk=club.pk).exists()
        ):
            raise RegistryError(_("Two clubs here are named %(name)s.") % {"name": row.name})
        club.name, club.town = row.name, row.town or club.town or "–"
        club.save()
        club_of[row.uuid] = club
    known = {p.uuid: p for p in Player.objects.filter(uuid__in=[r.uuid for r in registry.players])}
    for person in registry.players:
        player = known.get(person.uuid)
        if player is None:
            player = Player(uuid=person.uuid)
            counts["players_new"] += 1
        else:
            counts["players_updated"] += 1
        player.first_name, player.last_name = person.first_name, person.last_name
        player.category = person.category or player.category or "open"
        if person.personal is not None:
            player.birth_year, player.email = person.personal.birth_year, person.personal.email
            if person.personal.named_for_age is not None:
                player.named_for_age = person.personal.named_for_age
        if person.guest_given:
            player.guest_club = club_of[person.guest_club] if person.guest_club else None
            player.guest_club_name = person.guest_club_name
        player.save()
        for membership in person.memberships:
            _take_membership(player=player, club=club_of[membership.club], own=membership.own)
        known[person.uuid] = player
    if registry.sanctions is not None:
        Sanction.objects.filter(from_registry=True).delete()
        Sanction.objects.bulk_create(
            Sanction(
                player=known[row.player],
                starts_on=row.starts_on,
                ends_on=row.ends_on,
                tournaments=row.tournaments,
                from_registry=True,
            )
            for row in registry.sanctions
        )
        counts["sanctions"] = len(registry.sanctions)
    return counts


def _take_membership(*, player: Player, club: Club, own: MemberData | None) -> None:
    """The player's membership of ``club`` here: with number, status and dates where the
    registry gave them (the token's club's own), else only that it exists."""
    existing = Membership.objects.filter(player=player, club=club).first()
    if own is None:
        if existing is None:
            Membership.objects.create(player=player, club=club)
        return
    number = own.member_number
    if (
        number
        and Membership.objects.filter(club=club, member_number=number)
        .exclude(player=player)
        .exists()
    ):
        number = ""
    membership = existing or Membership(player=player, club=club)
    membership.member_number, membership.status = number, own.status
    membership.since, membership.left_on = own.since, own.left_on
    membership.save()


def fetch_registry(*, url: str, token: str) -> dict[str, int]:
    """On the laptop: the season server's registry, as the token's club may see it,
    checked whole (``RegistryError``: nothing written) and taken in one transaction;
    ``PublishError`` when the server is not reached or refuses the token."""
    raw = fetch(url, token=token, path=REGISTRY_PATH)
    registry = read_registry(raw, categories=Category.values)
    return load_registry(registry=registry)


# The laptop's queue.


def follow(*, url: str, token: str, tournaments=None) -> list[Publication]:
    """Queue every tournament here (or those given) for ``url``: sent whenever it changes."""
    rows = []
    for tournament in tournaments if tournaments is not None else Tournament.objects.all():
        publication, _created = Publication.objects.update_or_create(
            tournament=tournament, url=url, defaults={"token": token}
        )
        rows.append(publication)
    return rows
