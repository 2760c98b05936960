"""A paper result list (one total per player) imported into a totals-only tournament:
upload, preview, confirm, as the member-list import (``clubs.views.imports.import_page``)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, redirect
from django.urls import path

from clubs.permissions import MANAGE_TOURNAMENT, check, check_not_in_hall, organiser_required
from clubs.views.imports import import_page
from tournaments.models import Tournament
from tournaments.services import results_import as services


@organiser_required
def results_import(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    check_not_in_hall(tournament)  # the hall writes its results

    def plan_fn(*, table, club):
        return services.plan_results(table=table, tournament=tournament, club=club)

    def apply_fn(**kwargs):
        return services.apply_results(tournament=tournament, **kwargs)

    response = import_page(
        request,
        template="tournaments/import_results.html",
        context={"tournament": tournament},
        plan_fn=plan_fn,
        apply_fn=apply_fn,
    )
    return response or redirect("tournaments:standings", pk=tournament.pk)


urlpatterns = [
    path("tournaments/<int:pk>/import-results/", results_import, name="results_import"),
]
