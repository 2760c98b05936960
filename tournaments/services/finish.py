"""The "finished" step after the last round: final standings, the prize list, and a lock.

A tournament can be finished once every round is drawn and closed. Finishing locks it: no
result, round or draw changes until an organiser reopens it with a reason (logged as a
``RoundChange`` of the last round, so the round page's history shows it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Announcement, Round, RoundChange, Tournament, TournamentChange
from tournaments.selectors.standings import no_shows
from tournaments.services import changelog
from tournaments.services.registration import unregister
from tournaments.services.results_common import ResultError


@dataclass(frozen=True)
class FinishState:
    finished: bool
    can_finish: bool
    missing: str  # why it cannot be finished yet ("" when it can)


def finish_state(*, tournament: Tournament) -> FinishState:
    """Whether the tournament can be finished now; one query."""
    states = dict(tournament.round_set.values_list("number", "state"))
    if tournament.finished_at is not None:
        return FinishState(True, False, "")
    if len(states) < tournament.rounds:
        missing = _("Round %(number)s has not been drawn yet.") % {"number": len(states) + 1}
        return FinishState(False, False, missing)
    open_rounds = sorted(n for n, state in states.items() if state != Round.State.CLOSED)
    if open_rounds:
        missing = _("Close round %(number)s first.") % {"number": open_rounds[0]}
        return FinishState(False, False, missing)
    return FinishState(False, True, "")


@transaction.atomic
def finish_tournament(
    *, tournament: Tournament, user: User, remove_no_shows: bool = False
) -> Tournament:
    """Finish the tournament (see the module). ``remove_no_shows``: the players who signed up
    and never came (``selectors.standings.no_shows``; ranked nowhere either way) leave the
    registration list, each logged; one who paid stays (the money is on record)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    state = finish_state(tournament=locked)
    if state.finished:
        return locked
    if not state.can_finish:
        raise ResultError(state.missing, code="not_finished")
    if remove_no_shows:
        for entry in no_shows(tournament=locked):
            if entry.fee_paid:
                continue
            changelog.record(
                tournament_id=locked.pk,
                action=TournamentChange.Action.WITHDRAWN,
                user=user,
                subject=entry.player.full_name,
                reason=_("did not come; taken off the registration list at the finish"),
            )
            unregister(entry=entry, user=user)
    locked.finished_at = timezone.now()
    locked.finished_by = user if user.is_authenticated else None
    locked.save(update_fields=["finished_at", "finished_by"])
    # The day's announcements end with it ("Pause bis 15 Uhr" under the final standings
    # would be wrong); each stays in the log, removed by whoever finished.
    Announcement.objects.filter(tournament=locked, removed_at__isnull=True).update(
        removed_at=locked.finished_at, removed_by=locked.finished_by
    )
    changelog.record(tournament_id=locked.pk, action=TournamentChange.Action.FINISHED, user=user)
    return locked


@transaction.atomic
def reopen_tournament(*, tournament: Tournament, user: User, reason: str) -> Tournament:
    """Lift the lock again (a late correction); the reason goes into the last round's history."""
    if not reason.strip():
        raise ResultError(
            _("Give a reason for reopening the tournament."), field="reason", code="reason_required"
        )
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.finished_at is None:
        return locked
    locked.finished_at = None
    locked.finished_by = None
    locked.save(update_fields=["finished_at", "finished_by"])
    last = locked.round_set.order_by("-number").first()
    if last is not None:
        RoundChange.objects.create(
            round=last,
            action=RoundChange.Action.REOPENED,
            reason=_("Tournament reopened: %(reason)s") % {"reason": reason.strip()},
            changed_by=user if user.is_authenticated else None,
        )
    return locked
