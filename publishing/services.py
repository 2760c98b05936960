"""Publishing: tokens on the season server, receiving archives, the registry on the laptop,
and the laptop's queue of tournaments to send.

A token is shown once (``issue_token``) and stored as its SHA-256 only. A token publishes
only tournaments hosted by its club; a revoked token publishes nothing. A received archive
goes through ``tournaments.services.archive_plan`` and ``archive_write`` like an uploaded one: the same content twice is
one tournament (content hash), a newer revision replaces the copy, an older one is refused.
Nobody is there to answer a preview: clubs the server does not know are left out (their
players enter without a club) and uncertain players take the preview's first offer.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Category, Club, Membership, Player, Sanction
from clubs.search import club_key
from clubs.services.imports import NO_CLUB, ClubChoice
from publishing.client import PublishError
from publishing.models import Publication, PublishToken
from publishing.registry_answer import MemberData, Registry, RegistryError, fetch, read_registry
from tournaments.archive_format import ArchiveError, kind_of
from tournaments.models import Seat, Tournament
from tournaments.services.archive_plan import plan_archive
from tournaments.services.archive_write import ImportOutcome, import_tournament_archive

PUBLISH_PATH = "/api/publish/"
REGISTRY_PATH = "/api/registry/"


class NotYourClub(Exception):
    """The token's club does not host this tournament."""


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.strip().encode()).hexdigest()


@transaction.atomic
def issue_token(
    *, club: Club, user: User | None = None, label: str = ""
) -> tuple[PublishToken, str]:
    """A new token for ``club``: the row and the token itself (shown once, kept nowhere)."""
    raw = secrets.token_urlsafe(32)
    token = PublishToken.objects.create(
        club=club,
        label=label.strip()[:80],
        token_hash=hash_token(raw),
        created_by=user if getattr(user, "pk", None) else None,
    )
    return token, raw


@transaction.atomic
def revoke_token(*, token: PublishToken) -> PublishToken:
    locked = PublishToken.objects.select_for_update().get(pk=token.pk)
    if locked.revoked_at is None:
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])
    return locked


def token_for(raw: str) -> PublishToken | None:
    """The live token ``raw`` is, or None (unknown or revoked)."""
    if not raw:
        return None
    return (
        PublishToken.objects.select_related("club")
        .filter(token_hash=hash_token(raw), revoked_at__isnull=True)
        .first()
    )


def note_token_used(*, token: PublishToken) -> None:
    """Mark the token used now (its page shows when: a lost laptop's last call)."""
    PublishToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())


def _registry_id(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def host_club_of(data: Mapping[str, Any]) -> Club | None:
    settings = data.get("tournament") or {}
    short = settings.get("host_club") or ""
    for club in data.get("clubs") or []:
        if isinstance(club, Mapping) and club.get("short_name") == short:
            registry_id = _registry_id(club.get("uuid"))
            found = Club.objects.filter(uuid=registry_id).first() if registry_id else None
            if found is not None:
                return found
    return Club.objects.filter(short_name=short).first() if short else None


@transaction.atomic
def receive_archive(*, token: PublishToken, data: Mapping[str, Any]) -> ImportOutcome:
    """Import a published archive; NotYourClub if the token's club does not host it,
    ArchiveError if it cannot be imported (nothing written)."""
    archive_id = _registry_id(data.get("archive_id"))
    existing = Tournament.objects.filter(archive_id=archive_id).first() if archive_id else None
    if host_club_of(data) != token.club or (existing and existing.host_club_id != token.club_id):
        raise NotYourClub(
            _("This token publishes the tournaments of %(club)s only.") % {"club": token.club}
        )
    # Member numbers are the token's club's to name: another club's guest is found by registry
    # id or name, never by quoting that club's numbers (as for an upload).
    own = frozenset({token.club_id})
    plan = plan_archive(data=data, own_club_ids=own)
    if existing is not None:
        played = played_in(tournament=existing, deletes=list(plan.deletes), stored=plan.stored)
        if played:
            raise ArchiveError(
                _(
                    "The archive lacks %(what)s that the season server holds; nothing was "
                    "changed. A laptop restored from a backup publishes with `venue "
                    "--publish-to`, which first takes back what only the server holds."
                )
                % {"what": played}
            )
    choices = {unknown.key: ClubChoice(NO_CLUB) for unknown in plan.unknown_clubs}
    outcome = import_tournament_archive(
        data=data, allow_unfinished=True, club_choices=choices, actor=str(token), own_club_ids=own
    )
    PublishToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return outcome


def played_in(*, tournament: Tournament, deletes: list[str], stored: Mapping[str, str]) -> str:
    """What of ``deletes`` holds played deals here, said for the organiser ("" if nothing)."""
    deals = [key for key in deletes if kind_of(key) == "deal"]
    if deals:
        return _("deals (%(count)s)") % {"count": len(deals)}
    stored_deals = [key[len("deal:") :] for key in stored if kind_of(key) == "deal"]
    for key in deletes:
        kind, tail = kind_of(key), key.split(":", 1)[1]
        if kind == "table" and any(d.startswith(f"{tail}-d") for d in stored_deals):
            return _("table %(table)s with its deals") % {"table": tail}
        if kind == "round" and any(d.startswith(f"r{tail}-") for d in stored_deals):
            return _("round %(round)s with its deals") % {"round": tail}
    numbers = [int(key.split(":", 1)[1]) for key in deletes if kind_of(key) == "entry"]
    if numbers and (
        Seat.objects.filter(
            table__round__tournament=tournament,
            entry__number__in=numbers,
            table__deals__isnull=False,
        ).exists()
    ):
        return _("players who played deals")
    return ""


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


__all__ = ["ArchiveError", "NotYourClub", "PublishError", "RegistryError"]
