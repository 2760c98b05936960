"""The fairness pages of a tournament's officials (``tournaments.services.fairness``): the
swaps of drawn seats waiting for a second official, approved, refused or withdrawn; a ruling
about conduct without a call and a ruling's second signature (both on the referee's page,
``views.hall``, where a call is closed with its ruling).

A swap is asked for on the draw page (``views.draws``); it is approved here, by a second
official on their own device, or at the same laptop with their user name and password
(``forms.fairness.SecondOfficialForm``: checked like a login, nobody logged in or out).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import add_service_errors
from clubs.permissions import REFEREE_TOURNAMENT, is_official, named_officials
from tournaments.addresses import public_base_url
from tournaments.forms.fairness import ConductRulingForm, NoteForm, SecondOfficialForm
from tournaments.models import Ruling, SeatSwap, Tournament
from tournaments.selectors.fairness import decided_swaps, waiting_swaps
from tournaments.services import fairness as services
from tournaments.signals import round_seating_changed
from tournaments.views.access import tournament_permission
from tournaments.views.hall import referee_calls


@tournament_permission(REFEREE_TOURNAMENT)
def seat_swaps(request, pk: int, second_forms: dict | None = None):
    """The swaps of the day: those waiting (approve, refuse, withdraw; a second official's
    password at this laptop), then those decided."""
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    officials = named_officials(tournament)
    second_forms = second_forms or {}
    waiting = [
        (
            swap,
            second_forms.get(swap.pk) or SecondOfficialForm(request=request, prefix=f"s{swap.pk}"),
        )
        for swap in waiting_swaps(tournament=tournament)
    ]
    return render(
        request,
        "tournaments/fairness/seat_swaps.html",
        {
            "tournament": tournament,
            "waiting": waiting,
            "decided": decided_swaps(tournament=tournament),
            "officials": [services.signature_name(user) for user in officials],
            "too_few_officials": len(officials) < 2,
            "is_official": is_official(request.user, tournament),
        },
        status=400 if second_forms else 200,
    )


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def seat_swap_decide(request, pk: int, swap_pk: int) -> HttpResponse:
    """POST ``action``: ``approve`` (by the signed-in official, or with ``s<id>-username`` /
    ``s<id>-password``: by the official who typed them), ``refuse`` or ``withdraw`` (with an
    optional ``note``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    swap = get_object_or_404(SeatSwap, pk=swap_pk, tournament=tournament)
    action = request.POST.get("action", "")
    target = reverse("tournaments:seat_swaps", args=[pk])
    try:
        if action == "approve":
            signer, at_login_of = request.user, None
            if f"s{swap.pk}-username" in request.POST:
                form = SecondOfficialForm(request.POST, request=request, prefix=f"s{swap.pk}")
                if not form.is_valid():
                    return seat_swaps(request, pk=pk, second_forms={swap.pk: form})
                signer, at_login_of = form.signer, request.user
            approved = services.approve_swap(swap=swap, user=signer, at_login_of=at_login_of)
            messages.success(
                request,
                _("Swap approved by %(name)s: the seats are changed.")
                % {"name": approved.decided_name},
            )
            round_seating_changed.send(
                sender=Tournament,
                tournament=tournament,
                round_number=approved.round.number,
                base_url=public_base_url(request),
            )
        elif action in ("refuse", "withdraw"):
            form = NoteForm(request.POST)
            note = form.cleaned_data["note"] if form.is_valid() else ""
            declined = services.decline_swap(swap=swap, user=request.user, note=note)
            messages.success(
                request,
                _("Swap withdrawn.")
                if declined.state == SeatSwap.State.WITHDRAWN
                else _("Swap refused."),
            )
        else:
            messages.error(request, _("This action is not possible now."))
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    return redirect(target + f"#swap-{swap.pk}")


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def ruling_add(request, pk: int) -> HttpResponse:
    """A ruling about conduct without a table's call (round, table, deal where there are any)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = ConductRulingForm(request.POST)
    if form.is_valid():
        try:
            ruling = services.record_ruling(
                tournament=tournament, user=request.user, **form.service_kwargs()
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                _("Ruling recorded.")
                if ruling.is_final
                else _("Ruling recorded; it waits for a second referee's signature."),
            )
            return redirect(reverse("tournaments:referee_calls", args=[pk]) + "#rulings")
    return referee_calls(request, pk=pk, ruling_form=form)


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def ruling_confirm(request, pk: int, ruling_pk: int) -> HttpResponse:
    """The second referee's signature: by the signed-in official, or with ``r<id>-username``
    / ``r<id>-password`` by the official who typed them at this login."""
    tournament = get_object_or_404(Tournament, pk=pk)
    ruling = get_object_or_404(Ruling, pk=ruling_pk, tournament=tournament)
    signer, at_login_of = request.user, None
    if f"r{ruling.pk}-username" in request.POST:
        form = SecondOfficialForm(request.POST, request=request, prefix=f"r{ruling.pk}")
        if not form.is_valid():
            return referee_calls(request, pk=pk, second_forms={ruling.pk: form})
        signer, at_login_of = form.signer, request.user
    try:
        confirmed = services.confirm_ruling(ruling=ruling, user=signer, at_login_of=at_login_of)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("Ruling confirmed by %(name)s: it counts now.") % {"name": confirmed.second_name},
        )
    return redirect(reverse("tournaments:referee_calls", args=[pk]) + f"#ruling-{ruling.pk}")


urlpatterns = [
    path("tournaments/<int:pk>/swaps/", seat_swaps, name="seat_swaps"),
    path("tournaments/<int:pk>/swaps/<int:swap_pk>/", seat_swap_decide, name="seat_swap_decide"),
    path("tournaments/<int:pk>/rulings/", ruling_add, name="ruling_add"),
    path(
        "tournaments/<int:pk>/rulings/<int:ruling_pk>/confirm/",
        ruling_confirm,
        name="ruling_confirm",
    ),
]
