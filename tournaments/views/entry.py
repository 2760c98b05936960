"""Result entry at the desk: a keyboard-fast form per table, corrections, voiding."""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.contrib import messages
from django.db.models import Count, F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.permissions import (
    MANAGE_TOURNAMENT,
    REFEREE_TOURNAMENT,
    check,
    check_not_in_hall,
    has_perm,
    organiser_required,
)
from tournaments.deal_words import penalty_text
from tournaments.forms.entry import DealForm, initial_from_inputs
from tournaments.models import SCORE_LIMIT, Deal, Round, SheetTyping, Table, Tournament
from tournaments.selectors.double_entry import open_typing, open_typings
from tournaments.selectors.round_status import round_status
from tournaments.selectors.sheet_photos import waiting_photo_count
from tournaments.selectors.table_sheet import TableSheet, table_sheet
from tournaments.services import double_entry, paper_sheets, phone_entry, results_common
from tournaments.services.desk_entry import annul_deal, confirm_deal_at_desk, restore_deal
from tournaments.services.results_common import DealConflict, ResultError
from tournaments.services.round_state import (
    RoundStillOpen,
    reissue_table_token,
    set_round_clock,
    set_round_state,
    unvoid_table,
    void_table,
)
from tournaments.views.access import tournament_permission
from tournaments.views.written import store_typing, typing_page
from venue import backups


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500)


class ClockForm(forms.Form):
    minutes = forms.IntegerField(
        label=gettext_lazy("Time limit (minutes)"), min_value=1, max_value=600, required=False
    )


class TotalsForm(forms.Form):
    expected_version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    submission_key = forms.UUIDField(widget=forms.HiddenInput, required=False)
    reason = forms.CharField(label=gettext_lazy("Reason for the correction"), required=False)
    typist = forms.CharField(
        label=gettext_lazy("Typed by (name or initials)"),
        required=False,
        max_length=double_entry.TYPIST_LENGTH,
        help_text=gettext_lazy("So the log tells the two typists apart on a shared login."),
    )

    def __init__(self, *args, player_names: list[str], typist: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not typist:  # a typing of the sheet (double entry) says who typed it
            del self.fields["typist"]
        for position, name in enumerate(player_names):
            self.fields[f"total_{position}"] = forms.IntegerField(
                label=name, min_value=-SCORE_LIMIT, max_value=SCORE_LIMIT
            )
        self.size = len(player_names)

    def totals(self) -> list[int]:
        return [self.cleaned_data[f"total_{p}"] for p in range(self.size)]


def _table(pk: int, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament_id=pk,
        round__number=round_number,
        number=table_number,
    )


def deal_form(
    sheet: TableSheet,
    data=None,
    initial=None,
    number: int | None = None,
    *,
    require_version: bool = False,
) -> DealForm:
    number = number or (initial or {}).get("number") or sheet.next_number or 1
    return DealForm(
        data,
        require_version=require_version,
        rules=sheet.rules,
        player_names=sheet.player_names,
        sitting_out=sheet.sitting_out(number),
        deals_per_round=sheet.deals_per_round,
        initial={"number": number, **(initial or {})},
    )


def show_result_error(form: forms.Form, error: ResultError) -> None:
    """Put the service's message next to the field it concerns (or above the form)."""
    field = error.field
    if field and field.endswith("]"):  # the engine's points[2] is the form's points_2
        field = field[:-1].replace("[", "_")
    form.add_error(field if field in form.fields else None, error.message)


def entry_url(table: Table) -> str:
    return reverse(
        "tournaments:desk_entry",
        args=[table.round.tournament_id, table.round.number, table.number],
    )


@tournament_permission(REFEREE_TOURNAMENT)
def desk_round(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )
    return _render_round(request, round_)


def _render_round(
    request: HttpRequest, round_: Round, *, close_refused: RoundStillOpen | None = None
) -> HttpResponse:
    status = round_status(round=round_)
    tables = {table.pk: table for table in round_.tables.all()}
    typings = open_typings(round=round_)  # double entry: sheets typed once, or differing
    # Deals entered and confirmed on one phone, per table: the organiser should look at them.
    same_device = dict(
        Deal.objects.filter(table__round=round_)
        .exclude(entered_device="")
        .filter(entered_device=F("confirmed_device"))
        .values_list("table_id")
        .annotate(count=Count("pk"))
    )
    return render(
        request,
        "tournaments/entry/desk_round.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "photos_waiting": waiting_photo_count(round=round_),
            "tables": [
                {
                    "table": tables[t.table_id],
                    "status": t,
                    "confirmed": t.done,
                    "pending": t.pending,
                    "same_device": same_device.get(t.table_id, 0),
                    "expected": t.expected,
                    "typing": typings.get(t.table_id),
                }
                for t in status.tables
            ],
            "status": status,
            "close_refused": close_refused,
            "reason_form": ReasonForm(),
            "history": round_.changes.select_related("table", "changed_by"),
            "backup_problem": backups.backup_folder_problem(),
        },
        status=409 if close_refused else 200,
    )


def _tell_backup(request: HttpRequest, path: Path | None) -> None:
    """Venue mode, a round closed: where its backup went, or that there is none."""
    if path is not None:
        messages.success(request, _("Backup saved: %(path)s") % {"path": path})
    else:
        messages.error(
            request,
            backups.backup_folder_problem()
            or _("The backup after closing the round failed; see the server's window."),
        )


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def round_state(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )
    try:
        set_round_state(
            round=round_,
            state=request.POST.get("state", ""),
            user=request.user,
            reason=request.POST.get("reason", ""),
            close_open=bool(request.POST.get("close_open")),
            on_backup=lambda path: _tell_backup(request, path),
        )
    except RoundStillOpen as refused:
        # show what is still open and ask for an explicit confirmation
        return _render_round(request, round_, close_refused=refused)
    except ResultError as error:
        messages.error(request, error.message)
    return redirect("tournaments:desk_round", pk, round_number)


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def round_clock(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )
    form = ClockForm(request.POST)
    if form.is_valid():
        try:
            set_round_clock(round=round_, minutes=form.cleaned_data["minutes"], user=request.user)
        except ResultError as error:
            messages.error(request, error.message)
    else:
        messages.error(request, _("A time limit is 1 to 600 minutes."))
    return redirect("tournaments:desk_round", pk, round_number)


@tournament_permission(REFEREE_TOURNAMENT, post=MANAGE_TOURNAMENT)
def desk_entry(request: HttpRequest, pk: int, round_number: int, table_number: int) -> HttpResponse:
    table = _table(pk, round_number, table_number)
    tournament = table.round.tournament
    sheet = table_sheet(table=table)
    if tournament.entry_mode == Tournament.EntryMode.TOTALS or any(
        line.deal.kind == Deal.Kind.TOTAL for line in sheet.lines
    ):
        return _desk_totals(request, table, sheet)
    typing = open_typing(table=table) if tournament.double_entry else None
    # The sheet waits for its second typing (or its settlement): no deal form, and a deal
    # posted anyway (a form opened before the first typing) is refused, nothing stored.
    typing_waits = paper_sheets.typing_waits_message(typing.state) if typing else ""
    form = deal_form(sheet)
    refused = False
    if request.method == "POST" and typing_waits:
        refused = True  # the page says why, in place of the form
    elif request.method == "POST":
        form = deal_form(sheet, data=request.POST, number=_posted_number(request))
        if form.is_valid():
            try:
                deal = phone_entry.enter_deal(
                    table=table,
                    number=form.cleaned_data["number"],
                    inputs=form.deal_inputs(),
                    submission_key=form.cleaned_data.get("submission_key"),
                    via="desk",
                    user=request.user,
                    reason=request.POST.get("reason", ""),
                )
            except ResultError as error:
                show_result_error(form, error)
            else:
                messages.success(request, _("Deal %(number)s saved.") % {"number": deal.number})
                return redirect(entry_url(table))
    return render(
        request,
        "tournaments/entry/desk_entry.html",
        {
            "tournament": tournament,
            "table": table,
            "sheet": sheet,
            "form": form,
            "void_form": ReasonForm(),
            "preview_url": reverse("tournaments:desk_preview", args=[table.pk]),
            # a sheet typed once is typed the same way again: its deals, or its totals
            "written_possible": typing is None or typing.kind == SheetTyping.Kind.DEALS,
            "totals_possible": not sheet.lines
            and (typing is None or typing.kind == SheetTyping.Kind.TOTALS),
            "typing": typing,
            "typing_waits": typing_waits,
            "refused": refused,
            "typing_url": typing_page(table, typing.kind) if typing else "",
            **_phone_link(request, table),
        },
        status=409 if refused else 200,
    )


def _phone_link(request: HttpRequest, table: Table) -> dict:
    """The table's phone address and its QR code (for the organisers, who may re-issue it)."""
    if not has_perm(request.user, MANAGE_TOURNAMENT, table.round.tournament):
        return {}
    from tournaments.addresses import absolute_url, qr_data_uri

    url = absolute_url(request, reverse("tournaments:table_entry", args=[table.token]))
    return {"phone_url": url, "phone_qr": qr_data_uri(url)}


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def table_token(request: HttpRequest, table_pk: int) -> HttpResponse:
    """A new token (and QR code) for a table whose old one was lost with a phone."""
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_pk)
    reissue_table_token(table=table, user=request.user)
    messages.success(
        request,
        _("Table %(number)s has a new QR code; the old one no longer works.")
        % {"number": table.number},
    )
    return redirect(entry_url(table))


@organiser_required
def desk_table_totals(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """A table whose paper sheet has only round sums, in a tournament recording every deal."""
    table = _table(pk, round_number, table_number)
    check(request.user, MANAGE_TOURNAMENT, table.round.tournament)
    if request.method == "POST":
        check_not_in_hall(table.round.tournament)  # the hall writes its results
    return _desk_totals(request, table, table_sheet(table=table))


def _posted_number(request: HttpRequest, name: str = "number") -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


def _desk_totals(request: HttpRequest, table: Table, sheet: TableSheet) -> HttpResponse:
    """A table's round totals: entered once, corrected with a reason; where the tournament
    types paper sheets twice, new totals are a typing (``double_entry.type_totals``) that
    counts once a second typing agrees, as a sheet of deals as written does."""
    tournament = table.round.tournament
    existing = next((line.deal for line in sheet.lines), None)
    double = tournament.double_entry and existing is None
    typing = open_typing(table=table) if double else None
    args = (tournament.pk, table.round.number, table.number)
    if typing is not None and typing.state == SheetTyping.State.DIFFERENCES:
        return redirect("tournaments:desk_written_differences", *args)
    if typing is not None and typing.kind != SheetTyping.Kind.TOTALS:
        messages.info(request, double_entry.other_kind_message(typing))
        return redirect(typing_page(table, typing.kind))
    initial = {}
    if existing is not None:
        initial = {f"total_{p}": s for p, s in enumerate(existing.scores) if s is not None}
        initial["expected_version"] = existing.version
    form = TotalsForm(initial=initial, player_names=sheet.player_names, typist=double)
    if request.method == "POST":
        form = TotalsForm(request.POST, player_names=sheet.player_names, typist=double)
        if form.is_valid() and double:
            response = store_typing(
                request,
                form=form,
                table=table,
                kind=SheetTyping.Kind.TOTALS,
                store=lambda expected: double_entry.type_totals(
                    table=table,
                    totals=form.totals(),
                    user=request.user,  # type: ignore[arg-type]
                    typist=form.cleaned_data.get("typist", ""),
                    expected_typing=expected,
                ),
            )
            if response is not None:
                return response
            typing = open_typing(table=table)  # a first typing stored meanwhile: saving the
            # form again makes it the second typing
        elif form.is_valid():
            try:
                paper_sheets.enter_totals(
                    table=table,
                    totals=form.totals(),
                    user=request.user,
                    expected_version=form.cleaned_data.get("expected_version"),
                    reason=form.cleaned_data.get("reason", ""),
                    submission_key=form.cleaned_data.get("submission_key"),
                )
            except ResultError as error:
                show_result_error(form, error)
            else:
                messages.success(
                    request, _("Totals of table %(table)s saved.") % {"table": table.number}
                )
                return redirect(entry_url(table))
    return render(
        request,
        "tournaments/entry/desk_totals.html",
        {
            "tournament": table.round.tournament,
            "table": table,
            "sheet": sheet,
            "form": form,
            "existing": existing,
            "void_form": ReasonForm(),
            "double_entry": double,
            "typing": typing,
            "typed_first_here": typing is not None and typing.first_by_id == request.user.pk,
            **_phone_link(request, table),
        },
    )


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def desk_preview(request: HttpRequest, table_pk: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_pk)
    return render_preview(request, table)


def render_preview(request: HttpRequest, table: Table) -> HttpResponse:
    """The scores the deal would get, computed by the engine, before anything is saved."""
    sheet = table_sheet(table=table)
    form = deal_form(sheet, data=request.POST, number=_posted_number(request))
    context: dict = {"sheet": sheet}
    if form.is_valid():
        try:
            _record, scores = results_common.compute_scores(
                facts=results_common.TableFacts(
                    table=table,
                    rules=sheet.rules,
                    table_size=len(sheet.seats),
                    last_round=results_common.last_round_raeuber(table),
                ),
                number=form.cleaned_data["number"],
                inputs=form.deal_inputs(),
            )
        except ResultError as error:
            context["error"] = error.message
        else:
            context["scores"] = list(zip(sheet.player_names, scores, strict=True))
            penalty = form.deal_inputs().get("penalty")
            if penalty:  # the engine scores the penalty instead of the game: say so
                context["penalty"] = penalty_text(penalty=penalty, names=sheet.player_names)
    elif request.POST.get("contract"):
        context["incomplete"] = True
    return render(request, "tournaments/entry/_preview.html", context)


@tournament_permission(REFEREE_TOURNAMENT)
def deal_correct(request: HttpRequest, deal_pk: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=deal_pk)
    if deal.as_written and request.method != "POST":
        return redirect("tournaments:deal_correct_written", deal.pk)
    table = deal.table
    sheet = table_sheet(table=table)
    initial = {
        **initial_from_inputs(results_common.stored_record(deal)),
        "number": deal.number,
        "expected_version": deal.version,
    }
    form = deal_form(sheet, initial=initial, number=deal.number)
    reason_form = ReasonForm()
    if request.method == "POST":
        form = deal_form(sheet, data=request.POST, number=deal.number, require_version=True)
        reason_form = ReasonForm(request.POST)
        if form.is_valid() and reason_form.is_valid():
            try:
                phone_entry.revise_deal(
                    deal=deal,
                    inputs=form.deal_inputs(),
                    expected_version=form.cleaned_data["expected_version"],
                    user=request.user,
                    reason=reason_form.cleaned_data["reason"],
                )
            except DealConflict as error:
                messages.error(request, error.message)
                return redirect("tournaments:deal_correct", deal.pk)
            except ResultError as error:
                show_result_error(form, error)
            else:
                messages.success(request, _("Deal %(number)s corrected.") % {"number": deal.number})
                return redirect(entry_url(table))
    return render(
        request,
        "tournaments/entry/deal_correct.html",
        {
            "tournament": table.round.tournament,
            "table": table,
            "deal": deal,
            "sheet": sheet,
            "form": form,
            "reason_form": reason_form,
            "history": deal.changes.select_related("changed_by").order_by("pk"),
            "preview_url": reverse("tournaments:desk_preview", args=[table.pk]),
        },
    )


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def deal_confirm(request: HttpRequest, deal_pk: int) -> HttpResponse:
    """A deal waiting for a second phone, confirmed at the desk by the organiser or a
    referee (the table never confirmed it again after a phone changed it)."""
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=deal_pk)
    try:
        confirm_deal_at_desk(
            deal=deal, user=request.user, expected_version=_posted_number(request, "version")
        )
    except ResultError as error:
        messages.error(request, error.message)
        return redirect("tournaments:deal_correct", deal.pk)
    messages.success(request, _("Deal %(number)s confirmed.") % {"number": deal.number})
    return redirect(entry_url(deal.table))


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def deal_annul(request: HttpRequest, deal_pk: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("table__round"), pk=deal_pk)
    reason = request.POST.get("reason", "")
    try:
        if deal.status == Deal.Status.ANNULLED:
            restore_deal(deal=deal, reason=reason, user=request.user)
        else:
            annul_deal(
                deal=deal,
                reason=reason,
                user=request.user,
                expected_version=_posted_number(request, "version"),
            )
    except ResultError as error:
        messages.error(request, error.message)
        return redirect("tournaments:deal_correct", deal.pk)
    return redirect(entry_url(deal.table))


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def table_void(request: HttpRequest, table_pk: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_pk)
    try:
        if request.POST.get("undo"):
            unvoid_table(table=table, reason=request.POST.get("reason", ""), user=request.user)
        else:
            void_table(table=table, reason=request.POST.get("reason", ""), user=request.user)
    except ResultError as error:
        messages.error(request, error.message)
    return redirect(entry_url(table))


urlpatterns = [
    path("tournaments/<int:pk>/rounds/<int:round_number>/entry/", desk_round, name="desk_round"),
    path("tournaments/<int:pk>/rounds/<int:round_number>/state/", round_state, name="round_state"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table_number>/",
        desk_entry,
        name="desk_entry",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table_number>/totals/",
        desk_table_totals,
        name="desk_table_totals",
    ),
    path("tournaments/<int:pk>/rounds/<int:round_number>/clock/", round_clock, name="round_clock"),
    path("tables/<int:table_pk>/preview/", desk_preview, name="desk_preview"),
    path("tables/<int:table_pk>/void/", table_void, name="table_void"),
    path("tables/<int:table_pk>/token/", table_token, name="table_token"),
    path("deals/<int:deal_pk>/correct/", deal_correct, name="deal_correct"),
    path("deals/<int:deal_pk>/annul/", deal_annul, name="deal_annul"),
    path("deals/<int:deal_pk>/confirm/", deal_confirm, name="deal_confirm"),
]
