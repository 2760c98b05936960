"""The laptop's pages of publishing: a tournament's season server and what it holds
elsewhere (the conflicts), and fetching a tournament from the season server (the way back)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.permissions import MANAGE_CLUB, MANAGE_TOURNAMENT, check, organiser_required
from publishing.laptop import outbox
from publishing.laptop.client import PublishError
from publishing.laptop.fetching import FetchError, fetch_tournament, fetchable
from publishing.laptop.forms import FetchForm, PublicationForm
from publishing.laptop.merging import settle
from publishing.laptop.registry_answer import RegistryError
from publishing.laptop.selectors import open_conflicts, sync_states
from publishing.laptop.sender import configured, wake
from publishing.laptop.services import follow
from publishing.models import Publication, PublishConflict
from tournaments.models import Tournament


@organiser_required
def tournament_publication(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    if request.method == "POST" and request.POST.get("retry", "").isdigit():
        publication = get_object_or_404(
            Publication, pk=request.POST["retry"], tournament=tournament
        )
        outbox.retry(publication=publication)
        wake()
        messages.success(request, _("The tournament is sent again."))
        return redirect("publishing:tournament_publication", pk=tournament.pk)
    form = PublicationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        follow(
            url=form.cleaned_data["url"],
            token=form.cleaned_data["token"],
            tournaments=[tournament],
        )
        messages.success(
            request,
            _("The tournament is sent to the season server whenever it changes."),
        )
        return redirect("publishing:tournament_publication", pk=tournament.pk)
    return render(
        request,
        "publishing/tournament_publication.html",
        {
            "tournament": tournament,
            "form": form,
            "states": sync_states(tournament_id=tournament.pk),
        },
    )


@organiser_required
def publication_conflicts(request, pk: int):
    """The items entered differently here and on the season server (a restored or second
    laptop): both versions side by side, the desk chooses one; logged with who chose."""
    tournament = get_object_or_404(Tournament, pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    if request.method == "POST" and request.POST.get("conflict", "").isdigit():
        conflict = get_object_or_404(
            PublishConflict, pk=request.POST["conflict"], publication__tournament=tournament
        )
        try:
            settle(conflict=conflict, choice=request.POST.get("choice", ""), user=request.user)
        except ValueError as error:
            messages.error(request, str(error))
        else:
            wake()
            messages.success(request, _("Chosen: it is published with the next change."))
        return redirect("publishing:publication_conflicts", pk=tournament.pk)
    return render(
        request,
        "publishing/publication_conflicts.html",
        {"tournament": tournament, "conflicts": open_conflicts(tournament_id=tournament.pk)},
    )


urlpatterns = [
    path("tournaments/<int:pk>/publish/", tournament_publication, name="tournament_publication"),
    path(
        "tournaments/<int:pk>/publish/conflicts/",
        publication_conflicts,
        name="publication_conflicts",
    ),
]


# The venue laptop's page: fetch a tournament from the season server (the way back).

_FETCH_SESSION = "publishing_fetch"  # the address and token of the list shown


@organiser_required
def fetch_from_server(request):
    """Ask for the season server's address (the venue's ``--publish-to`` offered) and the
    token (or the venue's), list what can be fetched, fetch one with one click."""
    check(request.user, MANAGE_CLUB, None)
    started_url, started_token = configured()
    rows, chosen = None, request.session.get(_FETCH_SESSION) or {}
    form = FetchForm(request.POST or None, initial={"url": started_url})
    if request.method == "POST" and request.POST.get("archive_id") and chosen:
        try:
            fetched = fetch_tournament(
                url=chosen["url"], token=chosen["token"], archive_id=request.POST["archive_id"]
            )
        except (PublishError, FetchError, RegistryError) as error:
            messages.error(
                request, _("Nothing was fetched: %(problem)s") % {"problem": error.message}
            )
            return redirect("publishing:fetch_from_server")
        request.session.pop(_FETCH_SESSION, None)
        if fetched.warning:
            messages.warning(request, fetched.warning)
        messages.success(
            request,
            _("%(name)s is on this laptop now, with %(entries)s registrations.")
            % {"name": fetched.tournament.name, "entries": fetched.entries},
        )
        wake()
        return redirect("tournaments:tournament_detail", pk=fetched.tournament.pk)
    if request.method == "POST" and form.is_valid():
        token = form.cleaned_data["token"].strip() or started_token
        if not token:
            form.add_error("token", _("The club's publishing token is needed."))
        else:
            try:
                rows = fetchable(url=form.cleaned_data["url"], token=token)
            except (PublishError, FetchError) as error:
                form.add_error(None, error.message)
            else:
                request.session[_FETCH_SESSION] = {"url": form.cleaned_data["url"], "token": token}
    return render(
        request,
        "publishing/fetch_from_server.html",
        {"form": form, "rows": rows, "started_token": bool(started_token)},
    )


urlpatterns += [
    path("venue/fetch-tournament/", fetch_from_server, name="fetch_from_server"),
]
