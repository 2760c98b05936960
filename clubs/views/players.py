"""The player registry: list and search, create and edit, merge, export (organisers)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import MergeForm, PlayerFilterForm, PlayerForm, add_service_errors
from clubs.models import Membership, Player
from clubs.permissions import (
    MANAGE_CLUB,
    check,
    manageable_clubs,
    may_view_player_page,
    organiser_required,
    registry_memberships,
    registry_player_ids,
    registry_players,
)
from clubs.selectors import players_like, players_named, search_players, tournaments_played
from clubs.services import players as services

PAGE_SIZE = 100


def _check_player(user, player: Player) -> None:
    """A player belongs to the clubs they are a member of; one without a club to anyone
    who may manage some club (the roles module decides both)."""
    clubs = [m.club for m in player.memberships.all()]
    if not clubs:
        check(user, MANAGE_CLUB, None)
        return
    for club in clubs:
        try:
            check(user, MANAGE_CLUB, club)
            return
        except PermissionDenied:
            continue
    raise PermissionDenied


def filtered_players(request):
    """The registry's players as the list's filters choose them, of those the user may see
    (``permissions.registry_players``); a club filter only offers the user's clubs."""
    form = PlayerFilterForm(request.GET or None, clubs=manageable_clubs(request.user))
    data = form.cleaned_data if form.is_valid() else {}
    players = search_players(
        query=data.get("q") or "",
        club=data.get("club"),
        category=data.get("category") or "",
        memberships=registry_memberships(request.user, Membership.objects.all()),
    )
    return form, data, registry_players(request.user, players)


@organiser_required
def player_list(request):
    form, data, players = filtered_players(request)
    if data.get("club"):
        check(request.user, MANAGE_CLUB, data["club"])
    page = Paginator(players, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "clubs/player_list.html",
        {"filters": form, "page": page, "query": query.urlencode()},
    )


def _shown_memberships(user, player: Player) -> list[Membership]:
    """The player's memberships (prefetched) that ``user`` may see: a player of two clubs
    shows each club's organisers only their own club's number and dates."""
    shown = set(registry_memberships(user, player.memberships.all()).values_list("pk", flat=True))
    return [m for m in player.memberships.all() if m.pk in shown]


def _player_kwargs(form: PlayerForm) -> dict:
    return dict(form.cleaned_data)


@organiser_required
def player_create(request):
    form = PlayerForm(request.POST or None)
    duplicates = []
    if request.method == "POST" and form.is_valid():
        club = form.cleaned_data["club"]
        check(request.user, MANAGE_CLUB, club)
        try:
            player = services.create_player(
                user=request.user,
                allow_duplicate=request.POST.get("different_person") == "1",
                **_player_kwargs(form),
            )
        except services.DuplicateName as error:
            duplicates = error.players
            add_service_errors(form, error)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("%(name)s added.") % {"name": player.full_name})
            return redirect("clubs:player_detail", pk=player.pk)
    return render(
        request,
        "clubs/player_form.html",
        {
            "form": form,
            "duplicates": duplicates,
            "registry_ids": registry_player_ids(request.user, [p.pk for p in duplicates]),
            "player": None,
        },
    )


@organiser_required
def player_edit(request, pk: int):
    player = get_object_or_404(Player.objects.prefetch_related("memberships__club"), pk=pk)
    _check_player(request.user, player)
    home = next(iter(_shown_memberships(request.user, player)), None)
    initial = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "birth_year": player.birth_year,
        "named_for_age": player.named_for_age,
        "category": player.category,
        "email": player.email,
        "club": home.club if home else None,
        "member_number": home.member_number if home else "",
    }
    form = PlayerForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_player(player=player, user=request.user, **_player_kwargs(form))
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Changes saved."))
            return redirect("clubs:player_detail", pk=player.pk)
    same = list(_same_name(request.user, player))
    return render(
        request,
        "clubs/player_form.html",
        {
            "form": form,
            "duplicates": same,
            "registry_ids": frozenset(p.pk for p in same),
            "player": player,
        },
    )


def _same_name(user, player: Player):
    """Other records of the player's name that ``user`` might merge into this one."""
    return registry_players(
        user,
        players_named(
            first_name=player.first_name, last_name=player.last_name, exclude_pk=player.pk
        ),
    )


@organiser_required
def player_detail(request, pk: int):
    player = get_object_or_404(
        Player.objects.select_related("guest_club").prefetch_related(
            Prefetch("memberships", queryset=Membership.objects.select_related("club"))
        ),
        pk=pk,
    )
    _check_player(request.user, player)
    entries = player.entries.select_related("tournament__host_club", "tournament__season").order_by(
        "-tournament__date"
    )
    query = request.GET.get("q", "")
    # Only records the user may merge, with only the memberships the user may see.
    shown = registry_memberships(request.user, Membership.objects.all())
    if query:
        candidates = list(
            registry_players(
                request.user, search_players(query=query, memberships=shown).exclude(pk=player.pk)
            )[:20]
        )
    else:  # the same name however spelt, and near misses ("Brigite" for "Brigitte")
        near = players_like(
            first_name=player.first_name,
            last_name=player.last_name,
            exclude_pk=player.pk,
            memberships=shown,
        )
        mergeable = registry_player_ids(request.user, [p.pk for p in near])
        candidates = [p for p in near if p.pk in mergeable]
    played = tournaments_played(player_ids=[p.pk for p in candidates])
    for candidate in candidates:
        candidate.played = played[candidate.pk]
    return render(
        request,
        "clubs/player_detail.html",
        {
            "player": player,
            "memberships": _shown_memberships(request.user, player),
            "entries": entries,
            "merges": player.merges.select_related("merged_by"),
            # the tournaments link to the player's results where the viewer may see them
            "results_url": (
                reverse("seasons:player_detail", args=[player.pk])
                if may_view_player_page(request.user, player)
                else ""
            ),
            "candidates": candidates,
            "query": query,
        },
    )


@organiser_required
@require_POST
def player_merge(request, pk: int):
    """Merge the record ``remove`` into this one (``pk`` is kept)."""
    keep = get_object_or_404(Player.objects.prefetch_related("memberships__club"), pk=pk)
    _check_player(request.user, keep)  # before anything is said about the form
    form = MergeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the record to merge into this one."))
        return redirect("clubs:player_detail", pk=keep.pk)
    remove = get_object_or_404(
        Player.objects.prefetch_related("memberships__club"), pk=form.cleaned_data["remove"]
    )
    _check_player(request.user, keep)
    _check_player(request.user, remove)
    if request.POST.get("confirm") != "1":  # say what is kept and what removed, then ask
        played = tournaments_played(player_ids=[keep.pk, remove.pk])
        keep.played, remove.played = played[keep.pk], played[remove.pk]
        return render(request, "clubs/player_merge_confirm.html", {"keep": keep, "remove": remove})
    try:
        log = services.merge_players(keep=keep, remove=remove, user=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("%(removed)s merged into %(kept)s: %(entries)s tournament entries moved.")
            % {"removed": log.removed_name, "kept": keep, "entries": log.entries_moved},
        )
    return redirect("clubs:player_detail", pk=keep.pk)


urlpatterns = [
    path("players/", player_list, name="player_list"),
    path("players/new/", player_create, name="player_create"),
    path("players/<int:pk>/", player_detail, name="player_detail"),
    path("players/<int:pk>/edit/", player_edit, name="player_edit"),
    path("players/<int:pk>/merge/", player_merge, name="player_merge"),
]
