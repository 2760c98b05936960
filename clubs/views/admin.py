"""A club's own pages (not only the Django admin): a new club (superusers) and a club's
name and town (its organisers). Clubs with their fees: ``treasury.views``."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.forms import (
    ClubForm,
    add_service_errors,
)
from clubs.models import Club
from clubs.permissions import (
    MANAGE_CLUB,
    check,
    is_superuser,
    organiser_required,
)
from clubs.services import admin as services


@organiser_required
def club_form(request, pk: int | None = None):
    club = get_object_or_404(Club, pk=pk) if pk else None
    if club is None and not is_superuser(request.user):
        raise PermissionDenied  # a new club has no organisers yet: the superuser names them
    check(request.user, MANAGE_CLUB, club)
    initial = (
        {
            "name": club.name,
            "short_name": club.short_name,
            "town": club.town,
            "public_player_pages": club.public_player_pages,
        }
        if club
        else {}
    )
    form = ClubForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.save_club(club=club, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("%(club)s saved.") % {"club": saved.name})
            return redirect("treasury:club_list")
    return render(
        request,
        "clubs/simple_form.html",
        {"form": form, "title": club.name if club else _("New club"), "title_is_name": bool(club)},
    )


urlpatterns = [
    path("clubs/new/", club_form, name="club_create"),
    path("clubs/<int:pk>/edit/", club_form, name="club_edit"),
]
