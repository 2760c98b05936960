"""Double entry of paper sheets (``Tournament.double_entry``): typed twice, counted once.

The first typing of a table's sheet is kept as a ``SheetTyping`` and counts for nothing. A
second typing of the same sheet (its typist never sees the first) is compared with it cell
by cell (``tournaments.sheet_compare``): equal, the lines are stored as deals through
``paper_sheets.enter_written_deals``, as a single typing is when the setting is off; different,
the typing waits for the desk to settle each differing cell (first value, second value or
one typed anew), and then the settled lines are stored.

A sheet of round totals only (``type_totals``) goes the same way: one line of totals per
typing (``SheetTyping.Kind.TOTALS``), compared seat by seat, counted through
``paper_sheets.enter_totals``. A sheet is typed one way twice: while a typing of its deals waits,
its totals are refused, and the other way round. While a typing waits (or its differences
do), the table takes no deal from the desk's form or a phone
(``paper_sheets.check_no_typing_waits``).

Who the second typist is: the venue often has one laptop and one organiser's login shared by
helpers, so a second login cannot be required. Each typing may carry the typist's name or
initials; a second typing by the same login with the same name (or none twice) is allowed, so
an organiser alone can type both, but it is marked ``same_person`` on the overview and in
the log: nobody else checked that sheet.

Every step locks the table row first, then the open typing; the state it expects is checked
under the lock, so of two second typings submitted at once one is stored and the other gets
:class:`TypingConflict`. Each step writes the tournament's log and bumps its revision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import sheet_compare
from tournaments.models import SCORE_LIMIT, Deal, SheetTyping, Table, TournamentChange
from tournaments.services import changelog
from tournaments.services.paper_sheets import (
    WrittenRow,
    check_totals_table,
    checked_totals,
    checked_written_rows,
    enter_totals,
    enter_written_deals,
)
from tournaments.services.results_common import (
    DealConflict,
    ResultError,
    _check_deals_table,
    _check_open,
    _locked_table,
    table_facts,
)
from tournaments.services.revision import bump_revision

FIRST = "first"
SECOND = "second"
TYPED = "typed"
TYPIST_LENGTH = 40


class TypingConflict(DealConflict):
    """Somebody else stored a typing of this sheet, or settled it, meanwhile."""


def _subject(table: Table) -> str:
    return _("Round %(round)s, table %(table)s") % {
        "round": table.round.number,
        "table": table.number,
    }


def _user(user: User | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _who(user: User | None, typist: str) -> str:
    name = user.get_username() if user is not None and user.is_authenticated else ""
    return f"{name} ({typist})" if typist and name else (typist or name)


def _open_typing(table: Table) -> SheetTyping | None:
    return (
        SheetTyping.objects.select_for_update()
        .filter(
            table=table,
            state__in=[SheetTyping.State.AWAITING_SECOND, SheetTyping.State.DIFFERENCES],
        )
        .first()
    )


def _checked_rows(table: Table, rows: Sequence[WrittenRow]) -> list[dict[str, Any]]:
    """Each line checked as a single typing is (numbers, engine); as stored in a typing."""
    checked = []
    for row, written in checked_written_rows(table, rows=rows):
        checked.append(
            {
                "number": row.number,
                "contract": row.contract,
                "declarer": row.declarer,
                "amounts": list(row.amounts),
                "scores": list(written.scores),
            }
        )
    return sorted(checked, key=lambda r: r["number"])


def _totals_rows(table: Table, totals: Sequence[int]) -> list[dict[str, Any]]:
    """A sheet of round totals as one line of a typing, checked as ``enter_totals`` checks
    new totals (counted totals are corrected with a reason, once, as a counted deal is)."""
    if Deal.objects.filter(table=table, kind=Deal.Kind.TOTAL).exists():
        raise DealConflict(
            _("The totals of this table were entered meanwhile; check them."), code="totals_changed"
        )
    checked = checked_totals(table, totals=totals)
    return [{"number": 1, "contract": "", "declarer": None, "amounts": checked, "scores": checked}]


def _check_sheet_table(table: Table, kind: str) -> None:
    """The table takes this kind of sheet: deals as written, or round totals."""
    if kind == SheetTyping.Kind.DEALS:
        _check_deals_table(table)
    else:
        check_totals_table(table)


def other_kind_message(typing: SheetTyping) -> str:
    """A sheet typed one way (its deals, its totals) is typed the same way a second time."""
    if typing.kind == SheetTyping.Kind.TOTALS:
        return _(
            "The first typing of this sheet was its round totals: type the round totals "
            "again (or discard the first typing)."
        )
    return _(
        "The first typing of this sheet was its deals as written: type the deals again "
        "(or discard the first typing)."
    )


def _count(
    *, table: Table, kind: str, rows: Sequence[Mapping[str, Any]], user: User | None, reason: str
) -> None:
    """The agreed sheet stored as one typing is stored where the setting is off."""
    if kind == SheetTyping.Kind.TOTALS:
        enter_totals(
            table=table,
            totals=list(rows[0]["scores"]),
            user=user,
            reason=reason,
            typed_twice=True,
        )
    else:
        enter_written_deals(
            table=table, rows=_rows_of(rows), user=user, reason=reason, typed_twice=True
        )


def _rows_of(stored: Sequence[Mapping[str, Any]]) -> list[WrittenRow]:
    return [
        WrittenRow(
            number=int(r["number"]),
            contract=str(r["contract"]),
            declarer=int(r["declarer"]),
            amounts=tuple(r["amounts"]),
        )
        for r in stored
    ]


@transaction.atomic
def type_sheet(
    *,
    table: Table,
    rows: Sequence[WrittenRow],
    user: User | None,
    typist: str = "",
    expected_typing: int | None,
) -> SheetTyping:
    """Store one typing of the table's sheet (its deals as written).

    ``expected_typing`` is what the typist's form was made for: ``None`` for the first typing,
    the waiting typing's id for the second. Anything else found under the lock (somebody
    stored a typing meanwhile) raises :class:`TypingConflict` and nothing is stored.
    """
    return _type(
        table=table,
        kind=SheetTyping.Kind.DEALS,
        lines=rows,
        user=user,
        typist=typist,
        expected_typing=expected_typing,
    )


@transaction.atomic
def type_totals(
    *,
    table: Table,
    totals: Sequence[int],
    user: User | None,
    typist: str = "",
    expected_typing: int | None,
) -> SheetTyping:
    """Store one typing of a sheet of round totals only: one total per seat, adding up to 0
    (as ``paper_sheets.enter_totals`` checks them). Otherwise as :func:`type_sheet`."""
    return _type(
        table=table,
        kind=SheetTyping.Kind.TOTALS,
        lines=totals,
        user=user,
        typist=typist,
        expected_typing=expected_typing,
    )


def _type(
    *,
    table: Table,
    kind: str,
    lines: Sequence[Any],
    user: User | None,
    typist: str,
    expected_typing: int | None,
) -> SheetTyping:
    table = _locked_table(table.pk)
    tournament = table.round.tournament
    if not tournament.double_entry:
        raise ResultError(_("This tournament does not type paper sheets twice."), code="types_once")
    _check_sheet_table(table, kind)
    _check_open(table)
    typist = " ".join(typist.split())
    if len(typist) > TYPIST_LENGTH:
        raise ResultError(
            _("The typist's name is too long (at most %(limit)s characters).")
            % {"limit": TYPIST_LENGTH},
            field="typist",
            code="typist_too_long",
        )
    typing = _open_typing(table)
    if typing is not None and typing.kind != kind:
        raise ResultError(other_kind_message(typing), code="other_kind")
    if expected_typing is None and typing is not None:
        raise TypingConflict(
            _(
                "Meanwhile somebody else saved the first typing of this sheet; yours was not "
                "saved. Your lines are still in the form: save them again as the second typing."
            ),
            code="typing_changed",
        )
    if expected_typing is not None and (
        typing is None
        or typing.pk != expected_typing
        or typing.state != SheetTyping.State.AWAITING_SECOND
    ):
        raise TypingConflict(
            _(
                "Meanwhile somebody else saved the second typing of this sheet; yours was not "
                "saved. Look at the sheet's state on the table's page."
            ),
            code="typing_changed",
        )
    totals = kind == SheetTyping.Kind.TOTALS
    checked = _totals_rows(table, lines) if totals else _checked_rows(table, lines)
    if typing is None:
        typing = SheetTyping.objects.create(
            table=table, kind=kind, first_rows=checked, first_by=_user(user), first_typist=typist
        )
        # the log names the lines typed, never their values: the second typing stays blind
        changelog.record(
            tournament_id=tournament.pk,
            action=TournamentChange.Action.SHEET_TYPED,
            user=user,
            actor=typist,
            subject=_subject(table),
            after={"typing": typing.pk, "sheet": _("round totals")}
            if totals
            else {"typing": typing.pk, "lines": [r["number"] for r in checked]},
        )
        bump_revision(tournament_id=tournament.pk)
        return typing

    same_login = (_user(user) is None and typing.first_by_id is None) or (
        _user(user) is not None and typing.first_by_id == user.pk  # type: ignore[union-attr]
    )
    typing.second_rows = checked
    typing.second_by = _user(user)
    typing.second_typist = typist
    typing.second_at = timezone.now()
    typing.same_person = same_login and typist.casefold() == typing.first_typist.casefold()
    seats = table.seats.count()
    found = sheet_compare.differences(typing.first_rows, checked, seats=seats)
    if found:
        typing.state = SheetTyping.State.DIFFERENCES
    else:
        typing.state = SheetTyping.State.COUNTED
        _count(
            table=table,
            kind=kind,
            rows=typing.first_rows,
            user=user,
            reason=_("Double entry: both typings agree."),
        )
    typing.save()
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.SHEET_RETYPED,
        user=user,
        actor=typist,
        subject=_subject(table),
        before={"first_typing_by": _who(typing.first_by, typing.first_typist)},
        after={
            "typing": typing.pk,
            "differences": len(found),
            "counted": not found,
            "same_person": typing.same_person,
        },
    )
    bump_revision(tournament_id=tournament.pk)
    return typing


def _column_words(column: str) -> str:
    if column == sheet_compare.CONTRACT:
        return _("Contract")
    if column == sheet_compare.DECLARER:
        return _("Declarer")
    return f"{_('Seat')} {int(column.removeprefix('seat')) + 1}"


def _choice_words(choice: str) -> str:
    return {
        FIRST: _("first typing's value"),
        SECOND: _("second typing's value"),
    }.get(choice, _("typed at the desk"))


def _decided_value(
    difference: sheet_compare.Difference,
    choice: tuple[str, Any],
    *,
    rules: Any,
    seats: int,
    totals: bool = False,
) -> sheet_compare.Cell:
    how, value = choice
    if how == FIRST:
        return difference.first
    if how == SECOND:
        return difference.second
    if how != TYPED:
        raise ResultError(_("Choose how to settle each difference."), code="settle_choice")
    if difference.column == sheet_compare.CONTRACT:
        if value in (None, ""):
            return ""
        if str(value) not in rules.contracts:
            raise ResultError(
                _("Deal %(number)s: choose a contract.") % {"number": difference.number},
                code="contract_missing",
            )
        return str(value)
    if value in (None, ""):
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ResultError(
            _("Deal %(number)s: type a whole number.") % {"number": difference.number},
            code="not_a_number",
        )
    if difference.column == sheet_compare.DECLARER:
        if not 0 <= value < seats:
            raise ResultError(
                _("Deal %(number)s: say who played.") % {"number": difference.number},
                code="declarer_missing",
            )
        return value
    if abs(value) > SCORE_LIMIT and not totals:  # a total's bound: enter_totals says it
        raise ResultError(
            _("Deal %(number)s: an amount of at most %(limit)s.")
            % {"number": difference.number, "limit": SCORE_LIMIT},
            code="amount_range",
        )
    return value


@transaction.atomic
def settle_sheet(
    *,
    typing: SheetTyping,
    choices: Mapping[str, tuple[str, Any]],
    user: User,
) -> SheetTyping:
    """Settle every differing cell and count the sheet.

    ``choices`` maps each difference's key (``sheet_compare.cell_key``) to ``("first", _)``,
    ``("second", _)`` or ``("typed", value)``. A cell left without a choice, a value that is
    no contract, seat or amount, or a settled line the engine refuses raises ResultError and
    nothing changes; a typing settled or discarded meanwhile raises :class:`TypingConflict`.
    """
    table = _locked_table(typing.table_id)
    locked = _open_typing(table)
    if locked is None or locked.pk != typing.pk or locked.state != SheetTyping.State.DIFFERENCES:
        raise TypingConflict(
            _("Somebody else settled this sheet meanwhile; nothing was changed."),
            code="typing_changed",
        )
    _check_sheet_table(table, locked.kind)
    _check_open(table)
    facts = table_facts(table)
    seats = facts.table_size
    totals = locked.kind == SheetTyping.Kind.TOTALS
    assert locked.second_rows is not None
    found = sheet_compare.differences(locked.first_rows, locked.second_rows, seats=seats)
    missing = [d for d in found if d.key not in choices]
    if missing:
        raise ResultError(
            _("Settle every difference: deal %(number)s is still open.")
            % {"number": missing[0].number},
            code="differences_open",
        )
    decided: dict[str, sheet_compare.Cell] = {}
    log = []
    for difference in found:
        value = _decided_value(
            difference, choices[difference.key], rules=facts.rules, seats=seats, totals=totals
        )
        decided[difference.key] = value
        cell = {} if totals else {"deal": difference.number}
        log.append(
            {
                **cell,
                "column": _column_words(difference.column),
                "first_value": difference.first,
                "second_value": difference.second,
                "settled_with": _choice_words(choices[difference.key][0]),
                "value": value,
            }
        )
    lines = sheet_compare.settled_lines(
        locked.first_rows, locked.second_rows, seats=seats, decided=decided
    )
    if totals:  # one line of totals; enter_totals checks them as a single typing's
        settled = [a for line in lines for a in line.amounts if a is not None]
        if len(lines) != 1 or len(settled) != seats:
            raise ResultError(_("Enter one total per player."), code="totals_count")
        enter_totals(
            table=table,
            totals=settled,
            user=user,
            reason=_("Double entry: differences settled."),
            typed_twice=True,
        )
        return _settled(locked, log=log, user=user, table=table)
    rows = []
    for line in lines:
        if not line.contract:
            raise ResultError(
                _("Deal %(number)s: choose the contract.") % {"number": line.number},
                code="contract_missing",
            )
        if line.declarer is None:
            raise ResultError(
                _("Deal %(number)s: say who played.") % {"number": line.number},
                code="declarer_missing",
            )
        rows.append(WrittenRow(line.number, line.contract, line.declarer, line.amounts))
    if not rows:
        raise ResultError(_("Type at least one line of the sheet."), code="sheet_empty")
    enter_written_deals(
        table=table,
        rows=rows,
        user=user,
        reason=_("Double entry: differences settled."),
        typed_twice=True,
    )
    return _settled(locked, log=log, user=user, table=table)


def _settled(
    locked: SheetTyping, *, log: list[dict[str, Any]], user: User, table: Table
) -> SheetTyping:
    tournament = table.round.tournament
    locked.state = SheetTyping.State.COUNTED
    locked.settlement = log
    locked.settled_by = user
    locked.settled_at = timezone.now()
    locked.save()
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.SHEET_SETTLED,
        user=user,
        subject=_subject(table),
        after={"typing": locked.pk, "cells": log},
    )
    bump_revision(tournament_id=tournament.pk)
    return locked


@transaction.atomic
def discard_typing(*, typing: SheetTyping, user: User, reason: str) -> SheetTyping:
    """Throw away an open typing (the wrong table's sheet was typed), with a reason; the sheet
    is then typed afresh. The deals already counted are not touched."""
    if not reason.strip():
        raise ResultError(_("Give a reason."), field="reason", code="reason_required")
    table = _locked_table(typing.table_id)
    locked = _open_typing(table)
    if locked is None or locked.pk != typing.pk:
        raise TypingConflict(
            _("Somebody else settled this sheet meanwhile; nothing was changed."),
            code="typing_changed",
        )
    _check_open(table)
    locked.state = SheetTyping.State.DISCARDED
    locked.save(update_fields=["state"])
    changelog.record(
        tournament_id=table.round.tournament_id,
        action=TournamentChange.Action.SHEET_DISCARDED,
        user=user,
        subject=_subject(table),
        before={"typing": locked.pk},
        reason=reason,
    )
    bump_revision(tournament_id=table.round.tournament_id)
    return locked
