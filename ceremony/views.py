"""The desk's page for the prize ceremony (``/tournaments/<pk>/ceremony/``): which places the
public does not see from which round, and the button "Siegerehrung starten" that shows them.
Who may see the hidden places anyway: ``clubs.permissions.sees_hidden_places``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ceremony import selectors, services
from ceremony.forms import HidingForm
from ceremony.models import CeremonySettings
from clubs.permissions import MANAGE_TOURNAMENT, has_perm
from tournaments.models import Tournament
from tournaments.selectors.visibility import hiding
from tournaments.views.access import tournament_permission


def _initial(settings: CeremonySettings | None) -> dict:
    if settings is None or settings.hide_from_round is None:
        return {"hide": "none", "from_round": None, "top": 3}
    return {
        "hide": "all" if settings.hide_top_n is None else "top",
        "from_round": settings.hide_from_round,
        "top": settings.hide_top_n,
    }


@tournament_permission(MANAGE_TOURNAMENT)
def ceremony_settings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    settings = CeremonySettings.objects.filter(tournament=tournament).first()
    form = HidingForm(initial=_initial(settings))
    if request.method == "POST":
        action = request.POST.get("action", "save")
        try:
            if action == "reveal":
                services.reveal(tournament=tournament, user=request.user)
                messages.success(
                    request, _("The prize ceremony has started: all places are shown.")
                )
                return redirect("ceremony:settings", pk=pk)
            if action == "hide_again":
                services.hide_again(tournament=tournament, user=request.user)
                messages.success(request, _("The places are hidden again."))
                return redirect("ceremony:settings", pk=pk)
            form = HidingForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                hide = data["hide"]
                services.set_hiding(
                    tournament=tournament,
                    user=request.user,
                    from_round=None if hide == "none" else data["from_round"],
                    top=data["top"] if hide == "top" else None,
                )
                messages.success(request, _("Saved."))
                return redirect("ceremony:settings", pk=pk)
        except services.CeremonyError as error:
            messages.error(request, error.message)
            return redirect("ceremony:settings", pk=pk)
    return render(
        request,
        "ceremony/settings.html",
        {
            "tournament": tournament,
            "form": form,
            "settings": settings,
            "hiding": hiding(tournament=tournament),
        },
    )


urlpatterns = [
    path("tournaments/<int:pk>/ceremony/", ceremony_settings, name="settings"),
]


# --- the ceremony on the projector, and the desk's phone as its remote ----------------------

STAGE_SECONDS = 1.5  # how often the projector asks for the current step


def _stage_context(tournament: Tournament) -> dict:
    current = selectors.programme(tournament=tournament)
    return {
        "tournament": tournament,
        "programme": current,
        "step": current.current,
        "shown": current.shown,
        "total_steps": len(current.steps),
        "draws": current.draws,
    }


def ceremony_projector(request: HttpRequest, pk: int) -> HttpResponse:
    """The ceremony on the hall's screen: public (the hall sees it anyway), but only what the
    desk has shown so far, and nothing before "Siegerehrung starten". ``?partial=1``: the
    stage alone (fetched by ceremony.js every STAGE_SECONDS)."""
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    context = _stage_context(tournament)
    if not context["programme"].revealed:
        context.update(step=None, shown=0, draws=())
    if request.GET.get("partial") == "1":
        response = render(request, "ceremony/_stage.html", context)
    else:
        steer = has_perm(request.user, MANAGE_TOURNAMENT, tournament)
        context.update(steer=steer, stage_seconds=STAGE_SECONDS)
        response = render(request, "ceremony/projector.html", context)
    response["Cache-Control"] = "no-store"
    return response


@tournament_permission(MANAGE_TOURNAMENT)
def ceremony_remote(request: HttpRequest, pk: int) -> HttpResponse:
    """The desk's phone (or laptop) steering the projector: forwards, back, the raffle."""
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    context = _stage_context(tournament)
    context["upcoming"] = context["programme"].upcoming
    response = render(request, "ceremony/remote.html", context)
    response["Cache-Control"] = "no-store"
    return response


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def ceremony_step(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    steps = len(selectors.programme(tournament=tournament).steps)
    by = -1 if request.POST.get("direction") == "back" else 1
    try:
        shown = services.move_step(tournament=tournament, user=request.user, by=by, steps=steps)
    except services.CeremonyError as error:
        if request.headers.get("X-Requested-With") == "fetch":
            return JsonResponse({"error": error.message}, status=409)
        messages.error(request, error.message)
        return redirect("ceremony:remote", pk=pk)
    if request.headers.get("X-Requested-With") == "fetch":
        return JsonResponse({"shown": shown})
    return redirect("ceremony:remote", pk=pk)


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def ceremony_raffle(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    exclude_winners = request.POST.get("exclude_prize_winners") == "1"
    current = selectors.programme(tournament=tournament)
    if not current.revealed:
        messages.error(request, _("Start the prize ceremony first."))
        return redirect("ceremony:remote", pk=pk)
    exclude = selectors.prize_winner_ids(current) if exclude_winners else set()
    candidates = selectors.raffle_candidates(tournament=tournament, exclude=exclude)
    try:
        draw = services.draw_raffle(
            tournament=tournament,
            user=request.user,
            candidates=candidates,
            excluded_prize_winners=exclude_winners,
        )
    except services.CeremonyError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Drawn: %(name)s (start number %(number)s).")
            % {"name": draw.winner_name, "number": draw.winner_number},
        )
    return redirect("ceremony:remote", pk=pk)


urlpatterns += [
    path("tournaments/<int:pk>/ceremony/projector/", ceremony_projector, name="projector"),
    path("tournaments/<int:pk>/ceremony/remote/", ceremony_remote, name="remote"),
    path("tournaments/<int:pk>/ceremony/step/", ceremony_step, name="step"),
    path("tournaments/<int:pk>/ceremony/raffle/", ceremony_raffle, name="raffle"),
]
