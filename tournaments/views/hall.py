"""The desk's side of the hall's messages (``tournaments.services.hall``): the calls for
the referee (a banner on every page of the tournament for its organisers and referees,
polled by ``static/js/referee-calls.js``; the page of the day's calls, each closed with a
ruling, ``tournaments.services.fairness``, and the day's rulings) and the announcements for
the projector and the players' pages (organisers).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.permissions import MANAGE_TOURNAMENT, REFEREE_TOURNAMENT, has_perm, is_official
from tournaments.forms.fairness import ConductRulingForm, RulingForm, SecondOfficialForm
from tournaments.models import (
    ANNOUNCEMENT_LENGTH,
    FAIRNESS_TEXT_LENGTH,
    PENALTY_LENGTH,
    Announcement,
    RefereeCall,
    Tournament,
)
from tournaments.selectors.fairness import day_rulings
from tournaments.selectors.hall import day_calls, open_calls, shown_announcements
from tournaments.services import fairness
from tournaments.services import hall as services
from tournaments.services.hall import ANNOUNCEMENT_MINUTES
from tournaments.views.access import tournament_permission

# Seconds between the desk's looks for new calls.
CALLS_REFRESH_SECONDS = 10


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Message"),
        max_length=ANNOUNCEMENT_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Show for (minutes)"),
        required=False,
        min_value=1,
        max_value=ANNOUNCEMENT_MINUTES,
        help_text=gettext_lazy("Empty: until removed."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def _back(request, tournament: Tournament):
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("tournaments:referee_calls", pk=tournament.pk)


def _add_errors(form: forms.Form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


@tournament_permission(REFEREE_TOURNAMENT)
def referee_calls(
    request,
    pk: int,
    announcement_form: AnnouncementForm | None = None,
    ruling_form: ConductRulingForm | None = None,
    second_forms: dict | None = None,
):
    """The day's calls for the referee (open ones with the ruling that closes them), the
    day's rulings (pending ones with the second signature), a ruling about conduct without a
    call and, for the organisers, the announcements."""
    tournament = get_object_or_404(Tournament, pk=pk)
    can_manage = has_perm(request.user, MANAGE_TOURNAMENT, tournament)
    second_forms = second_forms or {}
    rulings = [
        (
            ruling,
            second_forms.get(ruling.pk)
            or (
                None
                if ruling.is_final
                else SecondOfficialForm(request=request, prefix=f"r{ruling.pk}")
            ),
        )
        for ruling in day_rulings(tournament=tournament)
    ]
    return render(
        request,
        "tournaments/hall/referee_calls.html",
        {
            "tournament": tournament,
            "calls": day_calls(tournament=tournament),
            "can_manage": can_manage,
            "announcements": shown_announcements(tournament=tournament),
            "announcement_form": announcement_form or AnnouncementForm(),
            "ruling_form": ruling_form or ConductRulingForm(),
            "rulings": rulings,
            "is_official": is_official(request.user, tournament),
            "note_length": FAIRNESS_TEXT_LENGTH,
            "penalty_length": PENALTY_LENGTH,
        },
        status=400 if (ruling_form is not None or second_forms) else 200,
    )


@tournament_permission(REFEREE_TOURNAMENT)
def referee_calls_banner(request, pk: int):
    """The banner of open calls, fetched by the desk's pages every few seconds."""
    tournament = get_object_or_404(Tournament, pk=pk)
    response = render(
        request,
        "tournaments/hall/_calls_banner.html",
        {
            "tournament": tournament,
            "calls": open_calls(tournament=tournament),
            "next": request.GET.get("next", ""),
            "note_length": FAIRNESS_TEXT_LENGTH,
            "penalty_length": PENALTY_LENGTH,
        },
    )
    response["Cache-Control"] = "no-store"
    return response


@tournament_permission(REFEREE_TOURNAMENT)
@require_POST
def referee_call_close(request, pk: int, call_pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    call = get_object_or_404(
        RefereeCall.objects.select_related("table"), pk=call_pk, tournament=tournament
    )
    form = RulingForm(request.POST)
    try:
        if not form.is_valid():  # the service says it in its words (the form's are shorter)
            raise ValidationError(
                [message for errors in form.errors.values() for message in errors]
            )
        ruling = fairness.record_ruling(
            tournament=tournament, call=call, user=request.user, **form.service_kwargs()
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(
                request,
                _("Table %(table)s: %(message)s")
                % {"table": call.table.number, "message": message},
            )
    else:
        messages.success(
            request,
            _("Call of table %(table)s closed with the ruling.") % {"table": call.table.number}
            if ruling.is_final
            else _(
                "Call of table %(table)s closed; the ruling waits for a second referee's signature."
            )
            % {"table": call.table.number},
        )
    return _back(request, tournament)


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def announcement_add(request, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    form = AnnouncementForm(request.POST)
    if form.is_valid():
        try:
            services.announce(
                tournament=tournament,
                text=form.cleaned_data["text"],
                minutes=form.cleaned_data["minutes"],
                user=request.user,
            )
        except ValidationError as error:
            _add_errors(form, error)
        else:
            messages.success(request, _("The message is shown on the projector and phones."))
            return redirect(reverse("tournaments:referee_calls", args=[pk]) + "#announcements")
    return referee_calls(request, pk=pk, announcement_form=form)


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def announcement_remove(request, pk: int, announcement_pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    announcement = get_object_or_404(Announcement, pk=announcement_pk, tournament=tournament)
    services.remove_announcement(announcement=announcement, user=request.user)
    messages.success(request, _("Message removed."))
    return redirect(reverse("tournaments:referee_calls", args=[pk]) + "#announcements")


urlpatterns = [
    path("tournaments/<int:pk>/referee/", referee_calls, name="referee_calls"),
    path("tournaments/<int:pk>/referee/open/", referee_calls_banner, name="referee_calls_banner"),
    path(
        "tournaments/<int:pk>/referee/<int:call_pk>/close/",
        referee_call_close,
        name="referee_call_close",
    ),
    path("tournaments/<int:pk>/announcements/", announcement_add, name="announcement_add"),
    path(
        "tournaments/<int:pk>/announcements/<int:announcement_pk>/remove/",
        announcement_remove,
        name="announcement_remove",
    ),
]
