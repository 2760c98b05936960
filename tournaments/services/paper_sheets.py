"""Paper sheets at the desk: a table's deals typed as written on its sheet, and round
totals (one line per table). Where the tournament types sheets twice
(``Tournament.double_entry``) they count only through ``tournaments.services.double_entry``,
and meanwhile the table takes no deal (``check_no_typing_waits``)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import ScoringError
from scoring.written import check_written
from tournaments.models import (
    SCORE_LIMIT,
    Deal,
    DealChange,
    SheetTyping,
    Table,
    Tournament,
)
from tournaments.scoring_messages import translate_scoring_error
from tournaments.seating import dealer_position, sitting_out_position
from tournaments.services.results_common import (
    DealConflict,
    ResultError,
    TableFacts,
    _check_deals_table,
    _check_number,
    _check_open,
    _locked_deal,
    _locked_table,
    _record_change,
    _replayed,
    _snapshot,
    _start_round,
    table_facts,
)
from tournaments.services.revision import bump_revision

OPEN_TYPING_STATES = (SheetTyping.State.AWAITING_SECOND, SheetTyping.State.DIFFERENCES)


def typing_waits_message(state: str) -> str:
    """What the desk's and the phone's deal form say instead of the form while the table's
    paper sheet is typed twice (``Tournament.double_entry``) and does not count yet."""
    if state == SheetTyping.State.DIFFERENCES:
        return _(
            "The two typings of this table's paper sheet differ and are being settled at the "
            "desk. Until the sheet counts, no deal is entered here."
        )
    return _(
        "This table's paper sheet is waiting for its second typing at the desk. Until it "
        "counts, no deal is entered here."
    )


def check_no_typing_waits(table: Table) -> None:
    """Double entry: a table whose paper sheet was typed once (or whose two typings differ)
    takes no deal from the desk's form or a phone until the sheet counts: the sheet is the
    table's result, and a deal entered beside it would count after one entry, or take a
    number the second typing then finds taken. No query where the tournament types once."""
    if not table.round.tournament.double_entry:
        return
    state = (
        SheetTyping.objects.filter(table=table, state__in=OPEN_TYPING_STATES)
        .values_list("state", flat=True)
        .first()
    )
    if state is not None:
        raise ResultError(typing_waits_message(state), code="typing_waits")


def _check_typed_twice(table: Table, *, typed_twice: bool) -> None:
    """A new paper sheet (its deals as written, its round totals) in a tournament that types
    sheets twice counts only through ``tournaments.services.double_entry``."""
    if table.round.tournament.double_entry and not typed_twice:
        raise ResultError(
            _("This tournament types paper sheets twice: save the sheet as a typing."),
            code="type_twice",
        )


def check_totals_table(table: Table) -> None:
    """A table takes round totals in a totals-only tournament, or where none of its deals
    has been entered (its totals would otherwise come from them)."""
    if table.round.tournament.entry_mode != Tournament.EntryMode.TOTALS and (
        Deal.objects.filter(table=table, kind=Deal.Kind.DEAL).exists()
    ):
        raise ResultError(
            _("Deals of table %(table)s have been entered; its totals come from them.")
            % {"table": table.number},
            code="table_has_deals",
        )


def checked_totals(table: Table, *, totals: Sequence[int]) -> list[int]:
    """One total per player of the table, each within the bounds, adding up to zero."""
    totals = list(totals)
    size = table.seats.count()
    if len(totals) != size or any(total is None for total in totals):
        raise ResultError(_("Enter one total per player."), field="totals", code="totals_count")
    if any(abs(total) > SCORE_LIMIT for total in totals):
        raise ResultError(
            _("A total must lie between -%(limit)s and %(limit)s.") % {"limit": SCORE_LIMIT},
            field="totals",
            code="total_range",
        )
    if sum(totals) != 0:
        raise ResultError(
            _("The totals add up to %(sum)s; a table's totals add up to 0.") % {"sum": sum(totals)},
            field="totals",
            code="totals_sum",
        )
    return totals


@transaction.atomic
def enter_totals(
    *,
    table: Table,
    totals: list[int],
    user: User | None,
    expected_version: int | None = None,
    reason: str = "",
    submission_key: uuid.UUID | None = None,
    typed_twice: bool = False,
) -> Deal:
    """One line of round sums per table, which must sum to zero: every table of a totals-only
    tournament, or a table whose paper sheet has only round sums in a tournament that records
    every deal (as long as no deal of that table has been entered).

    Where the tournament types paper sheets twice, new totals come only from
    ``tournaments.services.double_entry`` (``typed_twice``); a correction of totals that
    count is one entry with a reason, as a correction of a deal is."""
    table = _locked_table(table.pk)
    replay = _replayed(submission_key, table, 1)
    if replay is not None:
        return replay
    check_totals_table(table)
    _check_open(table)
    totals = checked_totals(table, totals=totals)
    existing = Deal.objects.filter(table=table, number=1).first()
    if existing is None:
        _check_typed_twice(table, typed_twice=typed_twice)
        deal = Deal(table=table, number=1, kind=Deal.Kind.TOTAL, submission_key=submission_key)
        deal.set_scores(totals)
        deal.save()
        _start_round(table)
        _record_change(deal, DealChange.Action.CREATED, before=None, user=user, reason=reason)
        bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
        return deal
    if expected_version is None or existing.version != expected_version:
        raise DealConflict(
            _("The totals of this table were entered meanwhile; check them."), code="totals_changed"
        )
    if not reason.strip():
        raise ResultError(
            _("Give a reason for the correction."), field="reason", code="reason_required"
        )
    before = _snapshot(existing)
    existing.set_scores(totals)
    existing.version += 1
    existing.save()
    _record_change(existing, DealChange.Action.CORRECTED, before=before, user=user, reason=reason)
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return existing


@dataclass(frozen=True)
class WrittenRow:
    """One line of a paper sheet: contract, declarer and the amounts as written; ``None``
    marks an amount that follows from the others (the defenders' from the declarer's)."""

    number: int
    contract: str
    declarer: int
    amounts: tuple[int | None, ...]


@dataclass(frozen=True)
class WrittenScore:
    scores: tuple[int, ...]
    won: bool | None


def check_written_row(*, facts: TableFacts, row: WrittenRow) -> WrittenScore:
    """The engine's check of one written line (nothing is stored). Raises ResultError."""
    out = sitting_out_position(
        rules=facts.rules, table_size=facts.table_size, deal_number=row.number
    )
    amounts = list(row.amounts)
    if out is not None and amounts[out] is None:
        amounts[out] = None if _out_pays(facts) else 0
    try:
        outcome = check_written(
            facts.rules,
            seats=facts.table_size,
            contract=row.contract,
            declarer=row.declarer,
            sitting_out=out,
            amounts=amounts,
        )
    except ScoringError as error:
        field = error.field if error.field in ("contract", "declarer") else "amounts"
        raise ResultError(
            translate_scoring_error(error, facts.rules), field=field, code="scoring"
        ) from error
    return WrittenScore(scores=outcome.scores, won=outcome.won)


def _out_pays(facts: TableFacts) -> bool:
    rule = facts.rules.tables.get(facts.table_size)
    return rule is not None and rule.sitting_out_scores == "defender"


def _apply_written(deal: Deal, row: WrittenRow, written: WrittenScore) -> None:
    deal.as_written = True
    deal.contract = row.contract
    deal.declarer_position = row.declarer
    deal.declarer_points = None
    deal.won = written.won
    deal.details = {}
    deal.set_scores(written.scores)


@transaction.atomic
def enter_written_deals(
    *,
    table: Table,
    rows: Sequence[WrittenRow],
    user: User | None,
    reason: str = "",
    typed_twice: bool = False,
) -> list[Deal]:
    """Store lines typed in as written on the table's paper sheet, all or none.

    Each line is checked by the engine (:func:`check_written_row`); a line that fails raises
    ResultError naming its deal number, and nothing is stored. Where the tournament types
    paper sheets twice, only ``tournaments.services.double_entry`` stores them
    (``typed_twice``).
    """
    table = _locked_table(table.pk)
    _check_deals_table(table)
    _check_open(table)
    _check_typed_twice(table, typed_twice=typed_twice)
    facts = table_facts(table)
    deals = []
    for row, written in checked_written_rows(table, rows=rows, facts=facts):
        deal = Deal(
            table=table,
            number=row.number,
            dealer_position=dealer_position(deal_number=row.number, table_size=facts.table_size),
            status=Deal.Status.CONFIRMED,
            entered_via="desk",
        )
        _apply_written(deal, row, written)
        deal.save()
        _record_change(deal, DealChange.Action.CREATED, before=None, user=user, reason=reason)
        deals.append(deal)
    _start_round(table)
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return deals


def checked_written_rows(
    table: Table, *, rows: Sequence[WrittenRow], facts: TableFacts | None = None
) -> list[tuple[WrittenRow, WrittenScore]]:
    """The lines of a table's paper sheet, each checked as it would be stored: a number of
    this table's round not entered yet nor typed twice, and the engine's check of the line
    (its error named with the deal's number). Raises at the first line that fails."""
    if not rows:
        raise ResultError(_("Type at least one line of the sheet."), code="sheet_empty")
    facts = facts or table_facts(table)
    taken = set(Deal.objects.filter(table=table).values_list("number", flat=True))
    numbers: set[int] = set()
    checked = []
    for row in rows:
        _check_number(table, row.number)
        if row.number in taken or row.number in numbers:
            raise DealConflict(
                _("Deal %(number)s at table %(table)s has already been entered.")
                % {"number": row.number, "table": table.number},
                field="number",
                code="deal_taken",
            )
        numbers.add(row.number)
        try:
            checked.append((row, check_written_row(facts=facts, row=row)))
        except ResultError as error:
            raise ResultError(
                _("Deal %(number)s: %(error)s") % {"number": row.number, "error": error.message},
                field=error.field,
                code=error.code,
            ) from error
    return checked


@transaction.atomic
def revise_written_deal(
    *,
    deal: Deal,
    row: WrittenRow,
    expected_version: int,
    user: User,
    reason: str,
) -> Deal:
    """The organiser corrects a deal as written (or turns a deal into one), with a reason."""
    if not reason.strip():
        raise ResultError(
            _("Give a reason for the correction."), field="reason", code="reason_required"
        )
    deal = _locked_deal(deal, expected_version)
    if deal.kind != Deal.Kind.DEAL:
        raise ResultError(_("Round totals are corrected as totals."), code="is_totals")
    _check_open(deal.table)
    written = check_written_row(facts=table_facts(deal.table), row=row)
    before = _snapshot(deal)
    _apply_written(deal, row, written)
    deal.status = Deal.Status.CONFIRMED
    deal.version += 1
    deal.save()
    _record_change(deal, DealChange.Action.CORRECTED, before=before, user=user, reason=reason)
    bump_revision(tournament_id=deal.table.round.tournament_id, tables=[deal.table_id])
    return deal
