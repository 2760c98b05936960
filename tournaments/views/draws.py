"""Seat draw and seat plan of a round (organisers only).

``round_draw`` shows a drawn round (seed, tables, warnings, redraw, a swap asked for: a second
official approves it on ``views.fairness``'s page) or, for the next
round not yet drawn, who would be drawn and the button that draws it; when the players do not
fit the tournament's table sizes, how many are over or missing and the rules' options, each one
click (``tournaments.services.player_count``). The rule for when a round may be drawn lives in
``tournaments.services.draws``.
"""

from collections import Counter

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.forms import add_service_errors
from clubs.models import Player
from clubs.permissions import MANAGE_TOURNAMENT, REFEREE_TOURNAMENT, has_perm
from clubs.search import name_sort_key
from tournaments.addresses import public_base_url
from tournaments.forms.setup import SwapForm
from tournaments.models import Round, Tournament
from tournaments.services import draws as services
from tournaments.services import fairness, player_count
from tournaments.signals import printouts_ahead, round_seating_changed
from tournaments.views.access import tournament_permission

# The draw page's one-click offers when the count does not fit (services.player_count).
OPTION_ACTIONS = {
    "draw_fives": player_count.FIVES,
    "draw_threes": player_count.THREES,
    "draw_fill_ins": player_count.FILL_INS,
}


def tables_text(plan: tuple[int, ...] | list[int] | None) -> str:
    """ "8 tables of 4 and 1 table of 5": a table plan in words."""
    if not plan:
        return ""
    parts = [
        ngettext("%(count)s table of %(size)s", "%(count)s tables of %(size)s", count)
        % {"count": count, "size": size}
        for size, count in sorted(Counter(plan).items(), key=lambda item: -item[1])
    ]
    if len(parts) == 1:
        return parts[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}


def _changeable(round_: Round) -> bool:
    try:
        services.check_changeable(round_)
    except ValidationError:
        return False
    return True


def _prerender(request, tournament: Tournament, round_number: int) -> None:
    # The organiser prints next: render the sheets while they look at the draw.
    round_seating_changed.send(
        sender=Tournament,
        tournament=tournament,
        round_number=round_number,
        base_url=public_base_url(request),
    )


@tournament_permission(MANAGE_TOURNAMENT)
def round_draw(request, pk, round):  # noqa: A002
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = Round.objects.filter(tournament=tournament, number=round).first()
    drawn = tournament.round_set.aggregate(highest=Max("number"))["highest"] or 0
    if round_ is None and (round != drawn + 1 or round > tournament.rounds):
        raise Http404(_("This round cannot be drawn yet."))
    if request.method != "POST":
        printouts_ahead.send(sender=Tournament)  # the sheets are rendered right after the draw
        swap_form = SwapForm(round=round_) if round_ is not None else None
        return _draw_page(request, tournament, round, round_, swap_form)
    action = request.POST.get("action", "")
    if action == "swap" and round_ is not None:
        return _request_swap(request, tournament, round_)
    return _draw_action(request, tournament, round, round_, action)


def _request_swap(request, tournament: Tournament, round_: Round) -> HttpResponse:
    """A seat swap asked for: on to the swaps page, where a second official approves it, or
    the draw page again with the form's errors."""
    swap_form = SwapForm(request.POST, round=round_)
    if swap_form.is_valid():
        try:
            swap = fairness.request_swap(round=round_, user=request.user, **swap_form.cleaned_data)
        except ValidationError as error:
            add_service_errors(swap_form, error)
        else:
            # nothing changes until a second official approves it
            messages.success(
                request,
                _(
                    "Seat swap requested. A second official of the tournament must "
                    "approve it; until then the seats stay as drawn."
                ),
            )
            return redirect(
                reverse("tournaments:seat_swaps", args=[tournament.pk]) + f"#swap-{swap.pk}"
            )
    return _draw_page(request, tournament, round_.number, round_, swap_form)


def _draw_action(
    request, tournament: Tournament, number: int, round_: Round | None, action: str
) -> HttpResponse:
    """The draw's buttons (draw, a way to fit the count then draw, draw again): done or
    refused, each said in a message, and back to the draw page."""
    try:
        done = _draw_or_redraw(request, tournament, number, round_, action)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        if done:
            messages.success(request, done)
        else:
            messages.error(request, _("This action is not possible now."))
        _prerender(request, tournament, number)
    return redirect("tournaments:round_draw", pk=tournament.pk, round=number)


def _draw_or_redraw(
    request, tournament: Tournament, number: int, round_: Round | None, action: str
) -> str | None:
    """Carry out ``action`` (services); what to tell the organiser, or None when the action
    does not fit the round (drawn already, or not yet)."""
    while_previous_open = bool(request.POST.get("while_previous_open"))
    if action in OPTION_ACTIONS and round_ is None:
        # one click: the rules' way to fit the count, then the draw (services)
        option = OPTION_ACTIONS[action]
        player_count.draw_with(
            tournament=tournament,
            number=number,
            option=option,
            players=_fill_ins(request) if option == player_count.FILL_INS else [],
            user=request.user,
            while_previous_open=while_previous_open,
        )
        return _("Round %(number)s drawn.") % {"number": number}
    if action == "draw" and round_ is None:
        services.draw_next_round(
            tournament=tournament,
            number=number,
            user=request.user,
            while_previous_open=while_previous_open,
        )
        return _("Round %(number)s drawn.") % {"number": number}
    if action in ("redraw_same", "redraw_new") and round_ is not None:
        services.redraw_round(round=round_, same_seed=action == "redraw_same", user=request.user)
        return _("Round %(number)s drawn again.") % {"number": number}
    return None


def _fill_ins(request) -> list[Player]:
    """The members ticked as fill-ins on the draw page."""
    wanted = [v for v in request.POST.getlist("fill_in") if v.isdigit()]
    return list(Player.objects.filter(pk__in=wanted))


def _draw_page(
    request, tournament: Tournament, number: int, round_: Round | None, swap_form
) -> HttpResponse:
    """The draw page: who would be drawn and how (a round not drawn yet), or the drawn
    round's seats, warnings and the swap form."""
    context = {
        "tournament": tournament,
        "round_number": number,
        "round": round_,
        "missing": services.not_checked_in(tournament=tournament, round_number=number),
        "previous_open": (
            Round.objects.filter(tournament=tournament, number=number - 1)
            .exclude(state=Round.State.CLOSED)
            .first()
            if round_ is None
            else None
        ),
    }
    if round_ is None:
        context.update(_count_context(tournament, number))
    else:
        report = services.seating_report(round=round_)
        context.update(
            {
                "report": report,
                "changeable": _changeable(round_),
                "swap_form": swap_form,
                "players": sum(len(t) for t in report.tables),
            }
        )
    return render(request, "tournaments/draws/round_draw.html", context)


def _count_context(tournament: Tournament, number: int) -> dict:
    """A round not drawn yet: the players, the table plan and the ways to fit the count."""
    options = player_count.count_options(tournament=tournament, round_number=number)
    return {
        "players": options.advice.players,
        "plan": list(options.advice.plan) if options.advice.plan else None,
        "options": options,
        "plan_text": tables_text(options.advice.plan),
        "fives_text": tables_text(options.fives),
        "threes_text": tables_text(options.threes),
        "allowed_sizes": ", ".join(str(s) for s in sorted(tournament.allowed_table_sizes)),
    }


@tournament_permission(MANAGE_TOURNAMENT)
def seat_plan(request, pk, round):  # noqa: A002
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = get_object_or_404(Round, tournament=tournament, number=round)
    report = services.seating_report(round=round_)
    by_name = sorted(
        (seat for table in report.tables for seat in table),
        key=lambda s: name_sort_key(s.entry.player.first_name, s.entry.player.last_name),
    )
    return render(
        request,
        "tournaments/draws/seat_plan.html",
        {"tournament": tournament, "round": round_, "report": report, "by_name": by_name},
    )


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def round_release(request, pk, round):  # noqa: A002
    """ "Release draw": the round's seats go to the phones, players' pages and the projector
    (organisers and the tournament's referees)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = get_object_or_404(Round, tournament=tournament, number=round)
    try:
        services.release_draw(round=round_, user=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request, _("The draw of round %(number)s is released.") % {"number": round}
        )
    if has_perm(request.user, MANAGE_TOURNAMENT, tournament):
        return redirect("tournaments:round_draw", pk=tournament.pk, round=round)
    return redirect("tournaments:desk_round", pk=tournament.pk, round_number=round)


urlpatterns = [
    path("tournaments/<int:pk>/rounds/<int:round>/draw/", round_draw, name="round_draw"),
    path("tournaments/<int:pk>/rounds/<int:round>/seats/", seat_plan, name="seat_plan"),
    path("tournaments/<int:pk>/rounds/<int:round>/release/", round_release, name="round_release"),
]
