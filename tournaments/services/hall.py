"""The hall's messages: a table's call for the referee and the desk's announcements.

A **call for the referee** comes from the table's phone page ("Schiedsrichter rufen", with
the deal and a short reason if the players give them). It is a row (``RefereeCall``); while
it is open the table carries its time (``Table.referee_called_at``), and pressing again at
that table changes nothing (the database allows one open call per table). The desk and the
tournament's referees see the open calls at once (a banner on their pages) and close each
with a ruling (``tournaments.services.fairness.record_ruling``: the decision in words, the
deal, a penalty, signed). Both steps are written to the tournament's log. The call changes
nothing public, so the revision stays (a final ruling is public: that service bumps it).

An **announcement** is a short message the desk types; the projector and the players' own
pages show it until it is removed or its time runs out. Adding and removing one bump the
tournament's revision (those pages are cached by it) and are logged.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.models import (
    ANNOUNCEMENT_LENGTH,
    CALL_REASON_LENGTH,
    Announcement,
    RefereeCall,
    Round,
    Table,
    Tournament,
    TournamentChange,
)
from tournaments.services import changelog
from tournaments.services.revision import bump_revision

# How long an announcement may be shown at most (minutes); none given: until removed.
ANNOUNCEMENT_MINUTES = 600


def _table_subject(table: Table) -> str:
    return _("Table %(table)s, round %(round)s") % {
        "table": table.number,
        "round": table.round.number,
    }


def _clock(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "TIME_FORMAT")


@transaction.atomic
def call_referee(
    *,
    table: Table,
    deal_number: int | None = None,
    reason: str = "",
    called_by: str = "",
    device: str = "",
) -> tuple[RefereeCall, bool]:
    """Call the referee to ``table``: the new call and True, or the call already open at that
    table and False (a second press, from any phone there, adds nothing). Refused with a
    German message, changing nothing, for a closed round or a finished tournament, a deal
    number the round does not have, or a reason longer than a line."""
    locked = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )
    tournament = locked.round.tournament
    reason = (reason or "").strip()
    if tournament.finished_at is not None or locked.round.state == Round.State.CLOSED:
        raise ValidationError(
            _("This round is closed: please go to the organisers' desk."), code="closed"
        )
    if deal_number is not None and not 1 <= deal_number <= tournament.deals_per_round:
        raise ValidationError(
            {
                "deal": _("The round has deals 1 to %(deals)s.")
                % {"deals": tournament.deals_per_round}
            }
        )
    if len(reason) > CALL_REASON_LENGTH:
        raise ValidationError(
            {
                "reason": _("Please say it in at most %(count)s characters.")
                % {"count": CALL_REASON_LENGTH}
            }
        )
    existing = RefereeCall.objects.filter(table=locked, closed_at__isnull=True).first()
    if existing is not None:
        return existing, False
    call = RefereeCall.objects.create(
        tournament=tournament,
        table=locked,
        deal_number=deal_number,
        reason=reason,
        called_by=called_by[:120],
        device=device[:40],
    )
    locked.referee_called_at = call.called_at
    locked.save(update_fields=["referee_called_at"])
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.REFEREE_CALLED,
        actor=called_by,
        subject=_table_subject(locked),
        after={"deal": deal_number, "reason": reason},
    )
    return call, True


@transaction.atomic
def announce(
    *, tournament: Tournament, text: str, minutes: int | None = None, user: User | None
) -> Announcement:
    """Show ``text`` on the projector and the players' pages, for ``minutes`` or (None) until
    removed. Refused with a German message, changing nothing, for an empty or over-long text
    or a time out of range, and once the tournament is finished."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    text = " ".join((text or "").split())
    if locked.finished_at is not None:
        raise ValidationError(_("The tournament is finished."), code="finished")
    if not text:
        raise ValidationError({"text": _("Type the message to show.")})
    if len(text) > ANNOUNCEMENT_LENGTH:
        raise ValidationError(
            {
                "text": _("At most %(count)s characters: it must be read across the hall.")
                % {"count": ANNOUNCEMENT_LENGTH}
            }
        )
    if minutes is not None and not 1 <= minutes <= ANNOUNCEMENT_MINUTES:
        raise ValidationError(
            {
                "minutes": _("Between 1 and %(most)s minutes, or empty: until removed.")
                % {"most": ANNOUNCEMENT_MINUTES}
            }
        )
    now = timezone.now()
    announcement = Announcement.objects.create(
        tournament=locked,
        text=text,
        created_by=user if user is not None and user.is_authenticated else None,
        shown_until=now + timedelta(minutes=minutes) if minutes else None,
    )
    changelog.record(
        tournament_id=locked.pk,
        action=TournamentChange.Action.ANNOUNCED,
        user=user,
        subject=text,
        after={"minutes": minutes},
    )
    bump_revision(tournament_id=locked.pk)
    return announcement


@transaction.atomic
def remove_announcement(*, announcement: Announcement, user: User | None) -> Announcement:
    """Take an announcement off the projector and the players' pages (it stays in the log).
    Removing one removed already changes nothing."""
    locked = Announcement.objects.select_for_update().get(pk=announcement.pk)
    if locked.removed_at is not None:
        return locked
    locked.removed_at = timezone.now()
    locked.removed_by = user if user is not None and user.is_authenticated else None
    locked.save(update_fields=["removed_at", "removed_by"])
    changelog.record(
        tournament_id=locked.tournament_id,
        action=TournamentChange.Action.ANNOUNCEMENT_REMOVED,
        user=user,
        subject=locked.text,
    )
    bump_revision(tournament_id=locked.tournament_id)
    return locked
