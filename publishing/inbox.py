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

from publishing.models import PublishToken
from publishing.services import NotYourClub
from tournaments.archive_format import ArchiveError, archive_from_items, parse_batch
from tournaments.models import Tournament
from tournaments.services.archive_plan import plan_archive, plan_items
from tournaments.services.archive_write import (
    apply_items,
    import_tournament_archive,
    item_digests,
    tournament_state,
)


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
            "digests": item_digests(tournament=tournament),
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
        answer["digests"] = item_digests(tournament=tournament)
    return answer


@transaction.atomic
def receive_changes(*, token: PublishToken, raw: bytes) -> Applied:
    """Apply a laptop's batch; ``ArchiveError`` (unreadable, nothing written), ``NotYourClub``
    or ``Refused`` (with what the laptop needs to go on)."""
    batch = parse_batch(raw)
    tournament = (
        Tournament.objects.select_for_update().filter(archive_id=batch.archive_id).first()
    )
    if tournament is not None and tournament.host_club_id != token.club_id:
        raise NotYourClub(
            _("This token publishes the tournaments of %(club)s only.") % {"club": token.club}
        )
    if tournament is None:
        if batch.base is not None:
            raise _lost_track(None)
        applied = _create(token=token, batch=batch)
    else:
        here = tournament_state(tournament=tournament)
        if here == batch.state:
            applied = Applied(tournament=tournament, status="unchanged", state=here)
        elif tournament.archive_revision is None:
            raise Refused(
                _(
                    "“%(name)s” was set up on the season server, not in the hall; fetch it "
                    "to the laptop first (fetch_tournament)."
                )
                % {"name": tournament.name},
                code="original",
            )
        elif here != (batch.base or "") and batch.base is not None:
            raise _lost_track(tournament)
        elif batch.revision < (tournament.archive_revision or 0):
            raise Refused(
                _(
                    "The season server holds a newer state of this tournament (revision "
                    "%(here)s) than this laptop sends (%(sent)s)."
                )
                % {"here": tournament.archive_revision, "sent": batch.revision},
                code="older",
            )
        else:
            plan = plan_items(
                tournament=tournament,
                revision=batch.revision,
                state=batch.state,
                upserts=batch.upserts,
                deletes=batch.deletes,
                own_club_ids=frozenset({token.club_id}),
            )
            outcome = apply_items(
                plan=plan, upserts=batch.upserts, deletes=batch.deletes, actor=str(token)
            )
            applied = Applied(
                tournament=outcome.tournament,
                status="applied",
                state=tournament_state(tournament=outcome.tournament),
                upserts=len(batch.upserts),
                deletes=len(batch.deletes),
            )
    PublishToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return applied


def _create(*, token: PublishToken, batch) -> Applied:
    """The first batch of a tournament new here: the whole archive, imported as an upload
    would be (players matched, clubs known, the season found)."""
    data = archive_from_items(batch.upserts)
    data["archive_id"], data["revision"] = str(batch.archive_id), batch.revision
    host = (data.get("tournament") or {}).get("host_club")
    if host != token.club.short_name and not _is_token_club(data, token):
        raise NotYourClub(
            _("This token publishes the tournaments of %(club)s only.") % {"club": token.club}
        )
    own = frozenset({token.club_id})
    plan = plan_archive(data=data, own_club_ids=own)
    outcome = import_tournament_archive(
        data=data, allow_unfinished=True, actor=str(token), own_club_ids=own, plan=plan
    )
    return Applied(
        tournament=outcome.tournament,
        status="created",
        state=tournament_state(tournament=outcome.tournament),
        upserts=len(batch.upserts),
    )


def _is_token_club(data: dict[str, Any], token: PublishToken) -> bool:
    short = (data.get("tournament") or {}).get("host_club")
    for club in data.get("clubs") or []:
        if isinstance(club, dict) and club.get("short_name") == short:
            return str(club.get("uuid")) == str(token.club.uuid)
    return False


__all__ = ["Applied", "ArchiveError", "NotYourClub", "Refused", "receive_changes"]
