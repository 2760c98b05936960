"""A table's paper sheet typed in as written: contract, declarer and the amounts per line.

One page serves a single line and a whole sheet: "Check this sheet" runs the engine's check
on every typed line and shows each line's full row or what the amounts could be; "Save"
stores the lines (all or none) through ``results.enter_written_deals``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
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
from tournaments.models import Deal, Table
from tournaments.selectors.table_sheet import TableSheet, table_sheet
from tournaments.services import results
from tournaments.services.results import DealConflict, ResultError, WrittenRow

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

    def __init__(self, *args, sheet: TableSheet, numbers: list[int], **kwargs) -> None:
        super().__init__(*args, **kwargs)
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
            if name != "reason":
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
    facts = results.TableFacts(table=table, rules=sheet.rules, table_size=len(sheet.seats))
    lines = {line.number: line for line in form.lines()}
    totals = list(sheet.totals)
    ok = True
    for row in form.rows:
        try:
            written = results.check_written_row(facts=facts, row=row)
        except ResultError as error:
            lines[row.number].error = error.message
            ok = False
        else:
            lines[row.number].scores = written.scores
            totals = [t + s for t, s in zip(totals, written.scores, strict=True)]
    return list(lines.values()), totals, ok


@organiser_required
def desk_written(request: HttpRequest, pk: int, round_number: int, table_number: int):
    table = _table(pk, round_number, table_number)
    tournament = table.round.tournament
    check(request.user, MANAGE_TOURNAMENT, tournament)
    if request.method == "POST":
        check_not_in_hall(tournament)  # the hall writes its results
    sheet = table_sheet(table=table)
    taken = {line.number for line in sheet.lines}
    numbers = [n for n in range(1, sheet.deals_per_round + 1) if n not in taken]
    # Bound on every POST, an empty one too (unbound, it had no rows and the check crashed).
    posted = request.method == "POST"
    form = WrittenSheetForm(request.POST if posted else None, sheet=sheet, numbers=numbers)
    lines = form.lines()
    totals = list(sheet.totals)
    checked = False
    if request.method == "POST":
        valid = form.is_valid()  # cleans every line; a bad cell does not stop the others
        lines, totals, ok = _check_rows(form, table, sheet)
        checked = True
        if request.POST.get("action") == "save" and valid and ok and form.rows:
            try:
                deals = results.enter_written_deals(table=table, rows=form.rows, user=request.user)
            except ResultError as error:
                form.add_error(None, error.message)
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)s line of the sheet saved as written.",
                        "%(count)s lines of the sheet saved as written.",
                        len(deals),
                    )
                    % {"count": len(deals)},
                )
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
        },
    )


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
                results.revise_written_deal(
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
        "deals/<int:deal_pk>/correct-as-written/",
        deal_correct_written,
        name="deal_correct_written",
    ),
]
