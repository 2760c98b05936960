"""``/setup/``: a new installation's first account and club, in the browser.

Open only while no account exists (afterwards it sends visitors to the login page and
those signed in to the home page). The
permissions module says whether this request needs the one-time code (everyone but the
laptop itself); the service checks the code, and creates user, club and role in one
transaction that only one of two browsers can win.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.forms import FirstRunForm, add_service_errors
from clubs.permissions import first_run_needs_code, first_run_open
from clubs.services import setup as services
from venue.client_ip import client_ip, through_unknown_proxy


def _gone(request):
    """After the first run the page is gone: visitors are sent to the login page."""
    if request.user.is_authenticated:
        return redirect("tournaments:home")
    messages.info(request, _("The first-time setup is done. Log in with your account."))
    return redirect("login")


def first_run(request):
    if not first_run_open():
        return _gone(request)
    address = client_ip(request)
    needs_code = first_run_needs_code(address, through_unknown_proxy=through_unknown_proxy(request))
    form = FirstRunForm(request.POST or None, needs_code=needs_code)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = services.claim_first_run(
                username=data["username"],
                password=data["password"],
                club_name=data["club_name"],
                club_short_name=data["club_short_name"],
                club_town=data["club_town"],
                club_public_player_pages=data["club_public_player_pages"],
                code=data["code"] if needs_code else None,
                address=address or "",
            )
        except services.SetupClosed:
            return _gone(request)  # another browser was quicker
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            # The home page lists the next steps (member list, then a tournament) itself: the
            # welcome said them a second time (issue 28).
            messages.success(
                request,
                _("Welcome! Your account runs %(club)s.") % {"club": data["club_name"].strip()},
            )
            return redirect("tournaments:home")
    return render(request, "clubs/first_run.html", {"form": form, "needs_code": needs_code})


urlpatterns = [
    path("setup/", first_run, name="first_run"),
]
