"""The season server's side of publishing: a batch of changes from a laptop, applied.

The walk, top to bottom: ``views.changes_endpoint`` reads the body (size-capped, gzip) →
``receive_changes`` here checks the token and the batch's base against what this server
holds of the tournament → ``tournaments.services.archive_plan`` says what the items would
change (players matched, clubs known, the season) → ``tournaments.services.archive_write``
writes those rows only and bumps the tournament's revision → the public standings, cached
by revision, show the change on the next read.

The laptop is the tournament's only writer: a batch applies only onto the state it was made
from (``base``); onto anything else the answer is ``lost_track`` with the state and item
digests held here, and the laptop sends the difference from those. A batch whose result is
already here is acknowledged without writing (sent twice, or its answer was lost). An older
revision never replaces a newer one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from publishing.handover import mark_delivered
from publishing.models import PublishToken
from publishing.services import NotYourClub, host_club_of
from tournaments.archive_format import ArchiveError, kind_of, parse_batch
from tournaments.models import Tournament
from tournaments.services.archive_plan import stored_digests
from tournaments.services.archive_write import apply_batch, tournament_state


class Refused(Exception):
    """The batch cannot be applied here; ``code`` says why (``lost_track``, ``older``,
    ``original``) and ``answer`` what the laptop needs to go on."""

    def __init__(self, message: str, *, code: str, answer: dict[str, Any] | None = None):
        super().__init__(message)
        self.message, self.code, self.answer = message, code, answer or {}


@dataclass(frozen=True)
class Applied:
    tournament: Tournament
    status: str  # "created", "applied" or "unchanged"
    state: str
    upserts: int = 0
    deletes: int = 0
    notes: tuple[str, ...] = ()  # what the organiser should know (shown on the laptop)


def _lost_track(tournament: Tournament | None) -> Refused:
    if tournament is None:
        return Refused(
            _("The season server holds nothing of this tournament yet."),
            code="lost_track",
            answer={"state": None, "digests": {}},
        )
    return Refused(
        _("The season server holds another state of this tournament."),
        code="lost_track",
        answer={
            "state": tournament.archive_hash or None,
            "digests": stored_digests(tournament)[0],
        },
    )


def held_state(*, token: PublishToken, archive_id, digests: bool = False) -> dict[str, Any]:
    """What this server holds of the token's club's tournament ``archive_id``: its state and
    revision (None where it holds nothing, or the tournament is another club's)."""
    tournament = Tournament.objects.filter(archive_id=archive_id, host_club=token.club).first()
    if tournament is None:
        return {"state": None, "revision": None, "digests": {}}
    answer: dict[str, Any] = {
        "state": tournament_state(tournament=tournament) or None,
        "revision": tournament.archive_revision,
    }
    if digests:
        answer["digests"] = stored_digests(tournament)[0]
    return answer


@transaction.atomic
def receive_changes(*, token: PublishToken, raw: bytes) -> Applied:
    """Apply a laptop's batch; ``ArchiveError`` (unreadable or inconsistent, nothing
    written), ``NotYourClub`` or ``Refused`` (with what the laptop needs to go on)."""
    batch = parse_batch(raw)
    tournament = Tournament.objects.select_for_update().filter(archive_id=batch.archive_id).first()
    if tournament is None:
        if not batch.snapshot:
            raise _lost_track(None)
        if host_club_of(_settings_and_clubs(batch.upserts)) != token.club:
            raise _not_your_club(token)
    else:
        if tournament.host_club_id != token.club_id:
            raise _not_your_club(token)
        if tournament.archive_revision is None and not tournament.archive_hash:
            raise Refused(
                _(
                    "“%(name)s” was set up on the season server, not in the hall; fetch it "
                    "to the laptop first."
                )
                % {"name": tournament.name},
                code="original",
            )
        here = tournament_state(tournament=tournament)
        if here == batch.state:
            return Applied(tournament=tournament, status="unchanged", state=here)
        if not batch.snapshot and batch.base != here:
            raise _lost_track(tournament)
        if batch.revision < (tournament.archive_revision or 0):
            raise Refused(
                _(
                    "The season server holds a newer state of this tournament (revision "
                    "%(here)s) than this laptop sends (%(sent)s); nothing was changed."
                )
                % {"here": tournament.archive_revision, "sent": batch.revision},
                code="older",
            )
    outcome = apply_batch(
        batch=batch,
        actor=str(token),
        own_club_ids=frozenset({token.club_id}),
        unknown_clubs_without_club=True,
    )
    mark_delivered(tournament=outcome.tournament)  # registrations for the hall, back as entries
    PublishToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return Applied(
        tournament=outcome.tournament,
        status="created" if tournament is None else "applied",
        state=outcome.state,
        upserts=len(batch.upserts),
        deletes=len(batch.deletes),
        notes=outcome.notes,
    )


def _not_your_club(token: PublishToken) -> NotYourClub:
    return NotYourClub(
        _("This token publishes the tournaments of %(club)s only.") % {"club": token.club}
    )


def _settings_and_clubs(items: dict[str, Any]) -> dict[str, Any]:
    """What ``host_club_of`` reads of an archive, from a snapshot's items."""
    return {
        "tournament": items.get("tournament") or {},
        "clubs": [item for key, item in items.items() if kind_of(key) == "club"],
    }


__all__ = ["Applied", "ArchiveError", "NotYourClub", "Refused", "receive_changes"]
