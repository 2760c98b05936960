"""Result entry at the table, on a phone: the QR code on the score sheet opens this page.

No login: the table's unguessable token is the key, and it opens only that table's round.
A player says which seat they are (kept in the session); a deal entered there counts once a
player at another seat has confirmed it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, re_path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.deal_words import deal_parts
from tournaments.forms.entry import DealForm, initial_from_inputs
from tournaments.models import SHORT_CODE_LENGTH, Deal, Round, Seat, Table, normalise_short_code
from tournaments.selectors.double_entry import open_typing
from tournaments.selectors.plain import table_by_token
from tournaments.selectors.table_sheet import TableSheet, table_seating, table_sheet
from tournaments.services import hall, paper_sheets, phone_entry, results_common
from tournaments.services.results_common import DealConflict, Device, ResultError
from tournaments.views.device import device_of
from tournaments.views.entry import deal_form, render_preview, show_result_error
from venue.client_ip import client_ip


def _table(token: str, *, released: bool = True) -> Table:
    """The token's table; with ``released``, only once its round's draw is released (before
    that nothing of the table is shown or entered from a phone)."""
    table = table_by_token(token)
    if table is None:
        raise Http404("no such table")
    if released and table.round.awaiting_release:
        raise Http404(_("The draw of this round has not been released yet."))
    return table


def _session_key(table: Table) -> str:
    return f"table-seat:{table.token}"


def _my_position(request: HttpRequest, table: Table, sheet: TableSheet) -> int | None:
    """The seat this phone chose, while the player drawn there still sits there: after an
    approved swap (``services.fairness``) the phone is asked again, instead of speaking for
    the newcomer. The session keeps [position, the seat's entry id]; a bare position (chosen
    before the entry was kept) is taken as it is."""
    chosen = request.session.get(_session_key(table))
    entry_id = None
    if isinstance(chosen, list) and len(chosen) == 2:
        chosen, entry_id = chosen
    if not isinstance(chosen, int) or not 0 <= chosen < len(sheet.seats):
        return None
    if entry_id is not None and sheet.seats[chosen].entry_id != entry_id:
        return None
    return chosen


def _actor(sheet: TableSheet, position: int) -> str:
    return _("%(name)s at table %(table)s (phone)") % {
        "name": sheet.seats[position].name,
        "table": sheet.table.number,
    }


def _is_open(table: Table) -> bool:
    return not table.voided and table.round.state != Round.State.CLOSED


def table_entry(request: HttpRequest, token: str) -> HttpResponse:
    table = _table(token, released=False)
    if table.round.awaiting_release:  # the organisers are still checking the draw
        return render(
            request, "tournaments/entry/phone_not_released.html", {"table": table}, status=200
        )
    device = device_of(request)  # the phone gets its id on its first visit
    number = _posted_int(request, "number") if request.method == "POST" else None
    # A posted deal needs only the players and the rules; the page, the whole sheet.
    sheet = table_seating(table=table) if number is not None else table_sheet(table=table)
    position = _my_position(request, table, sheet)
    standings_url = reverse("tournaments:standings", args=[table.round.tournament_id])
    if position is None:
        return render(
            request,
            "tournaments/entry/phone_choose_seat.html",
            {"table": table, "sheet": sheet, "standings_url": standings_url},
        )
    partial = request.htmx and request.GET.get("partial") == "sheet"  # the sheet, every 15 s
    clash = None
    # Double entry: the table's paper sheet typed once at the desk waits for its second
    # typing; until it counts the phone offers no deal form, and a deal posted anyway (a
    # page opened before, the offline queue) is refused with the reason, nothing stored.
    waiting = open_typing(table=table) if table.round.tournament.double_entry else None
    typing_waits = paper_sheets.typing_waits_message(waiting.state) if waiting else ""
    if typing_waits:
        form = None
        if request.method == "POST" and number is not None:
            sheet = table_sheet(table=table)
    elif request.method != "POST":
        form = None if partial else deal_form(sheet)
    else:
        form = deal_form(sheet, data=request.POST, number=number)
        if form.is_valid():
            try:
                deal = phone_entry.enter_deal(
                    table=table,
                    number=form.cleaned_data["number"],
                    inputs=form.deal_inputs(),
                    submission_key=form.cleaned_data.get("submission_key"),
                    via="table",
                    entered_by_position=position,
                    actor=_actor(sheet, position),
                    device=device,
                )
            except DealConflict as error:
                clash = _clash(table, form, position, device) if error.field == "number" else None
                if clash is None:
                    show_result_error(form, error)
            except ResultError as error:
                show_result_error(form, error)
            else:
                messages.success(
                    request,
                    _("Deal %(number)s saved. Another player confirms it on their phone or here.")
                    % {"number": deal.number},
                )
                return redirect("tournaments:table_entry", token)
        if number is not None:  # the form again, with the sheet
            sheet = table_sheet(table=table)
    context = {
        "table": table,
        "tournament": table.round.tournament,
        "sheet": sheet,
        "form": form,
        "me": position,
        "my_name": sheet.seats[position].name,
        "my_number": sheet.seats[position].number,
        # the shared standings page (no query string: it stays cached) with this player's
        # row marked by the fragment (static/js/standings-search.js)
        "standings_url": f"{standings_url}#entry-{sheet.seats[position].entry_id}",
        "is_open": _is_open(table),
        "preview_url": reverse("tournaments:table_entry_preview", args=[token]),
        "clash": clash,
        "partial": partial,
        "typing_waits": typing_waits,
        "refused": bool(typing_waits) and request.method == "POST",
    }
    if partial:
        return render(request, "tournaments/entry/_phone_live.html", context)
    status = 409 if context["refused"] else 200
    return render(request, "tournaments/entry/phone_entry.html", context, status=status)


@dataclass(frozen=True)
class Clash:
    """A deal this phone tried to enter that another phone (or the desk) entered first: what
    was stored, where it differs from what this player typed, and what they may do."""

    deal: Deal
    entered_by: str  # the player's short name; "" for the desk
    parts: tuple[tuple[str, str], ...]  # (stored, this player's value where it differs)
    may_confirm: bool
    may_change: bool


def _clash(table: Table, form: DealForm, position: int, device: Device) -> Clash | None:
    deal = Deal.objects.filter(table=table, number=form.cleaned_data["number"]).first()
    if deal is None or deal.kind != Deal.Kind.DEAL:
        return None
    sheet = table_seating(table=table)
    names = [seat.short_name or seat.name for seat in sheet.seats]
    stored = deal_parts(
        rules=sheet.rules, inputs=results_common.stored_record(deal), names=names, labelled=False
    )
    mine = deal_parts(rules=sheet.rules, inputs=form.deal_inputs(), names=names, labelled=False)
    parts = tuple(
        (str(part), "" if index >= len(mine) or mine[index] == part else str(mine[index]))
        for index, part in enumerate(stored)
    )
    pending = deal.status == Deal.Status.PENDING and _is_open(table)
    other_phone = deal.entered_by_position != position and (
        not device.id or device.id != deal.entered_device
    )
    entered_by = deal.entered_by_position
    return Clash(
        deal=deal,
        entered_by=names[entered_by] if entered_by is not None and entered_by < len(names) else "",
        parts=parts,
        may_confirm=pending and other_phone,
        may_change=pending,
    )


def _posted_int(request: HttpRequest, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


@require_POST
def choose_seat(request: HttpRequest, token: str) -> HttpResponse:
    table = _table(token)
    position = _posted_int(request, "position")
    entry_id = (
        Seat.objects.filter(table=table, position=position)
        .values_list("entry_id", flat=True)
        .first()
        if position is not None
        else None
    )
    if entry_id is None:
        messages.error(request, _("That seat does not exist at this table."))
    else:
        request.session[_session_key(table)] = [position, entry_id]
    return redirect("tournaments:table_entry", token)


@require_POST
def leave_seat(request: HttpRequest, token: str) -> HttpResponse:
    table = _table(token)
    request.session.pop(_session_key(table), None)
    return redirect("tournaments:table_entry", token)


def _seated_deal(
    request: HttpRequest, token: str, deal_pk: int
) -> tuple[Table, TableSheet, int | None, Deal]:
    """The table, its sheet, the asking player's seat (None: not chosen yet) and the deal."""
    table = _table(token)
    sheet = table_sheet(table=table)
    deal = get_object_or_404(Deal, pk=deal_pk, table=table)
    return table, sheet, _my_position(request, table, sheet), deal


@require_POST
def confirm(request: HttpRequest, token: str, deal_pk: int) -> HttpResponse:
    table, sheet, position, deal = _seated_deal(request, token, deal_pk)
    if position is None:
        return redirect("tournaments:table_entry", token)
    try:
        phone_entry.confirm_deal(
            deal=deal,
            confirmer_position=position,
            expected_version=_posted_int(request, "version"),
            actor=_actor(sheet, position),
            device=device_of(request),
        )
    except ResultError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Deal %(number)s confirmed.") % {"number": deal.number})
    return redirect("tournaments:table_entry", token)


def revise(request: HttpRequest, token: str, deal_pk: int) -> HttpResponse:
    """Change a deal nobody has confirmed yet (it then waits for another player again)."""
    table, sheet, position, deal = _seated_deal(request, token, deal_pk)
    if position is None:
        return redirect("tournaments:table_entry", token)
    if deal.status != Deal.Status.PENDING:
        raise Http404("only unconfirmed deals are changed at the table")
    initial = {
        **initial_from_inputs(results_common.stored_record(deal)),
        "number": deal.number,
        "expected_version": deal.version,
    }
    form = deal_form(sheet, initial=initial, number=deal.number)
    if request.method == "POST":
        form = deal_form(sheet, data=request.POST, number=deal.number, require_version=True)
        if form.is_valid():
            try:
                phone_entry.revise_deal(
                    deal=deal,
                    inputs=form.deal_inputs(),
                    expected_version=form.cleaned_data["expected_version"],
                    entered_by_position=position,
                    actor=_actor(sheet, position),
                    device=device_of(request),
                )
            except DealConflict as error:
                messages.error(request, error.message)
                return redirect("tournaments:table_entry", token)
            except ResultError as error:
                show_result_error(form, error)
            else:
                messages.success(request, _("Deal %(number)s changed.") % {"number": deal.number})
                return redirect("tournaments:table_entry", token)
    return render(
        request,
        "tournaments/entry/phone_revise.html",
        {
            "table": table,
            "sheet": sheet,
            "deal": deal,
            "form": form,
            "my_name": sheet.seats[position].name,
            "my_number": sheet.seats[position].number,
            "preview_url": reverse("tournaments:table_entry_preview", args=[token]),
        },
    )


# A short code is six characters from 31: about 10**9 codes, and 40 open tables make a
# random guess hit one in 22 million. Unthrottled, 500 guesses a second gave even odds over
# a day; with 20 misses per address per 10 minutes a guesser needs centuries. A code leads
# where the table's token leads, also after its round closed (the sheet prints the short
# address; a closed round's page takes no entry and shows what the standings show): a
# server keeping 10,000 tables still leaves one address some 35 days of guessing a table.
SHORT_CODE_MISSES = 20
SHORT_CODE_WINDOW_SECONDS = 10 * 60


def _short_code_misses_key(request: HttpRequest) -> str:
    return f"short-code-misses:{client_ip(request)}"


def short_code(request: HttpRequest, code: str) -> HttpResponse:
    """A table's short code, typed on a phone that cannot scan: on to the table's page (the
    token's address, whatever the round's state: open, closed or the table voided). Codes
    that lead nowhere are counted per address; after ``SHORT_CODE_MISSES`` within the window
    that address gets no table at all (429)."""
    misses_key = _short_code_misses_key(request)
    if cache.get(misses_key, 0) >= SHORT_CODE_MISSES:
        return render(
            request,
            "tournaments/entry/phone_short_code_blocked.html",
            {"minutes": SHORT_CODE_WINDOW_SECONDS // 60},
            status=429,
        )
    table = Table.objects.filter(short_code=normalise_short_code(code)).only("token").first()
    if table is None:
        cache.add(misses_key, 0, SHORT_CODE_WINDOW_SECONDS)
        try:
            cache.incr(misses_key)
        except ValueError:  # expired between add and incr: this miss starts a new window
            cache.set(misses_key, 1, SHORT_CODE_WINDOW_SECONDS)
        raise Http404(_("No table has this short address."))
    return redirect("tournaments:table_entry", table.token)


@require_POST
def call_referee(request: HttpRequest, token: str) -> HttpResponse:
    """ "Schiedsrichter rufen": the table calls the referee (with the deal and a reason if
    given). A second press while the call is open adds nothing and says so."""
    table = _table(token)
    deal = _posted_int(request, "deal")
    if request.POST.get("deal", "").strip() and deal is None:
        messages.error(request, _("The deal is a number, e.g. 7."))
        return redirect("tournaments:table_entry", token)
    sheet = table_seating(table=table)
    position = _my_position(request, table, sheet)
    caller = (
        _actor(sheet, position)
        if position is not None
        else _("a phone at table %(table)s") % {"table": table.number}
    )
    try:
        call, created = hall.call_referee(
            table=table,
            deal_number=deal,
            reason=request.POST.get("reason", ""),
            called_by=caller,
            device=device_of(request).id,
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        if created:
            messages.success(request, _("The referee has been called. Please wait at your table."))
        else:
            messages.info(
                request,
                _("The referee was called already at %(time)s and is on the way.")
                % {"time": date_format(timezone.localtime(call.called_at), "TIME_FORMAT")},
            )
    return redirect("tournaments:table_entry", token)


@require_POST
def preview(request: HttpRequest, token: str) -> HttpResponse:
    return render_preview(request, _table(token))


urlpatterns = [
    # Six characters, case-insensitive, slash optional: what a player types by hand. Tokens
    # are 24 characters long, so the two never meet.
    re_path(
        rf"^t/(?P<code>[2-9A-Za-z]{{{SHORT_CODE_LENGTH}}})/?$", short_code, name="table_short_code"
    ),
    path("t/<str:token>/", table_entry, name="table_entry"),
    path("t/<str:token>/seat/", choose_seat, name="table_entry_seat"),
    path("t/<str:token>/leave/", leave_seat, name="table_entry_leave"),
    path("t/<str:token>/preview/", preview, name="table_entry_preview"),
    path("t/<str:token>/referee/", call_referee, name="table_entry_call"),
    path("t/<str:token>/deals/<int:deal_pk>/confirm/", confirm, name="table_entry_confirm"),
    path("t/<str:token>/deals/<int:deal_pk>/change/", revise, name="table_entry_revise"),
]
