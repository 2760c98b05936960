"""Creating, editing and overseeing a tournament (organisers only)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Max, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.forms import add_service_errors
from clubs.permissions import (
    MANAGE_CLUB,
    MANAGE_TOURNAMENT,
    REFEREE_TOURNAMENT,
    check,
    is_superuser,
    manageable_clubs,
    organiser_required,
)
from tournaments.addresses import absolute_url, phones_cannot_open
from tournaments.contract_names import rule_source_description, rule_source_name
from tournaments.forms.setup import TournamentForm
from tournaments.models import Tournament
from tournaments.presets import PRESETS
from tournaments.rule_snapshot import rule_source_of
from tournaments.services import setup as services
from tournaments.services.finish import finish_state
from tournaments.views.access import tournament_permission
from venue.environment import command_line


@organiser_required
def tournament_create(request):
    clubs = manageable_clubs(request.user)
    if not clubs.exists() and not is_superuser(request.user):
        raise PermissionDenied  # a referee, not an organiser of any club
    preset_slug = request.GET.get("preset") or request.POST.get("preset") or ""
    if request.method == "POST":
        form = TournamentForm(request.POST, clubs=clubs)
        if form.is_valid():
            check(request.user, MANAGE_CLUB, form.cleaned_data["host_club"])
            try:
                tournament = services.create_tournament(**form.service_kwargs(), user=request.user)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Tournament created."))
                return redirect("tournaments:tournament_detail", pk=tournament.pk)
    else:
        form = TournamentForm(initial=TournamentForm.initial_from_preset(preset_slug), clubs=clubs)
    return render(
        request,
        "tournaments/setup/tournament_form.html",
        {"form": form, "presets": PRESETS.values(), "preset": preset_slug, "creating": True},
    )


@tournament_permission(MANAGE_TOURNAMENT)
def tournament_edit(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    rules_locked = tournament.round_set.exists()
    initial = TournamentForm.initial_from_tournament(tournament)
    # The host club can move only to another club the organiser runs.
    clubs = manageable_clubs(request.user) | type(tournament.host_club).objects.filter(
        pk=tournament.host_club_id
    )
    options = {"rules_locked": rules_locked, "clubs": clubs.distinct(), "with_referees": True}
    if request.method == "POST":
        form = TournamentForm(request.POST, initial=initial, **options)
        if form.is_valid():
            if form.cleaned_data["host_club"].pk != tournament.host_club_id:
                check(request.user, MANAGE_CLUB, form.cleaned_data["host_club"])
            try:
                services.update_tournament(
                    tournament=tournament, **form.service_kwargs(), user=request.user
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Tournament saved."))
                return redirect("tournaments:tournament_detail", pk=tournament.pk)
    else:
        form = TournamentForm(initial=initial, **options)
    return render(
        request,
        "tournaments/setup/tournament_form.html",
        {"form": form, "tournament": tournament, "creating": False},
    )


@tournament_permission(REFEREE_TOURNAMENT)
def tournament_detail(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club", "season"), pk=pk)
    counts = tournament.entries.aggregate(
        registered=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True)),
        paid=Count("pk", filter=Q(fee_paid=True)),
        withdrawn=Count("pk", filter=Q(withdrawn_after_round__isnull=False)),
    )
    rounds = tournament.round_set.annotate(
        table_count=Count("tables", distinct=True),
        seat_count=Count("seats", distinct=True),
    ).order_by("number")
    drawn = tournament.round_set.aggregate(highest=Max("number"))["highest"] or 0
    next_round = drawn + 1 if drawn < tournament.rounds else None
    rules = rule_source_of(tournament)
    return render(
        request,
        "tournaments/setup/tournament_detail.html",
        {
            "tournament": tournament,
            "counts": counts,
            "rounds": rounds,
            "next_round": next_round,
            "table_sizes_text": ", ".join(str(s) for s in sorted(tournament.allowed_table_sizes)),
            "rules_name": rule_source_name(rules),
            "rules_description": rule_source_description(rules),
            "finish": finish_state(tournament=tournament),
            # Score sheets printed now would carry QR codes no phone can open.
            "qr_loopback": phones_cannot_open(absolute_url(request, "/")),
            "venue_command": command_line("venue"),  # as it runs on this machine
        },
    )


urlpatterns = [
    path("tournaments/new/", tournament_create, name="tournament_create"),
    path("tournaments/<int:pk>/", tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/edit/", tournament_edit, name="tournament_edit"),
]
