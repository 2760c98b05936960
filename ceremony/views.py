"""The desk's page for the prize ceremony (``/tournaments/<pk>/ceremony/``): which places the
public does not see from which round, and the button "Siegerehrung starten" that shows them.
Who may see the hidden places anyway: ``clubs.permissions.sees_hidden_places``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from ceremony import services
from ceremony.forms import HidingForm
from ceremony.models import CeremonySettings
from clubs.permissions import MANAGE_TOURNAMENT
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
