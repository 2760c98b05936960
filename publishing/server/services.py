"""Publishing on the season server: a club's tokens, archives received.

A token is shown once (``issue_token``) and stored as its SHA-256 only. A token publishes
only tournaments hosted by its club; a revoked token publishes nothing. A received archive
goes through ``tournaments.services.archive_plan`` and ``archive_write`` like an uploaded
one: the same content twice is one tournament (content hash), a newer revision replaces the
copy, an older one is refused. Nobody is there to answer a preview: clubs the server does not
know are left out (their players enter without a club) and uncertain players take the
preview's first offer.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.services.imports import NO_CLUB, ClubChoice
from publishing.models import PublishToken
from tournaments.archive_format import ArchiveError, kind_of
from tournaments.models import Seat, Tournament
from tournaments.services.archive_plan import plan_archive
from tournaments.services.archive_write import ImportOutcome, import_tournament_archive


class NotYourClub(Exception):
    """The token's club does not host this tournament."""


def hash_token(*, raw: str) -> str:
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
        token_hash=hash_token(raw=raw),
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


def token_for(*, raw: str) -> PublishToken | None:
    """The live token ``raw`` is, or None (unknown or revoked)."""
    if not raw:
        return None
    return (
        PublishToken.objects.select_related("club")
        .filter(token_hash=hash_token(raw=raw), revoked_at__isnull=True)
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


def host_club_of(*, data: Mapping[str, Any]) -> Club | None:
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
    if host_club_of(data=data) != token.club or (
        existing and existing.host_club_id != token.club_id
    ):
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
