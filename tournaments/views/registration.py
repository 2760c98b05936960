"""Pre-registration for a tournament: many players at once, before the day. Arrival and fee
are the check-in desk's business (``tournaments.views.checkin``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Player
from clubs.permissions import (
    MANAGE_TOURNAMENT,
    check,
    check_not_in_hall,
    hall_message,
    held_in_hall,
    manageable_clubs,
    organiser_required,
)
from clubs.selectors import active_members, search_players
from tournaments.models import Entry, Tournament
from tournaments.services import registration as services
from tournaments.views.sanctions import ban_words, warn_if_banned

SEARCH_LIMIT = 200


def _tournament(request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("season", "host_club"), pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    return tournament


def _earlier(tournament: Tournament):
    if tournament.season_id is None:
        return Tournament.objects.none()
    return (
        Tournament.objects.filter(season_id=tournament.season_id, date__lte=tournament.date)
        .exclude(pk=tournament.pk)
        .order_by("-date")
    )


@organiser_required
def registration(request, pk: int):
    tournament = _tournament(request, pk)
    query = request.GET.get("q", "").strip()
    club_pk = request.GET.get("club", "")
    # a club's member list is that club's business: only the user's clubs to choose from
    clubs = manageable_clubs(request.user)
    club = clubs.filter(pk=club_pk).first() if club_pk.isdigit() else None
    registered_ids = set(tournament.entries.values_list("player_id", flat=True))
    found = []
    if query or club is not None:
        found = [
            p
            for p in search_players(query=query, club=club)[:SEARCH_LIMIT]
            if p.pk not in registered_ids
        ]
    entries = list(tournament.entries.select_related("player").order_by("number"))
    banned = ban_words(tournament=tournament, player_ids=[e.player_id for e in entries])
    in_hall = held_in_hall(tournament)
    if in_hall:
        registered_ids |= set(tournament.hall_registrations.values_list("player_id", flat=True))
        found = [p for p in found if p.pk not in registered_ids]
    return render(
        request,
        "tournaments/registration.html",
        {
            "tournament": tournament,
            "query": query,
            "searched": bool(query or club),
            "search_club": club,
            "found": found,
            "clubs": clubs,
            "earlier": _earlier(tournament),
            "entries": entries,
            "entry_rows": [(e, banned.get(e.player_id, "")) for e in entries],
            "in_hall": hall_message(tournament) if in_hall else "",
            "for_the_hall": (
                tournament.hall_registrations.select_related("player").order_by("pk")
                if in_hall
                else []
            ),
            "counts": {
                "registered": len(registered_ids),
                "checked_in": sum(1 for e in entries if e.checked_in),
            },
        },
    )


def _report(request, result: services.BulkResult) -> None:
    if result.for_the_hall:
        messages.success(
            request,
            ngettext(
                "%(count)s player registered for the hall: the venue laptop takes the "
                "registration while it is online.",
                "%(count)s players registered for the hall: the venue laptop takes the "
                "registrations while it is online.",
                result.for_the_hall,
            )
            % {"count": result.for_the_hall},
        )
        return
    messages.success(
        request,
        ngettext(
            "%(count)s player registered.", "%(count)s players registered.", len(result.registered)
        )
        % {"count": len(result.registered)}
        + (
            " "
            + ngettext(
                "%(count)s was on the list already.",
                "%(count)s were on the list already.",
                result.already,
            )
            % {"count": result.already}
            if result.already
            else ""
        ),
    )


@organiser_required
@require_POST
def register_many(request, pk: int):
    """One of three sources: ticked players, a club's active members, an earlier tournament."""
    tournament = _tournament(request, pk)
    source = request.POST.get("source", "")
    if source == "ticked":
        ids = [int(v) for v in request.POST.getlist("player") if v.isdigit()]
        players = list(Player.objects.filter(pk__in=ids))
    elif source == "club":
        club = get_object_or_404(manageable_clubs(request.user), pk=request.POST.get("club") or 0)
        players = list(active_members(club=club, on=tournament.date))
    elif source == "tournament":
        earlier = get_object_or_404(_earlier(tournament), pk=request.POST.get("tournament") or 0)
        players = list(Player.objects.filter(entries__tournament=earlier))
    else:
        players = []
    if not players:
        messages.error(request, _("Nobody chosen."))
        return redirect("tournaments:registration", pk=tournament.pk)
    try:
        result = services.register_players(
            tournament=tournament, players=players, user=request.user
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        _report(request, result)
        warn_if_banned(request, tournament=tournament, players=players)
    return redirect("tournaments:registration", pk=tournament.pk)


@organiser_required
@require_POST
def unregister(request, pk: int, entry_pk: int):
    tournament = _tournament(request, pk)
    check_not_in_hall(tournament)  # taken off the list in the hall
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_pk, tournament=tournament
    )
    try:
        services.unregister(entry=entry, user=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request, _("%(name)s taken off the list.") % {"name": entry.player.full_name}
        )
    return redirect("tournaments:registration", pk=tournament.pk)


urlpatterns = [
    path("tournaments/<int:pk>/registration/", registration, name="registration"),
    path("tournaments/<int:pk>/registration/add/", register_many, name="register_many"),
    path(
        "tournaments/<int:pk>/registration/<int:entry_pk>/remove/",
        unregister,
        name="unregister",
    ),
]
