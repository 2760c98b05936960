"""A round's state (drawn, playing, closed, reopened) and clock, a table voided or counting
again, a table's entry token re-issued: each logged with who and why."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import (
    Round,
    RoundChange,
    Table,
    TournamentChange,
    new_short_code,
    new_table_token,
)
from tournaments.services import changelog
from tournaments.services.results_common import ResultError, _locked_table, check_round_unlocked
from tournaments.services.revision import bump_revision
from venue import backups


def _log_round(
    round_: Round,
    action: str,
    *,
    user: User | None,
    reason: str = "",
    table: Table | None = None,
) -> None:
    RoundChange.objects.create(
        round=round_,
        table=table,
        action=action,
        reason=reason.strip(),
        changed_by=user if user is not None and user.is_authenticated else None,
    )


@transaction.atomic
def void_table(*, table: Table, reason: str, user: User) -> Table:
    """A writing error that cannot be reconstructed: the table's round counts nothing."""
    if not reason.strip():
        raise ResultError(
            _("Give a reason for voiding the table."), field="reason", code="reason_required"
        )
    table = _locked_table(table.pk)
    check_round_unlocked(table.round)
    table.voided = True
    table.void_reason = reason.strip()
    table.save(update_fields=["voided", "void_reason"])
    _log_round(table.round, RoundChange.Action.TABLE_VOIDED, user=user, reason=reason, table=table)
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return table


@transaction.atomic
def unvoid_table(*, table: Table, reason: str, user: User) -> Table:
    """Let a voided table count again (e.g. the sheet was reconstructed after all)."""
    if not reason.strip():
        raise ResultError(
            _("Give a reason for counting the table again."), field="reason", code="reason_required"
        )
    table = _locked_table(table.pk)
    check_round_unlocked(table.round)
    table.voided = False
    table.void_reason = ""
    table.save(update_fields=["voided", "void_reason"])
    _log_round(
        table.round, RoundChange.Action.TABLE_RESTORED, user=user, reason=reason, table=table
    )
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return table


class RoundStillOpen(ResultError):
    """Closing a round that still has unfinished tables or unconfirmed deals: ``open_tables``
    lists them; closing anyway needs the organiser's explicit confirmation."""

    def __init__(self, message: str, *, open_tables: Sequence[Any]) -> None:
        super().__init__(message, code="round_open")
        self.open_tables = list(open_tables)


@transaction.atomic
def set_round_state(
    *,
    round: Round,
    state: str,
    user: User,
    reason: str = "",
    close_open: bool = False,
    on_backup: Callable[[Path | None], None] | None = None,
) -> Round:
    """Start, close or reopen a round; reopening a closed round needs a reason (logged).

    Closing in venue mode writes a backup once the transaction commits; ``on_backup`` hears
    the file it wrote (None: none, the folder missing or the backup failed).

    Closing a round with tables still missing deals or with deals waiting for confirmation
    raises :class:`RoundStillOpen` unless ``close_open`` says the organiser saw the list and
    closes anyway (unconfirmed deals then count nothing; the reason is logged).
    """
    from tournaments.selectors.round_status import round_status

    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if state not in Round.State.values:
        raise ResultError(_("Unknown round state."), code="unknown_state")
    if locked.tournament.finished_at is not None:
        raise ResultError(
            _("The tournament is finished; its results are locked."), code="tournament_finished"
        )
    reopening = locked.state == Round.State.CLOSED and state != Round.State.CLOSED
    if reopening and not reason.strip():
        raise ResultError(
            _("Give a reason for reopening a closed round."), field="reason", code="reason_required"
        )
    closing = state == Round.State.CLOSED and locked.state != Round.State.CLOSED
    if closing:
        still_open = [t for t in round_status(round=locked).tables if t.is_open]
        if still_open and not close_open:
            raise RoundStillOpen(
                _("Round %(number)s is not finished yet.") % {"number": locked.number},
                open_tables=still_open,
            )
    locked.state = state
    locked.save(update_fields=["state"])
    if closing:
        _log_round(locked, RoundChange.Action.CLOSED, user=user, reason=reason)
        # Venue mode: a copy of the closed round on the organiser's backup stick.
        backups.backup_after_commit(on_done=on_backup)
    elif reopening:
        _log_round(locked, RoundChange.Action.REOPENED, user=user, reason=reason)
    bump_revision(tournament_id=locked.tournament_id)
    return locked


@transaction.atomic
def set_round_clock(*, round: Round, minutes: int | None, user: User) -> Round:
    """Start the round clock: the round ends ``minutes`` from now (None stops the clock)."""
    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    check_round_unlocked(locked)
    if minutes is not None and not 1 <= minutes <= 600:
        raise ResultError(
            _("A time limit is 1 to 600 minutes."), field="minutes", code="time_limit_range"
        )
    locked.time_limit_minutes = minutes
    locked.ends_at = None if minutes is None else timezone.now() + dt.timedelta(minutes=minutes)
    locked.save(update_fields=["time_limit_minutes", "ends_at"])
    changelog.record(
        tournament_id=locked.tournament_id,
        action=TournamentChange.Action.CLOCK_SET,
        user=user,
        subject=_("Round %(number)s") % {"number": locked.number},
        after={"minutes": minutes},
    )
    bump_revision(tournament_id=locked.tournament_id)
    return locked


@transaction.atomic
def reissue_table_token(*, table: Table, user: User) -> Table:
    """A new entry token for a table (a phone with the old QR code was lost): the old link
    stops working at once, the new QR code is on the table's desk page and score sheet."""
    table = _locked_table(table.pk)
    table.token = new_table_token()
    table.short_code = new_short_code()  # the typed address must stop working too
    table.save(update_fields=["token", "short_code"])
    changelog.record(
        tournament_id=table.round.tournament_id,
        action=TournamentChange.Action.TOKEN_REISSUED,
        user=user,
        subject=_("Round %(round)s, table %(table)s")
        % {"round": table.round.number, "table": table.number},
    )
    return table
