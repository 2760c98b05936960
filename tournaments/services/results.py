"""Entering, confirming and correcting results: the only code that writes deals.

Concurrency: every change locks its table row first (``select_for_update`` on PostgreSQL; on
SQLite the IMMEDIATE transactions of the settings serialise writers), then checks the state it
is about to change. A device's ``submission_key`` makes a repeated submit return the deal it
already stored; ``expected_version`` turns an edit of a deal somebody changed meanwhile into a
conflict instead of a lost update.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring import RuleSource, ScoringError, deal_from_record, rule_source_from_dict, score_deal
from tournaments.models import Deal, DealChange, Round, RoundChange, Table, Tournament
from tournaments.scoring_messages import translate_scoring_error
from tournaments.seating import dealer_position, sitting_out_position

# Deal-record fields a person enters; ``seats`` and ``sitting_out`` come from the table.
INPUT_FIELDS = (
    "contract",
    "after_solo",
    "declarer",
    "declarer_points",
    "declarer_tricks",
    "won",
    "points",
    "tricks",
    "last_trick",
    "ouvert",
    "knocks",
    "bonuses",
    "penalty",
)
COLUMN_FIELDS = {"contract", "declarer", "declarer_points", "won"}


class ResultError(Exception):
    """A result that cannot be stored. ``field`` names the form field it belongs to."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class DealConflict(ResultError):
    """Somebody else entered or changed this deal first."""


@dataclass(frozen=True)
class TableFacts:
    """What scoring a deal at a table needs to know about it."""

    table: Table
    rules: RuleSource
    table_size: int
    last_round: bool = False  # a Räuber here is worth the source's last-round amount


def last_round_raeuber(table: Table) -> bool:
    """Whether the tournament's last-round Räuber option applies at this table."""
    tournament = table.round.tournament
    return tournament.last_round_raeuber and table.round.number == tournament.rounds


def rule_source_of(tournament: Tournament) -> RuleSource:
    return rule_source_from_dict(tournament.rules_snapshot)


def table_facts(table: Table) -> TableFacts:
    return TableFacts(
        table=table,
        rules=rule_source_of(table.round.tournament),
        table_size=table.seats.count(),
        last_round=last_round_raeuber(table),
    )


def deal_record(*, facts: TableFacts, number: int, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The deal record (spec/deal-record.md) of deal ``number`` at this table."""
    record: dict[str, Any] = {
        key: inputs[key] for key in INPUT_FIELDS if inputs.get(key) not in (None, "", [])
    }
    record["rules"] = facts.rules.slug
    record["seats"] = facts.table_size
    out = sitting_out_position(rules=facts.rules, table_size=facts.table_size, deal_number=number)
    if out is not None:
        record["sitting_out"] = out
    contract = facts.rules.contracts.get(record.get("contract", ""))
    if facts.last_round and getattr(contract, "last_round_amount", None) is not None:
        record["last_round"] = True
    return record


def compute_scores(
    *, facts: TableFacts, number: int, inputs: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[int, ...]]:
    """Score a deal without storing it (the preview before saving). Raises ResultError."""
    record = deal_record(facts=facts, number=number, inputs=inputs)
    try:
        result = score_deal(facts.rules, deal_from_record(record))
    except ScoringError as error:
        raise ResultError(translate_scoring_error(error), field=error.field) from error
    if sum(result.scores) != 0:
        # A rule source that writes only the declarer's score ("declarer_only") cannot be
        # kept on a tournament sheet, whose columns must balance.
        raise ResultError(
            _(
                "The rule source %(rules)s writes only the declarer's score; a tournament "
                "needs scores that add up to 0 at every table."
            )
            % {"rules": facts.rules.slug}
        )
    return record, result.scores


def stored_record(deal: Deal) -> dict[str, Any]:
    """The rule inputs stored with a deal, as entered (without rules/seats/sitting_out)."""
    inputs = dict(deal.details)
    inputs["contract"] = deal.contract
    for key, value in (
        ("declarer", deal.declarer_position),
        ("declarer_points", deal.declarer_points),
        ("won", deal.won),
    ):
        if value is not None:
            inputs[key] = value
    return inputs


def _snapshot(deal: Deal) -> dict[str, Any]:
    return {
        "number": deal.number,
        "kind": deal.kind,
        "status": deal.status,
        "inputs": stored_record(deal) if deal.kind == Deal.Kind.DEAL else {},
        "scores": [s for s in deal.scores if s is not None],
    }


def _apply(deal: Deal, record: Mapping[str, Any], scores: tuple[int, ...]) -> None:
    deal.contract = record["contract"]
    deal.declarer_position = record.get("declarer")
    deal.declarer_points = record.get("declarer_points")
    deal.won = record.get("won")
    deal.details = {
        key: value
        for key, value in record.items()
        if key in INPUT_FIELDS and key not in COLUMN_FIELDS
    }
    deal.set_scores(scores)


def _locked_table(table_id: int) -> Table:
    return Table.objects.select_for_update().select_related("round__tournament").get(pk=table_id)


def _check_open(table: Table, *, organiser_reason: str | None) -> None:
    """New results go into open rounds only; a closed one takes an organiser's reasoned change."""
    if table.voided:
        raise ResultError(
            _("This table's round was voided: %(reason)s") % {"reason": table.void_reason}
        )
    if table.round.state == Round.State.CLOSED and not organiser_reason:
        raise ResultError(_("Round %(number)s is closed.") % {"number": table.round.number})


def _check_number(table: Table, number: int) -> None:
    limit = table.round.tournament.deals_per_round
    if not 1 <= number <= limit:
        raise ResultError(
            _("The deal number must be between 1 and %(limit)s.") % {"limit": limit},
            field="number",
        )


def _record_change(
    deal: Deal,
    action: str,
    *,
    before: dict | None,
    user: AbstractBaseUser | None,
    actor: str = "",
    reason: str = "",
) -> None:
    DealChange.objects.create(
        deal=deal,
        action=action,
        before=before,
        after=_snapshot(deal),
        changed_by=user if user is not None and user.is_authenticated else None,
        actor=actor,
        reason=reason,
    )


def _replayed(submission_key: uuid.UUID | None, table: Table, number: int) -> Deal | None:
    """The deal a repeated submission already stored, or None for a new submission."""
    if submission_key is None:
        return None
    deal = Deal.objects.filter(submission_key=submission_key).first()
    if deal is not None and (deal.table_id != table.pk or deal.number != number):
        raise DealConflict(_("This form was already used for another deal; reload the page."))
    return deal


def _start_round(table: Table) -> None:
    if table.round.state == Round.State.DRAWN:
        Round.objects.filter(pk=table.round_id).update(state=Round.State.PLAYING)
        table.round.state = Round.State.PLAYING


@transaction.atomic
def enter_deal(
    *,
    table: Table,
    number: int,
    inputs: Mapping[str, Any],
    submission_key: uuid.UUID | None = None,
    via: str = "desk",
    entered_by_position: int | None = None,
    user: AbstractBaseUser | None = None,
    actor: str = "",
    reason: str = "",
) -> Deal:
    """Store a new deal. At the desk it counts at once; at the table it waits for a second
    player's confirmation. Raises ResultError (bad input) or DealConflict (number taken)."""
    table = _locked_table(table.pk)
    replay = _replayed(submission_key, table, number)
    if replay is not None:
        return replay
    if table.round.tournament.entry_mode != Tournament.EntryMode.DEALS:
        raise ResultError(_("This tournament records round totals only."))
    _check_open(table, organiser_reason=reason)
    _check_number(table, number)
    if Deal.objects.filter(table=table, number=number).exists():
        raise DealConflict(
            _("Deal %(number)s at table %(table)s has already been entered.")
            % {"number": number, "table": table.number},
            field="number",
        )
    facts = table_facts(table)
    if entered_by_position is not None and not 0 <= entered_by_position < facts.table_size:
        raise ResultError(_("That seat does not exist at this table."), field="entered_by")
    record, scores = compute_scores(facts=facts, number=number, inputs=inputs)
    deal = Deal(
        table=table,
        number=number,
        dealer_position=dealer_position(deal_number=number, table_size=facts.table_size),
        status=Deal.Status.PENDING if via == "table" else Deal.Status.CONFIRMED,
        submission_key=submission_key,
        entered_via=via,
        entered_by_position=entered_by_position,
    )
    _apply(deal, record, scores)
    try:
        with transaction.atomic():
            deal.save()
    except IntegrityError as error:
        # Only reachable where the table lock is not a lock (a race on the unique constraints).
        raise DealConflict(
            _("Deal %(number)s at table %(table)s has already been entered.")
            % {"number": number, "table": table.number},
            field="number",
        ) from error
    _start_round(table)
    _record_change(
        deal, DealChange.Action.CREATED, before=None, user=user, actor=actor, reason=reason
    )
    return deal


def _check_version(deal: Deal, expected_version: int | None) -> None:
    if expected_version is not None and deal.version != expected_version:
        raise DealConflict(
            _("Deal %(number)s was changed on another device meanwhile; check it and try again.")
            % {"number": deal.number}
        )


def _locked_deal(deal: Deal, expected_version: int | None) -> Deal:
    _locked_table(deal.table_id)
    current = Deal.objects.select_related("table__round__tournament").get(pk=deal.pk)
    _check_version(current, expected_version)
    return current


def _change_status(
    deal: Deal,
    status: str,
    action: str,
    *,
    user: AbstractBaseUser | None,
    actor: str = "",
    reason: str = "",
) -> Deal:
    before = _snapshot(deal)
    deal.status = status
    deal.version += 1
    deal.save(update_fields=["status", "version", "updated_at"])
    _record_change(deal, action, before=before, user=user, actor=actor, reason=reason)
    return deal


@transaction.atomic
def confirm_deal(
    *, deal: Deal, confirmer_position: int, expected_version: int | None = None, actor: str = ""
) -> Deal:
    """A second player at the table confirms a deal entered there; then it counts."""
    deal = _locked_deal(deal, None)
    if deal.status == Deal.Status.CONFIRMED:
        return deal  # a repeated tap
    if deal.status != Deal.Status.PENDING:
        raise ResultError(_("This deal was annulled."))
    _check_version(deal, expected_version)
    _check_open(deal.table, organiser_reason=None)
    if confirmer_position == deal.entered_by_position:
        raise ResultError(_("Another player at the table must confirm this deal."))
    return _change_status(
        deal, Deal.Status.CONFIRMED, DealChange.Action.CONFIRMED, user=None, actor=actor
    )


@transaction.atomic
def revise_deal(
    *,
    deal: Deal,
    inputs: Mapping[str, Any],
    expected_version: int,
    user: AbstractBaseUser | None = None,
    actor: str = "",
    reason: str = "",
    entered_by_position: int | None = None,
) -> Deal:
    """Change a deal's inputs and re-score it.

    At the table (no ``user``) only an unconfirmed deal can be revised; it then waits for a
    player other than the reviser. The organiser corrects any deal, with a reason; a
    correction counts at once.
    """
    deal = _locked_deal(deal, expected_version)
    organiser = user is not None and user.is_authenticated
    if deal.kind != Deal.Kind.DEAL:
        raise ResultError(_("Round totals are corrected as totals."))
    if organiser:
        if not reason.strip():
            raise ResultError(_("Give a reason for the correction."), field="reason")
    elif deal.status != Deal.Status.PENDING:
        raise ResultError(_("A confirmed deal can only be corrected by the organiser."))
    _check_open(deal.table, organiser_reason=reason if organiser else None)
    facts = table_facts(deal.table)
    record, scores = compute_scores(facts=facts, number=deal.number, inputs=inputs)
    before = _snapshot(deal)
    _apply(deal, record, scores)
    if organiser:
        deal.status = Deal.Status.CONFIRMED
    else:
        deal.entered_by_position = entered_by_position
    deal.version += 1
    deal.save()
    _record_change(
        deal,
        DealChange.Action.CORRECTED,
        before=before,
        user=user,
        actor=actor,
        reason=reason or _("revised at the table before confirmation"),
    )
    return deal


@transaction.atomic
def annul_deal(
    *, deal: Deal, reason: str, user: AbstractBaseUser, expected_version: int | None = None
) -> Deal:
    """The organiser (or referees) strike a deal: it stays on record but counts nothing."""
    if not reason.strip():
        raise ResultError(_("Give a reason for annulling the deal."), field="reason")
    deal = _locked_deal(deal, expected_version)
    if deal.status == Deal.Status.ANNULLED:
        return deal
    return _change_status(
        deal, Deal.Status.ANNULLED, DealChange.Action.ANNULLED, user=user, reason=reason
    )


@transaction.atomic
def restore_deal(*, deal: Deal, reason: str, user: AbstractBaseUser) -> Deal:
    """Undo an annulment."""
    if not reason.strip():
        raise ResultError(_("Give a reason for restoring the deal."), field="reason")
    deal = _locked_deal(deal, None)
    if deal.status != Deal.Status.ANNULLED:
        raise ResultError(_("Only an annulled deal can be restored."))
    return _change_status(
        deal, Deal.Status.CONFIRMED, DealChange.Action.RESTORED, user=user, reason=reason
    )


@transaction.atomic
def enter_totals(
    *,
    table: Table,
    totals: list[int],
    user: AbstractBaseUser | None,
    expected_version: int | None = None,
    reason: str = "",
    submission_key: uuid.UUID | None = None,
) -> Deal:
    """Totals-only tournaments: one line of round sums per table, which must sum to zero."""
    table = _locked_table(table.pk)
    replay = _replayed(submission_key, table, 1)
    if replay is not None:
        return replay
    if table.round.tournament.entry_mode != Tournament.EntryMode.TOTALS:
        raise ResultError(_("This tournament records every deal, not totals."))
    _check_open(table, organiser_reason=reason)
    size = table.seats.count()
    if len(totals) != size:
        raise ResultError(_("Enter one total per player."), field="totals")
    if sum(totals) != 0:
        raise ResultError(
            _("The totals add up to %(sum)s; a table's totals add up to 0.") % {"sum": sum(totals)},
            field="totals",
        )
    existing = Deal.objects.filter(table=table, number=1).first()
    if existing is None:
        deal = Deal(table=table, number=1, kind=Deal.Kind.TOTAL, submission_key=submission_key)
        deal.set_scores(totals)
        deal.save()
        _start_round(table)
        _record_change(deal, DealChange.Action.CREATED, before=None, user=user, reason=reason)
        return deal
    if expected_version is None or existing.version != expected_version:
        raise DealConflict(_("The totals of this table were entered meanwhile; check them."))
    if not reason.strip():
        raise ResultError(_("Give a reason for the correction."), field="reason")
    before = _snapshot(existing)
    existing.set_scores(totals)
    existing.version += 1
    existing.save()
    _record_change(existing, DealChange.Action.CORRECTED, before=before, user=user, reason=reason)
    return existing


def _log_round(
    round_: Round,
    action: str,
    *,
    user: AbstractBaseUser | None,
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
def void_table(*, table: Table, reason: str, user: AbstractBaseUser) -> Table:
    """A writing error that cannot be reconstructed: the table's round counts nothing."""
    if not reason.strip():
        raise ResultError(_("Give a reason for voiding the table."), field="reason")
    table = _locked_table(table.pk)
    table.voided = True
    table.void_reason = reason.strip()
    table.save(update_fields=["voided", "void_reason"])
    _log_round(table.round, RoundChange.Action.TABLE_VOIDED, user=user, reason=reason, table=table)
    return table


@transaction.atomic
def unvoid_table(*, table: Table, reason: str, user: AbstractBaseUser) -> Table:
    """Let a voided table count again (e.g. the sheet was reconstructed after all)."""
    if not reason.strip():
        raise ResultError(_("Give a reason for counting the table again."), field="reason")
    table = _locked_table(table.pk)
    table.voided = False
    table.void_reason = ""
    table.save(update_fields=["voided", "void_reason"])
    _log_round(
        table.round, RoundChange.Action.TABLE_RESTORED, user=user, reason=reason, table=table
    )
    return table


@transaction.atomic
def set_round_state(*, round: Round, state: str, user: AbstractBaseUser, reason: str = "") -> Round:
    """Start, close or reopen a round; reopening a closed round needs a reason (logged)."""
    locked = Round.objects.select_for_update().get(pk=round.pk)
    if state not in Round.State.values:
        raise ResultError(_("Unknown round state."))
    reopening = locked.state == Round.State.CLOSED and state != Round.State.CLOSED
    if reopening and not reason.strip():
        raise ResultError(_("Give a reason for reopening a closed round."), field="reason")
    closing = state == Round.State.CLOSED and locked.state != Round.State.CLOSED
    locked.state = state
    locked.save(update_fields=["state"])
    if closing:
        _log_round(locked, RoundChange.Action.CLOSED, user=user, reason=reason)
    elif reopening:
        _log_round(locked, RoundChange.Action.REOPENED, user=user, reason=reason)
    return locked
