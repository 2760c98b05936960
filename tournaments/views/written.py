"""A table's paper sheet typed in as written: contract, declarer and the amounts per line.

One page serves a single line and a whole sheet: "Check this sheet" runs the engine's check
on every typed line and shows each line's full row or what the amounts could be; "Save"
stores the lines (all or none) through ``paper_sheets.enter_written_deals``.

With double entry (``Tournament.double_entry``) "Save" stores a typing
(``double_entry.type_sheet``); a sheet of round totals only is typed on the totals page
(``views.entry``, ``double_entry.type_totals``) and shares what follows here: the answer to a
stored typing (:func:`store_typing`), the differences page and discarding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.permissions import (
    MANAGE_TOURNAMENT,
    REFEREE_TOURNAMENT,
    check,
    check_not_in_hall,
    organiser_required,
)
from tournaments.contract_names import contract_choices
from tournaments.models import Deal, SheetTyping, Table, Tournament
from tournaments.selectors.double_entry import DifferenceRow, difference_rows, open_typing
from tournaments.selectors.table_sheet import TableSheet, table_sheet
from tournaments.services import double_entry, paper_sheets, results_common
from tournaments.services.double_entry import TypingConflict
from tournaments.services.paper_sheets import WrittenRow
from tournaments.services.results_common import DealConflict, ResultError

# what phones, Word and typists write for a minus (−, –, —) and the spaces in "+ 30"
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\ufe63": "-"})
_SPACES = ("\u00a0", "\u2009", "\u202f", " ")


class AmountField(forms.IntegerField):
    """An amount as written on the sheet: "−120", "– 40", "+ 30" are whole numbers too."""

    def to_python(self, value):
        if isinstance(value, str):
            value = value.translate(_MINUS_SIGNS)
            for space in _SPACES:
                value = value.replace(space, "")
        return super().to_python(value)


class WrittenSheetForm(forms.Form):
    """Per line ``n``: ``contract_n``, ``declarer_n`` and ``amount_n_<seat>``."""

    reason = forms.CharField(label=gettext_lazy("Reason for the correction"), required=False)
    typist = forms.CharField(
        label=gettext_lazy("Typed by (name or initials)"),
        required=False,
        max_length=double_entry.TYPIST_LENGTH,
        help_text=gettext_lazy("So the log tells the two typists apart on a shared login."),
    )

    def __init__(
        self, *args, sheet: TableSheet, numbers: list[int], typist: bool = False, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        if not typist:
            del self.fields["typist"]
        self.sheet = sheet
        self.numbers = numbers
        contracts = [("", "—"), *contract_choices(sheet.rules, len(sheet.seats))]
        seats = [("", "—")] + [
            (p, f"{p + 1} · {s.last_name or s.name}") for p, s in enumerate(sheet.seats)
        ]
        for number in numbers:
            self.fields[f"contract_{number}"] = forms.ChoiceField(
                label=_("Contract, deal %(number)s") % {"number": number},
                choices=contracts,
                required=False,
            )
            self.fields[f"declarer_{number}"] = forms.TypedChoiceField(
                label=_("Declarer, deal %(number)s") % {"number": number},
                choices=seats,
                coerce=int,
                required=False,
                empty_value=None,
            )
            for position, seat in enumerate(sheet.seats):
                self.fields[f"amount_{number}_{position}"] = AmountField(
                    label=_("%(name)s, deal %(number)s") % {"name": seat.name, "number": number},
                    required=False,
                    widget=forms.TextInput(
                        attrs={"inputmode": "numeric", "size": 5, "autocomplete": "off"}
                    ),
                )
        # The sheet shows the fields without their labels (the column heads say it): a
        # screen reader reads the label from aria-label.
        for name, field in self.fields.items():
            if name not in ("reason", "typist"):
                field.widget.attrs["aria-label"] = field.label

    def lines(self) -> list[WrittenLine]:
        return [
            WrittenLine(
                number=number,
                contract=self[f"contract_{number}"],
                declarer=self[f"declarer_{number}"],
                amounts=[self[f"amount_{number}_{p}"] for p in range(len(self.sheet.seats))],
            )
            for number in self.numbers
        ]

    def clean(self):
        cleaned = super().clean()
        rows = []
        for number in self.numbers:
            names = [f"contract_{number}", f"declarer_{number}"] + [
                f"amount_{number}_{p}" for p in range(len(self.sheet.seats))
            ]
            if any(name in self._errors for name in names):
                continue  # a cell that is no number: its own error; the other lines are checked
            contract = cleaned.get(f"contract_{number}") or ""
            declarer = cleaned.get(f"declarer_{number}")
            amounts = tuple(
                cleaned.get(f"amount_{number}_{p}") for p in range(len(self.sheet.seats))
            )
            if not contract and declarer is None and all(a is None for a in amounts):
                continue  # a line left empty
            if not contract:
                self.add_error(f"contract_{number}", _("Choose the contract."))
                continue
            if declarer is None:
                self.add_error(f"declarer_{number}", _("Say who played."))
                continue
            if all(a is None for a in amounts):
                self.add_error(f"amount_{number}_{declarer}", _("Type the amounts as written."))
                continue
            rows.append(WrittenRow(number, contract, declarer, amounts))
        self.rows = rows
        return cleaned


@dataclass
class WrittenLine:
    number: int
    contract: forms.BoundField
    declarer: forms.BoundField
    amounts: list[forms.BoundField]
    scores: tuple[int, ...] | None = None
    error: str = ""

    @property
    def cell_errors(self) -> list[str]:
        """The line's cells that could not be read ("zwölf" is no number), for the summary."""
        fields = [self.contract, self.declarer, *self.amounts]
        return [str(message) for field in fields for message in field.errors]


def _table(pk: int, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament_id=pk,
        round__number=round_number,
        number=table_number,
    )


def _check_rows(
    form: WrittenSheetForm, table: Table, sheet: TableSheet
) -> tuple[list[WrittenLine], list[int], bool]:
    """Check every typed line with the engine; returns the lines, the totals and success."""
    facts = results_common.TableFacts(table=table, rules=sheet.rules, table_size=len(sheet.seats))
    lines = {line.number: line for line in form.lines()}
    totals = list(sheet.totals)
    ok = True
    for row in form.rows:
        try:
            written = paper_sheets.check_written_row(facts=facts, row=row)
        except ResultError as error:
            lines[row.number].error = error.message
            ok = False
        else:
            lines[row.number].scores = written.scores
            totals = [t + s for t, s in zip(totals, written.scores, strict=True)]
    return list(lines.values()), totals, ok


def _double_entry(tournament: Tournament) -> bool:
    return tournament.double_entry and tournament.entry_mode == Tournament.EntryMode.DEALS


def _posted_int(request: HttpRequest, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


def _saved_message(request: HttpRequest, count: int) -> None:
    messages.success(
        request,
        ngettext(
            "%(count)s line of the sheet saved as written.",
            "%(count)s lines of the sheet saved as written.",
            count,
        )
        % {"count": count},
    )


@organiser_required
def desk_written(request: HttpRequest, pk: int, round_number: int, table_number: int):
    table = _table(pk, round_number, table_number)
    tournament = table.round.tournament
    check(request.user, MANAGE_TOURNAMENT, tournament)
    if request.method == "POST":
        check_not_in_hall(tournament)  # the hall writes its results
    double = _double_entry(tournament)
    typing = open_typing(table=table) if double else None
    if typing is not None and typing.state == SheetTyping.State.DIFFERENCES:
        return redirect("tournaments:desk_written_differences", pk, round_number, table_number)
    if typing is not None and typing.kind != SheetTyping.Kind.DEALS:
        messages.info(request, double_entry.other_kind_message(typing))
        return redirect(typing_page(table, typing.kind))
    sheet = table_sheet(table=table)
    taken = {line.number for line in sheet.lines}
    numbers = [n for n in range(1, sheet.deals_per_round + 1) if n not in taken]
    # Bound on every POST, an empty one too (unbound, it had no rows and the check crashed).
    posted = request.method == "POST"
    form = WrittenSheetForm(
        request.POST if posted else None, sheet=sheet, numbers=numbers, typist=double
    )
    lines = form.lines()
    totals = list(sheet.totals)
    checked = False
    if request.method == "POST":
        valid = form.is_valid()  # cleans every line; a bad cell does not stop the others
        lines, totals, ok = _check_rows(form, table, sheet)
        checked = True
        if request.POST.get("action") == "save" and valid and ok and form.rows:
            if double:
                response = _save_typing(request, form, table, typing)
                if response is not None:
                    return response
                typing = open_typing(table=table)  # a first typing stored meanwhile: the form
                # is still filled in, and saving it again makes it the second typing
            else:
                try:
                    deals = paper_sheets.enter_written_deals(
                        table=table, rows=form.rows, user=request.user
                    )
                except ResultError as error:
                    form.add_error(None, error.message)
                else:
                    _saved_message(request, len(deals))
                    return redirect("tournaments:desk_written", pk, round_number, table_number)
        elif valid and not form.rows:  # nothing typed: saving or checking, say so
            form.add_error(None, _("Type at least one line of the sheet."))
    return render(
        request,
        "tournaments/entry/desk_written.html",
        {
            "tournament": tournament,
            "table": table,
            "sheet": sheet,
            "form": form,
            "lines": lines,
            "totals": totals,
            "checked": checked,
            "double_entry": double,
            "typing": typing,
            "typed_first_here": typing is not None and typing.first_by_id == request.user.pk,
        },
    )


def _save_typing(
    request: HttpRequest, form: WrittenSheetForm, table: Table, typing: SheetTyping | None
) -> HttpResponse | None:
    """Store the form as the first or second typing; None: the form is shown again."""
    return store_typing(
        request,
        form=form,
        table=table,
        kind=SheetTyping.Kind.DEALS,
        store=lambda expected: double_entry.type_sheet(
            table=table,
            rows=form.rows,
            user=request.user,  # type: ignore[arg-type]
            typist=form.cleaned_data.get("typist", ""),
            expected_typing=expected,
        ),
    )


def typing_page(table: Table, kind: str | None) -> str:
    """Where a sheet of this kind is typed: its deals as written, or its round totals (None:
    the tournament's way, totals where it records round totals only)."""
    if kind is None and table.round.tournament.entry_mode == Tournament.EntryMode.TOTALS:
        kind = SheetTyping.Kind.TOTALS
    name = (
        "tournaments:desk_table_totals"
        if kind == SheetTyping.Kind.TOTALS
        else "tournaments:desk_written"
    )
    return reverse(name, args=[table.round.tournament_id, table.round.number, table.number])


def store_typing(
    request: HttpRequest,
    *,
    form: forms.Form,
    table: Table,
    kind: str,
    store: Callable[[int | None], SheetTyping],
) -> HttpResponse | None:
    """Store a typing of the sheet (``store`` takes the typing the form was made for, from the
    posted ``typing``) and answer: the first waits, an agreeing second counts, a differing
    one goes to the differences page. None: the form is shown again with the refusal."""
    args = (table.round.tournament_id, table.round.number, table.number)
    expected = _posted_int(request, "typing")
    try:
        stored = store(expected)
    except TypingConflict as error:
        if expected is None:
            form.add_error(None, error.message)
            return None
        messages.error(request, error.message)
        return redirect(typing_page(table, kind))
    except ResultError as error:
        form.add_error(error.field if error.field == "typist" else None, error.message)
        return None
    if stored.state == SheetTyping.State.AWAITING_SECOND:
        messages.success(
            request,
            _(
                "First typing saved. The sheet counts once somebody has typed it a second "
                "time: “Sheet waiting for its second typing”."
            ),
        )
        return redirect(typing_page(table, kind))
    if stored.state == SheetTyping.State.COUNTED and kind == SheetTyping.Kind.TOTALS:
        messages.success(request, _("Both typings agree: the round totals count."))
        return redirect("tournaments:desk_entry", *args)
    if stored.state == SheetTyping.State.COUNTED:
        count = len(stored.first_rows)
        messages.success(
            request,
            ngettext(
                "Both typings agree: %(count)s line of the sheet counts.",
                "Both typings agree: %(count)s lines of the sheet count.",
                count,
            )
            % {"count": count},
        )
        return redirect("tournaments:desk_written", *args)
    messages.warning(request, _("The two typings differ: settle each difference."))
    return redirect("tournaments:desk_written_differences", *args)


@dataclass
class SettleItem:
    row: DifferenceRow
    choice: str = ""
    value: str = ""
    error: str = ""


def _parse_typed(item: SettleItem) -> object:
    """The value typed for a cell, as the service takes it; a ValueError if unreadable."""
    text = item.value
    if item.row.kind == "contract":
        return text
    text = text.translate(_MINUS_SIGNS)
    for space in _SPACES:
        text = text.replace(space, "")
    if text == "":
        return None
    return int(text)


@organiser_required
def desk_written_differences(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """The two typings' differences, cell by cell, and settling them (double entry)."""
    table = _table(pk, round_number, table_number)
    tournament = table.round.tournament
    check(request.user, MANAGE_TOURNAMENT, tournament)
    if request.method == "POST":
        check_not_in_hall(tournament)
    typing = open_typing(table=table)
    if typing is None or typing.state != SheetTyping.State.DIFFERENCES:
        messages.info(request, _("This sheet has no differences to settle."))
        return redirect(typing_page(table, typing.kind if typing is not None else None))
    sheet = table_sheet(table=table)
    items = [SettleItem(row) for row in difference_rows(typing=typing, sheet=sheet)]
    error = ""
    if request.method == "POST":
        settled, error = _settle_posted(request, typing=typing, items=items, table=table)
        if settled is not None:
            return settled
    return render(
        request,
        "tournaments/entry/desk_written_differences.html",
        {
            "tournament": tournament,
            "table": table,
            "sheet": sheet,
            "typing": typing,
            "totals": typing.kind == SheetTyping.Kind.TOTALS,
            "items": items,
            "error": error,
            "contracts": contract_choices(sheet.rules, len(sheet.seats)),
            "whole_lines": _whole_lines(items),
        },
    )


def _settle_posted(
    request: HttpRequest, *, typing: SheetTyping, items: list[SettleItem], table: Table
) -> tuple[HttpResponse | None, str]:
    """The posted choices settled: a redirect when done (or when somebody else was quicker),
    else None and the error to show with the page again (empty: a whole line only filled in)."""
    page = typing_page(table, typing.kind)
    if request.POST.get("typing") != str(typing.pk):
        messages.error(
            request, _("Somebody else settled this sheet meanwhile; nothing was changed.")
        )
        return redirect(page), ""
    choices = _read_choices(request.POST, items)
    if choices is None:
        return None, ""  # only filled in: nothing is settled, the page is shown again
    if any(item.error for item in items):
        return None, _("Some differences are not settled yet; nothing was changed.")
    try:
        double_entry.settle_sheet(typing=typing, choices=choices, user=request.user)  # type: ignore[arg-type]
    except TypingConflict as conflict:
        messages.error(request, conflict.message)
        return redirect(page), ""
    except ResultError as refused:
        return None, refused.message
    messages.success(request, _("Differences settled: the sheet counts with the settled values."))
    table_round = table.round
    return redirect(
        "tournaments:desk_entry",
        table_round.tournament_id,
        table_round.number,
        table.number,
    ), ""


def _read_choices(post: QueryDict, items: list[SettleItem]) -> dict[str, tuple[str, object]] | None:
    """Each item's choice, typed value and error as posted, and the choices to settle; None
    when a whole line was taken ("first:2": deal 2's cells), which only fills in the choices."""
    choices: dict[str, tuple[str, object]] = {}
    whole_line = post.get("line", "").partition(":")
    line_only = whole_line[0] in (double_entry.FIRST, double_entry.SECOND)
    for item in items:
        item.choice = post.get(f"choice_{item.row.key}", "")
        item.value = post.get(f"value_{item.row.key}", "").strip()[:20]
        if line_only:
            if whole_line[2] == str(item.row.number):
                item.choice = whole_line[0]
            continue
        if item.choice not in (double_entry.FIRST, double_entry.SECOND, double_entry.TYPED):
            item.error = _("Choose the first value, the second or type the correct one.")
            continue
        value: object = None
        if item.choice == double_entry.TYPED:
            try:
                value = _parse_typed(item)
            except ValueError:
                item.error = _("Type a whole number.")
                continue
        choices[item.row.key] = (item.choice, value)
    return None if line_only else choices


def _whole_lines(items: list[SettleItem]) -> list[int]:
    """Deals with more than one differing cell: a whole line can be taken at once."""
    return sorted(
        {i.row.number for i in items if sum(j.row.number == i.row.number for j in items) > 1}
    )


@organiser_required
def desk_written_discard(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Throw away the open typing of a sheet (the wrong table's sheet typed), with a reason."""
    table = _table(pk, round_number, table_number)
    check(request.user, MANAGE_TOURNAMENT, table.round.tournament)
    typing = open_typing(table=table)
    page = typing_page(table, typing.kind if typing is not None else None)
    if request.method != "POST":
        return redirect(page)
    check_not_in_hall(table.round.tournament)
    if typing is None or str(typing.pk) != request.POST.get("typing"):
        messages.error(
            request, _("Somebody else settled this sheet meanwhile; nothing was changed.")
        )
        return redirect(page)
    try:
        double_entry.discard_typing(
            typing=typing,
            user=request.user,  # type: ignore[arg-type]
            reason=request.POST.get("reason", ""),
        )
    except ResultError as error:
        messages.error(request, error.message)
        if typing.state == SheetTyping.State.DIFFERENCES:
            return redirect("tournaments:desk_written_differences", pk, round_number, table_number)
    else:
        messages.success(request, _("The typing was discarded: type the sheet afresh."))
    return redirect(page)


def _posted_version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("expected_version", ""))
    except ValueError:
        return None


@organiser_required
def deal_correct_written(request: HttpRequest, deal_pk: int) -> HttpResponse:
    """Correct one deal as written (the sheet's line), with a reason."""
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=deal_pk)
    table = deal.table
    check(request.user, REFEREE_TOURNAMENT, table.round.tournament)
    if request.method == "POST":
        check_not_in_hall(table.round.tournament)  # the hall writes its results
    sheet = table_sheet(table=table)
    initial = {
        f"contract_{deal.number}": deal.contract,
        f"declarer_{deal.number}": deal.declarer_position,
    }
    for position, score in enumerate(deal.scores[: len(sheet.seats)]):
        initial[f"amount_{deal.number}_{position}"] = score
    posted = request.method == "POST"
    form = WrittenSheetForm(
        request.POST if posted else None, sheet=sheet, numbers=[deal.number], initial=initial
    )
    lines = form.lines()
    if posted and form.is_valid():
        lines, _totals, ok = _check_rows(form, table, sheet)
        if not form.rows:
            form.add_error(None, _("Type at least one line of the sheet."))
        elif ok:
            try:
                paper_sheets.revise_written_deal(
                    deal=deal,
                    row=form.rows[0],
                    # None (a form without it) is refused: no correction over a newer one.
                    expected_version=_posted_version(request),
                    user=request.user,
                    reason=form.cleaned_data.get("reason", ""),
                )
            except DealConflict as error:
                messages.error(request, error.message)
                return redirect("tournaments:deal_correct_written", deal.pk)
            except ResultError as error:
                form.add_error("reason" if error.field == "reason" else None, error.message)
            else:
                messages.success(request, _("Deal %(number)s corrected.") % {"number": deal.number})
                return redirect(
                    reverse(
                        "tournaments:desk_entry",
                        args=[table.round.tournament_id, table.round.number, table.number],
                    )
                )
    return render(
        request,
        "tournaments/entry/deal_correct_written.html",
        {
            "tournament": table.round.tournament,
            "table": table,
            "deal": deal,
            "sheet": sheet,
            "form": form,
            "lines": lines,
        },
    )


urlpatterns = [
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table_number>/written/",
        desk_written,
        name="desk_written",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table_number>/written/"
        "differences/",
        desk_written_differences,
        name="desk_written_differences",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table_number>/written/discard/",
        desk_written_discard,
        name="desk_written_discard",
    ),
    path(
        "deals/<int:deal_pk>/correct-as-written/",
        deal_correct_written,
        name="deal_correct_written",
    ),
]
