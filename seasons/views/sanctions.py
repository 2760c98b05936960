"""The register of sanctions (the association's season scorer): bans recorded with their
reasons, lifted early with a reason. No public page lists sanctions; the desks that register
a banned player are warned with the terms only (``tournaments.views.sanctions``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import add_service_errors
from clubs.models import Player, Sanction
from clubs.permissions import KEEP_SANCTIONS, check, season_scorer_required
from clubs.selectors import search_players
from clubs.services.sanctions import lift_sanction, record_sanction
from seasons.forms import LiftForm, SanctionForm
from seasons.selectors.sanctions import sanctions_register

SEARCH_LIMIT = 30


def _page(request, *, form=None, lift_forms=None, query="", status=200):
    today = timezone.localdate()
    rows = sanctions_register(today=today)
    found = list(search_players(query=query)[:SEARCH_LIMIT]) if query.strip() else []
    if form is None:
        form = SanctionForm(players=found, initial={"starts_on": today})
    lifts = {row.sanction.pk: LiftForm(prefix=f"lift-{row.sanction.pk}") for row in rows}
    lifts.update(lift_forms or {})
    return render(
        request,
        "seasons/sanctions.html",
        {
            "rows": [(row, lifts[row.sanction.pk]) for row in rows],
            "form": form,
            "query": query,
            "searched": bool(query.strip()),
            "found": found,
        },
        status=status,
    )


@season_scorer_required
def sanctions(request):
    check(request.user, KEEP_SANCTIONS, None)
    return _page(request, query=request.GET.get("q", ""))


@season_scorer_required
@require_POST
def sanction_record(request):
    check(request.user, KEEP_SANCTIONS, None)
    chosen = request.POST.get("player", "")
    players = (
        Player.objects.filter(pk=int(chosen)).prefetch_related("memberships__club")
        if chosen.isdigit()
        else Player.objects.none()
    )
    form = SanctionForm(request.POST, players=players)
    if form.is_valid():
        data = form.cleaned_data
        try:
            record_sanction(
                player_id=data["player"],
                reason=data["reason"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                tournaments=data["tournaments"],
                decided_by=data["decided_by"],
                user=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Sanction recorded."))
            return redirect("seasons:sanctions")
    return _page(request, form=form, status=400)


@season_scorer_required
@require_POST
def sanction_lift(request, pk: int):
    sanction = get_object_or_404(Sanction, pk=pk, from_registry=False)
    check(request.user, KEEP_SANCTIONS, sanction)
    form = LiftForm(request.POST, prefix=f"lift-{sanction.pk}")
    if sanction.lifted_at is not None:
        messages.error(request, _("This sanction is lifted already."))
        return redirect("seasons:sanctions")
    if form.is_valid():
        try:
            lift_sanction(
                sanction=sanction, reason=form.cleaned_data["lift_reason"], user=request.user
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Sanction lifted."))
            return redirect("seasons:sanctions")
    return _page(request, lift_forms={sanction.pk: form}, status=400)


urlpatterns = [
    path("seasons/sanctions/", sanctions, name="sanctions"),
    path("seasons/sanctions/record/", sanction_record, name="sanction_record"),
    path("seasons/sanctions/<int:pk>/lift/", sanction_lift, name="sanction_lift"),
]
