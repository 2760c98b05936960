"""The association's appeals page (the season scorer): appeals recorded and decided, results
confirmed before their window closes. The public sees an appeal's existence and decision on
the tournament's standings page (``tournaments.views.standings``), never this page."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import add_service_errors
from clubs.permissions import JUDGE_RESULTS, check, season_scorer_required
from seasons.forms import AppealForm, DecisionForm
from seasons.models import Appeal
from seasons.selectors.appeals import appeals_page
from seasons.services import confirm_results, decide_appeal, record_appeal
from tournaments.models import Tournament


def _page(request, *, appeal_form=None, decision_forms=None, status=200):
    page = appeals_page()
    forms = {a.pk: DecisionForm(prefix=f"appeal-{a.pk}") for a in page.open}
    forms.update(decision_forms or {})
    return render(
        request,
        "seasons/appeals.html",
        {
            "page": page,
            "appeal_form": appeal_form
            or AppealForm(tournaments=page.choices, initial={"received_on": timezone.localdate()}),
            "open_appeals": [(a, forms[a.pk]) for a in page.open],
        },
        status=status,
    )


@season_scorer_required
def appeals(request):
    check(request.user, JUDGE_RESULTS, None)
    return _page(request)


@season_scorer_required
@require_POST
def appeal_record(request):
    check(request.user, JUDGE_RESULTS, None)
    form = AppealForm(request.POST, tournaments=appeals_page().choices)
    if form.is_valid():
        data = form.cleaned_data
        try:
            record_appeal(
                tournament_id=data["tournament"],
                appellant=data["appellant"],
                text=data["text"],
                received_on=data["received_on"],
                user=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Appeal recorded."))
            return redirect("seasons:appeals")
    return _page(request, appeal_form=form, status=400)


@season_scorer_required
@require_POST
def appeal_decide(request, pk: int):
    appeal = get_object_or_404(Appeal, pk=pk)
    check(request.user, JUDGE_RESULTS, appeal.tournament)
    form = DecisionForm(request.POST, prefix=f"appeal-{appeal.pk}")
    if not appeal.is_open:
        messages.error(request, _("This appeal is decided already."))
        return redirect("seasons:appeals")
    if form.is_valid():
        try:
            decide_appeal(appeal=appeal, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Decision recorded."))
            return redirect("seasons:appeals")
    return _page(request, decision_forms={appeal.pk: form}, status=400)


@season_scorer_required
@require_POST
def results_confirm(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk, season__isnull=False)
    check(request.user, JUDGE_RESULTS, tournament)
    try:
        confirm_results(tournament_id=tournament.pk, user=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Results confirmed: they are final now."))
    return redirect("seasons:appeals")


urlpatterns = [
    path("seasons/appeals/", appeals, name="appeals"),
    path("seasons/appeals/record/", appeal_record, name="appeal_record"),
    path("seasons/appeals/<int:pk>/decide/", appeal_decide, name="appeal_decide"),
    path("seasons/appeals/confirm/<int:pk>/", results_confirm, name="results_confirm"),
]
