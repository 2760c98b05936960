"""The check-in desk: registration list with quick actions, late entries, keep-apart pairs
and substitutes (organisers only)."""

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubs.forms import add_service_errors
from clubs.models import Category, Player
from clubs.permissions import MANAGE_TOURNAMENT, registry_player_ids
from clubs.search import normalise
from clubs.selectors import players_like
from tournaments.addresses import public_base_url
from tournaments.forms.setup import (
    ExistingPlayerForm,
    KeepApartForm,
    NewPlayerForm,
    RegistrationFilterForm,
    SubstitutionForm,
    WithdrawForm,
)
from tournaments.models import Entry, KeepApart, Round, Substitution, Tournament
from tournaments.money import plays_free
from tournaments.selectors.standings import no_shows
from tournaments.services import checkin as services
from tournaments.services.registration import entry_category
from tournaments.signals import round_seating_changed
from tournaments.tables import RegistrationTable
from tournaments.views.access import tournament_permission
from tournaments.views.sanctions import ban_words, warn_if_banned


def _back(request, tournament: Tournament, entry: Entry | None = None):
    """Back to the list the click came from. After a player's action: the search emptied
    for the next arrival (the filter kept) and the page at that player's row (its anchor),
    not at the top of a list of 150."""
    target = request.POST.get("next", "")
    if not (
        target
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        target = reverse("tournaments:checkin", args=[tournament.pk])
    if entry is None:
        return redirect(target)
    parts = urlsplit(target)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "q"]
    return redirect(
        urlunsplit(parts._replace(query=urlencode(query), fragment=f"entry-{entry.pk}"))
    )


def filtered_entries(tournament: Tournament, query: str, show: str):
    entries = tournament.entries.select_related("player")
    query = query.strip()
    if query.isdigit():
        entries = entries.filter(number=int(query))
    elif query:
        # keyed as the stored search key is (umlauts spelt out): "Schaefer" finds "Schäfer",
        # "oel" finds "Öl…", "Schäfer" finds "Schaefer"
        for word in normalise(query).split():
            entries = entries.filter(player__search_key__contains=word)
    if show == "not_checked_in":
        entries = entries.filter(checked_in=False, withdrawn_after_round__isnull=True)
    elif show == "not_paid":
        entries = entries.filter(fee_paid=False)
        if tournament.youth_entry_free:  # they play free: nothing to pay
            entries = entries.exclude(category=Category.YOUTH)
    elif show == "withdrawn":
        entries = entries.filter(withdrawn_after_round__isnull=False)
    return entries


@tournament_permission(MANAGE_TOURNAMENT)
def checkin(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    filters = RegistrationFilterForm(request.GET or None)
    query = show = ""
    if filters.is_valid():
        query = filters.cleaned_data["q"]
        show = filters.cleaned_data["show"]
    drawn = tournament.round_set.aggregate(highest=Max("number"))["highest"] or 0
    table = RegistrationTable(
        filtered_entries(tournament, query, show),
        next_url=request.get_full_path(),
        withdraw_default=drawn,
        # Once a round is drawn, whoever is neither checked in nor seated did not come.
        absent_ids=frozenset(e.pk for e in no_shows(tournament=tournament))
        if drawn
        else frozenset(),
        # banned by the association on the tournament's date: a warning, the desk decides
        banned=ban_words(
            tournament=tournament,
            player_ids=tournament.entries.values_list("player_id", flat=True),
        ),
    )
    RequestConfig(request, paginate=False).configure(table)
    counts = {
        "registered": tournament.entries.count(),
        "checked_in": tournament.entries.filter(checked_in=True).count(),
        "paid": tournament.entries.filter(fee_paid=True).count(),
    }
    template = (
        "tournaments/checkin/_registration_table.html"
        if getattr(request, "htmx", False)
        else "tournaments/checkin/checkin.html"
    )
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "table": table,
            "filters": filters if filters.is_bound else RegistrationFilterForm(),
            "counts": counts,
            "shown": len(table.rows),
        },
    )


ACTIONS = {
    "check_in",
    "check_in_pay",
    "undo_check_in",
    "pay",
    "undo_pay",
    "withdraw",
    "undo_withdraw",
    "stays",
    "may_move",
}


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def entry_action(request, pk, entry_pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_pk, tournament=tournament
    )
    action = request.POST.get("action", "")
    name = entry.player.full_name
    try:
        if action == "check_in":
            services.set_checked_in(entry=entry, checked_in=True, user=request.user)
            messages.success(request, _("%(name)s checked in.") % {"name": name})
            warn_if_banned(request, tournament=tournament, players=[entry.player])
        elif action == "check_in_pay":
            services.check_in_and_pay(entry=entry, user=request.user)
            messages.success(request, _("%(name)s checked in, entry fee paid.") % {"name": name})
            warn_if_banned(request, tournament=tournament, players=[entry.player])
        elif action == "undo_check_in":
            services.set_checked_in(entry=entry, checked_in=False, user=request.user)
            messages.success(request, _("Check-in of %(name)s undone.") % {"name": name})
        elif action == "pay":
            services.set_fee_paid(entry=entry, paid=True, user=request.user)
            messages.success(request, _("Entry fee of %(name)s paid.") % {"name": name})
        elif action == "undo_pay":
            services.set_fee_paid(entry=entry, paid=False, user=request.user)
            messages.success(request, _("Payment of %(name)s undone.") % {"name": name})
        elif action == "withdraw":
            form = WithdrawForm(request.POST)
            if not form.is_valid():
                raise ValidationError(_("Choose the round after which the player leaves."))
            after = form.cleaned_data["after_round"]
            services.withdraw_entry(entry=entry, after_round=after, user=request.user)
            messages.success(
                request,
                _("%(name)s withdrawn after round %(round)s.") % {"name": name, "round": after},
            )
        elif action in ("stays", "may_move"):
            stays = action == "stays"
            services.set_stays_at_table(entry=entry, stays=stays, user=request.user)
            message = (
                _("%(name)s stays at the table all day (from the next draw on).")
                if stays
                else _("%(name)s no longer stays at one table.")
            )
            messages.success(request, message % {"name": name})
        elif action == "undo_withdraw":
            services.undo_withdrawal(entry=entry, user=request.user)
            messages.success(request, _("%(name)s is back in the tournament.") % {"name": name})
        else:
            messages.error(request, _("Unknown action."))
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, f"{name}: {message}")
    return _back(request, tournament, entry=entry)


SHOWN = 20  # search results shown on the late-entry page


@tournament_permission(MANAGE_TOURNAMENT)
def late_entry(request, pk):
    """Register a player at the desk: an existing one (search) or a new one on the spot."""
    tournament = get_object_or_404(Tournament.objects.select_related("season"), pk=pk)
    query = request.GET.get("q", "")
    form_options = {"user": request.user, "youth_entry_free": tournament.youth_entry_free}
    new_form = NewPlayerForm(prefix="new", **form_options)
    existing_form = ExistingPlayerForm(prefix="existing")
    duplicates = []
    if request.method == "POST":
        try:
            if "existing-player" in request.POST:
                existing_form = ExistingPlayerForm(request.POST, prefix="existing")
                if existing_form.is_valid():
                    player = get_object_or_404(Player, pk=existing_form.cleaned_data["player"])
                    entry = services.register_existing_player(
                        tournament=tournament,
                        player=player,
                        fee_paid=existing_form.cleaned_data["fee_paid"],
                        user=request.user,
                    )
                    return _registered(request, tournament, entry)
            else:
                new_form = NewPlayerForm(request.POST, prefix="new", **form_options)
                if new_form.is_valid() and request.POST.get("new-different_person") != "1":
                    # The same name (however spelt) or a near miss ("Brigite" for "Brigitte") is
                    # most likely the same person: offer them.
                    duplicates = players_like(
                        first_name=new_form.cleaned_data["first_name"],
                        last_name=new_form.cleaned_data["last_name"],
                    )
                    if duplicates:
                        new_form.add_error(
                            "last_name",
                            _(
                                "A player of this or a similar name exists already: register "
                                "that player, or confirm that this is a different person."
                            ),
                        )
                if new_form.is_valid():
                    entry = services.register_new_player(
                        tournament=tournament, user=request.user, **new_form.cleaned_data
                    )
                    return _registered(request, tournament, entry)
        except ValidationError as error:
            form = existing_form if "existing-player" in request.POST else new_form
            add_service_errors(form, error)
    # one more than shown tells whether the list is cut off
    found = list(services.search_players(tournament=tournament, query=query, limit=SHOWN + 1))
    for player in [*found, *duplicates]:  # no fee to tick for those who would play free
        player.plays_free = plays_free(
            tournament=tournament, category=entry_category(tournament, player=player)
        )
    return render(
        request,
        "tournaments/checkin/late_entry.html",
        {
            "tournament": tournament,
            "query": query,
            "found": found[:SHOWN],
            "cut_off": len(found) > SHOWN,
            "shown": SHOWN,
            "duplicates": duplicates,
            "registry_ids": registry_player_ids(request.user, [p.pk for p in duplicates]),
            "new_form": new_form,
            "existing_form": existing_form,
            "next_number": services.next_start_number(tournament=tournament),
        },
    )


def _registered(request, tournament, entry):
    messages.success(
        request,
        _("%(name)s registered with start number %(number)s.")
        % {"name": entry.player.full_name, "number": entry.number},
    )
    warn_if_banned(request, tournament=tournament, players=[entry.player])
    return redirect("tournaments:late_entry", pk=tournament.pk)


@tournament_permission(MANAGE_TOURNAMENT)
def keep_apart(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        form = KeepApartForm(request.POST, tournament=tournament)
        if form.is_valid():
            try:
                services.add_keep_apart(
                    tournament=tournament, user=request.user, **form.cleaned_data
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Pair added."))
                return redirect("tournaments:keep_apart", pk=tournament.pk)
    else:
        form = KeepApartForm(tournament=tournament)
    pairs = KeepApart.objects.filter(tournament=tournament).select_related(
        "first__player", "second__player"
    )
    return render(
        request,
        "tournaments/checkin/keep_apart.html",
        {"tournament": tournament, "form": form, "pairs": pairs},
    )


@tournament_permission(MANAGE_TOURNAMENT)
@require_POST
def keep_apart_remove(request, pk, pair_pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    pair = get_object_or_404(KeepApart, pk=pair_pk, tournament=tournament)
    services.remove_keep_apart(pair=pair, user=request.user)
    messages.success(request, _("Pair removed."))
    return redirect("tournaments:keep_apart", pk=tournament.pk)


@tournament_permission(MANAGE_TOURNAMENT)
def substitute(request, pk, round):  # noqa: A002
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = get_object_or_404(Round, tournament=tournament, number=round)
    if request.method == "POST":
        form = SubstitutionForm(request.POST, round=round_)
        if form.is_valid():
            try:
                services.substitute_player(user=request.user, **form.cleaned_data)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Substitution recorded."))
                round_seating_changed.send(
                    sender=Tournament,
                    tournament=tournament,
                    round_number=round_.number,
                    base_url=public_base_url(request),
                )
                return redirect("tournaments:substitute", pk=tournament.pk, round=round_.number)
    else:
        form = SubstitutionForm(round=round_)
    substitutions = (
        Substitution.objects.filter(seat__round=round_)
        .select_related("seat__table", "seat__entry__player", "entry__player")
        .order_by("seat__table__number", "seat__position", "from_deal")
    )
    return render(
        request,
        "tournaments/checkin/substitute.html",
        {
            "tournament": tournament,
            "round": round_,
            "form": form,
            "substitutions": substitutions,
            "seat_plan_url": reverse(
                "tournaments:seat_plan", kwargs={"pk": tournament.pk, "round": round_.number}
            ),
        },
    )


urlpatterns = [
    path("tournaments/<int:pk>/checkin/", checkin, name="checkin"),
    path(
        "tournaments/<int:pk>/checkin/<int:entry_pk>/",
        entry_action,
        name="checkin_entry_action",
    ),
    path("tournaments/<int:pk>/checkin/late-entry/", late_entry, name="late_entry"),
    path("tournaments/<int:pk>/keep-apart/", keep_apart, name="keep_apart"),
    path(
        "tournaments/<int:pk>/keep-apart/<int:pair_pk>/remove/",
        keep_apart_remove,
        name="keep_apart_remove",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round>/substitute/",
        substitute,
        name="substitute",
    ),
]
