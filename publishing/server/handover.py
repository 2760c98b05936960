"""The way back, on the season server: a tournament set up here goes to the hall.

The walk: ``views.hall_list_endpoint`` → ``tournaments_for_the_hall`` (the token's club's
tournaments set up here, not finished) → the laptop picks one → ``views.hall_fetch_endpoint``
→ ``hand_over`` here: the tournament's archive as the token's club may see it
(``selectors.hall_archive``), and the server's position, the state digest and each item's
digest. The first hand-over stores those digests (``ArchiveItem``) and sets
``archive_revision`` 0: from then on ``publishing.server.inbox`` treats the tournament like a
laptop's copy and applies the laptop's batches onto that state, and
``clubs.permissions.held_in_hall`` keeps its day's content read-only on the server's pages.
The laptop (``publishing.laptop.fetching``) imports the archive and starts its publication at that
position, so its first batch is only what differs.

Fetched again (the same laptop after a reinstall, or a second laptop replacing the first):
allowed, with a warning naming when and with which token it was fetched before; the answer is
the position the server holds now (whatever the first laptop sent), so the new laptop sends
the difference from there. Two laptops writing one tournament at once is what the batch
protocol survives (each finds the other's state and sends its difference), not what a day
should run on.

Registrations made here after the hand-over are ``HallRegistration`` rows
(``tournaments.services.registration``): the laptop asks for them (``registrations_after``)
while it has no round drawn and registers them itself; they come back with its next batch as
entries, and ``mark_delivered`` (called by the inbox) notes that they arrived. A registration
taken back here (a cancelled online sign-up, ``signups``) is a row marked ``withdrawn_at``;
the answer lists every such row each time, and the laptop removes the entry while the player
has not checked in or paid.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.permissions import club_registry_players
from publishing.models import PublishToken
from publishing.server.selectors import hall_archive
from tournaments.archive_format import archive_items, item_digests, kind_of, state_digest
from tournaments.models import (
    ArchiveItem,
    HallRegistration,
    Round,
    Tournament,
    TournamentChange,
)
from tournaments.services import changelog
from tournaments.services.revision import bump_revision

# The items whose content the server keeps (as ``archive_write`` does): a batch without them
# still finds the host club and the players' clubs.
_KEPT = ("tournament", "club")


class HandOverError(Exception):
    """The tournament cannot be handed to the hall; ``status`` is the HTTP status to answer.
    Nothing was written."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def _set_up_here(tournament: Tournament) -> bool:
    """Set up on this server (not a laptop's copy), or handed to the hall from here."""
    original = tournament.archive_revision is None and not tournament.archive_hash
    return original or tournament.in_hall_since is not None


def tournaments_for_the_hall(*, token: PublishToken) -> list[dict[str, Any]]:
    """The token's club's tournaments a laptop may fetch: set up here, not finished; with
    name, date, registrations and whether a laptop holds it already (2 queries)."""
    rows = (
        Tournament.objects.filter(host_club=token.club, finished_at__isnull=True)
        .filter(Q(archive_revision__isnull=True, archive_hash="") | Q(in_hall_since__isnull=False))
        .annotate(registered=Count("entries", distinct=True))
        .order_by("date", "name")
    )
    waiting = dict(
        HallRegistration.objects.filter(
            tournament__host_club=token.club, delivered_at__isnull=True, withdrawn_at__isnull=True
        )
        .values_list("tournament_id")
        .annotate(n=Count("pk"))
    )
    return [
        {
            "archive_id": str(t.archive_id),
            "name": t.name,
            "date": t.date.isoformat(),
            "registrations": t.registered + waiting.get(t.pk, 0),
            "in_hall_since": t.in_hall_since.isoformat() if t.in_hall_since else None,
            "in_hall_by": t.in_hall_by,
        }
        for t in rows
    ]


def _archive_id(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _unknown() -> HandOverError:
    return HandOverError(
        _("The season server has no tournament with this id. Nothing was fetched."), status=404
    )


def _tournament_for(token: PublishToken, archive_id: Any, *, lock: bool) -> Tournament:
    key = _archive_id(archive_id)
    if key is None:
        raise _unknown()
    rows = Tournament.objects.select_for_update() if lock else Tournament.objects
    tournament = rows.filter(archive_id=key).first()
    if tournament is None:
        raise _unknown()
    if tournament.host_club_id != token.club_id:
        raise HandOverError(
            _(
                "%(name)s is a tournament of %(club)s; this token fetches the tournaments of "
                "%(own)s only. Nothing was fetched."
            )
            % {"name": tournament.name, "club": tournament.host_club, "own": token.club},
            status=403,
        )
    return tournament


@dataclass(frozen=True)
class HandedOver:
    archive: dict[str, Any]
    state: str
    digests: dict[str, str]
    revision: int = 0  # the revision the server holds (a laptop's batches must go past it)
    warning: str = ""  # fetched before: when and with which token


def _when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


@transaction.atomic
def hand_over(*, token: PublishToken, archive_id: Any) -> HandedOver:
    """Hand the token's club's tournament ``archive_id`` to a laptop: its archive (personal
    data as the token's club may see them) and the position the server holds. The first
    time, the server stores that position and the tournament is held by the hall from then
    on. ``HandOverError`` (German, nothing written): unknown, another club's, finished, or
    a laptop's copy."""
    tournament = _tournament_for(token, archive_id, lock=True)
    if tournament.finished_at is not None:
        raise HandOverError(
            _("%(name)s is finished; there is nothing left to play. Nothing was fetched.")
            % {"name": tournament.name},
            status=409,
        )
    if not _set_up_here(tournament):
        raise HandOverError(
            _(
                "%(name)s came here from a venue laptop; it is written there, not fetched "
                "from here. Nothing was fetched."
            )
            % {"name": tournament.name},
            status=409,
        )
    archive = hall_archive(tournament=tournament, club=token.club)
    now = timezone.now()
    warning = ""
    if tournament.in_hall_since is not None:
        warning = _(
            "%(name)s was fetched by a venue laptop before (%(when)s, %(by)s). Only one "
            "laptop should run the day: the one fetching it now sends from where the server "
            "stands."
        ) % {
            "name": tournament.name,
            "when": _when(tournament.in_hall_since),
            "by": tournament.in_hall_by,
        }
        digests = dict(
            ArchiveItem.objects.filter(tournament=tournament).values_list("key", "digest")
        )
        state = state_digest(digests)
    else:
        items = archive_items(archive)
        digests = item_digests(items)
        state = state_digest(digests)
        ArchiveItem.objects.filter(tournament=tournament).delete()
        ArchiveItem.objects.bulk_create(
            [
                ArchiveItem(
                    tournament=tournament,
                    key=key,
                    digest=digest,
                    data=dict(items[key]) if kind_of(key) in _KEPT else None,
                )
                for key, digest in digests.items()
            ],
            batch_size=1000,
        )
    Tournament.objects.filter(pk=tournament.pk).update(
        archive_revision=0 if tournament.archive_revision is None else tournament.archive_revision,
        archive_hash=state,
        in_hall_since=now,
        in_hall_by=str(token)[:120],
    )
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.HANDED_TO_HALL,
        actor=str(token),
        subject=_("fetched by a venue laptop"),
        before={"in_hall_since": tournament.in_hall_since.isoformat()}
        if tournament.in_hall_since
        else None,
        after={"state": state, "items": len(digests)},
    )
    PublishToken.objects.filter(pk=token.pk).update(last_used_at=now)
    bump_revision(tournament_id=tournament.pk)
    return HandedOver(
        archive=archive,
        state=state,
        digests=digests,
        revision=tournament.archive_revision or 0,
        warning=warning,
    )


def _guest_club(player: Player) -> dict[str, str] | None:
    """A guest's club without membership, as a membership's club travels."""
    club = player.guest_club
    if club is None:
        return None
    return {"uuid": str(club.uuid), "short_name": club.short_name, "name": club.name}


def registrations_for_the_hall(
    *, token: PublishToken, archive_id: Any, after: int = 0
) -> dict[str, Any]:
    """The registrations made here for a tournament the hall holds, after the id ``after``
    (the laptop's position), oldest first; each with the player as the token's club may see
    them. ``closed`` once a round is drawn (the laptop sent it): check-in is over."""
    tournament = _tournament_for(token, archive_id, lock=False)
    if tournament.in_hall_since is None:
        raise HandOverError(
            _("%(name)s has not been fetched to the hall.") % {"name": tournament.name},
            status=409,
        )
    rows = list(
        HallRegistration.objects.filter(
            tournament=tournament, pk__gt=after, withdrawn_at__isnull=True
        )
        .select_related("player", "player__guest_club")
        .prefetch_related("player__memberships__club")
        .order_by("pk")
    )
    own = set(
        club_registry_players(
            token.club, Player.objects.filter(pk__in=[row.player_id for row in rows])
        ).values_list("pk", flat=True)
    )
    answer = []
    for row in rows:
        player = row.player
        clubs = [
            {"uuid": str(m.club.uuid), "short_name": m.club.short_name, "name": m.club.name}
            for m in player.memberships.all()
        ]
        answer.append(
            {
                "id": row.pk,
                "player": {
                    "uuid": str(player.uuid),
                    "first_name": player.first_name,
                    "last_name": player.last_name,
                    "category": player.category,
                    "birth_year": player.birth_year if player.pk in own else None,
                    "clubs": clubs,
                    "guest_club": _guest_club(player),
                    "guest_club_name": player.guest_club_name,
                },
            }
        )
    # Taken back here (a cancelled online sign-up): every one, each time (few), so a laptop
    # that took the registration, or got the entry with the tournament, removes it.
    withdrawn = [
        {"id": pk, "player": str(player_uuid)}
        for pk, player_uuid in HallRegistration.objects.filter(
            tournament=tournament, withdrawn_at__isnull=False
        )
        .order_by("pk")
        .values_list("pk", "player__uuid")
    ]
    return {
        "registrations": answer,
        "withdrawn": withdrawn,
        "closed": Round.objects.filter(tournament=tournament).exists(),
    }


def mark_delivered(*, tournament: Tournament) -> int:
    """The registrations for the hall whose player now has an entry here (the laptop's
    batch brought them): delivered. Inside the inbox's transaction; returns the count."""
    return HallRegistration.objects.filter(
        tournament=tournament,
        delivered_at__isnull=True,
        withdrawn_at__isnull=True,
        player__entries__tournament=tournament,
    ).update(delivered_at=timezone.now())
