"""The pages of the online pre-registration: the public form per tournament, the personal
status page (by its link), and the organisers' list (settings, confirm, edit, cancel, move,
reach people). Thin: the services change, ``clubs.permissions`` decides who may."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.permissions import (
    MANAGE_TOURNAMENT,
    check,
    has_perm,
    held_in_hall,
    organiser_required,
)
from signups import selectors
from signups.forms import CATEGORY_CHOICES, OTHER, EditForm, SheetForm, SignupForm
from signups.models import Signup
from signups.services import signups as services
from signups.services.mail import send_signed_up
from signups.services.throttle import count_send
from tournaments.models import Tournament
from venue.client_ip import client_ip

# The first mail's link: the personal link with the code that confirms the address.
CONFIRM_PARAMETER = "adresse"


def _form_errors(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for name, errors in error.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


def _public_tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)


def signup_form(request, pk: int):
    """The public form: shown while the sign-up is open, else the reason."""
    tournament = _public_tournament(pk)
    sheet = selectors.sheet_of(tournament=tournament)
    closed = selectors.closed_reason(tournament=tournament, sheet=sheet)
    counts = selectors.counts(tournament=tournament, sheet=sheet)
    # Bound on every POST, an empty one too: it is answered with the fields' messages.
    form = SignupForm(request.POST if request.method == "POST" else None) if not closed else None
    refused = None
    if request.method == "POST" and form is not None:
        if request.POST.get("website"):
            # A bot filled the hidden field: a neutral answer, nothing stored.
            return render(request, "signups/received.html", {"tournament": tournament})
        refused = count_send(
            address=client_ip(request),
            first_name=request.POST.get("first_name", ""),
            last_name=request.POST.get("last_name", ""),
        )
        if refused is None and form.is_valid():
            data = form.cleaned_data
            try:
                done = services.sign_up(
                    tournament=tournament,
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                    club=form.chosen_club(),
                    club_text=data["club_text"] if data["club"] == OTHER else "",
                    email=data["email"],
                    consent=data["consent"],
                    category=data["category"],
                )
            except ValidationError as error:
                _form_errors(form, error)
            else:
                link = request.build_absolute_uri(
                    reverse("signups:status", kwargs={"token": done.token})
                )
                code = urlencode({CONFIRM_PARAMETER: selectors.email_code(signup=done.signup)})
                mailed = send_signed_up(signup=done.signup, link=f"{link}?{code}")
                request.session["signups_new"] = "mailed" if mailed else "shown"
                return HttpResponseRedirect(link)
    response = render(
        request,
        "signups/form.html",
        {
            "tournament": tournament,
            "sheet": sheet,
            "closed": closed,
            "counts": counts,
            "form": form,
            "refused": refused,
            "registration_url": (
                reverse("tournaments:registration", kwargs={"pk": tournament.pk})
                if refused and has_perm(request.user, MANAGE_TOURNAMENT, tournament)
                else ""
            ),
        },
        status=429 if refused else 200,
    )
    if refused:
        response["Retry-After"] = str(refused.wait_seconds)
    return response


def signup_status(request, token: str):
    """The person's own page by their link: what they hold, and cancelling."""
    signup = selectors.signup_by_token(token=token)
    if signup is None:
        raise Http404
    if request.method == "GET" and CONFIRM_PARAMETER in request.GET:
        try:
            services.confirm_email(signup=signup, code=request.GET[CONFIRM_PARAMETER])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Your e-mail address is confirmed."))
        return redirect("signups:status", token=token)  # the code leaves the address bar
    if request.method == "POST":
        if request.POST.get("action") == "cancel" and request.POST.get("sure"):
            try:
                services.cancel(signup=signup, by_link=True)
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                messages.success(request, _("Your sign-up is cancelled."))
        else:
            messages.error(request, _("Tick the box to cancel your sign-up."))
        return redirect("signups:status", token=token)
    signup.refresh_from_db()
    return render(
        request,
        "signups/status.html",
        {
            "signup": signup,
            "tournament": signup.tournament,
            "position": selectors.waiting_position(signup=signup),
            "link": request.build_absolute_uri(),
            "new": request.session.pop("signups_new", False),
        },
    )


# --- the organisers' list -----------------------------------------------------------------


def _managed(request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    return tournament


def _sheet_initial(sheet) -> dict:
    if sheet is None:
        return {}
    from django.utils import timezone

    return {
        "is_open": sheet.is_open,
        "capacity": sheet.capacity,
        "closes_at": timezone.localtime(sheet.closes_at) if sheet.closes_at else None,
    }


def _moved_message(request, outcome) -> None:
    if outcome.moved_up:
        messages.info(
            request,
            ngettext(
                "%(names)s moved up from the waiting list.",
                "%(names)s moved up from the waiting list.",
                len(outcome.moved_up),
            )
            % {"names": ", ".join(s.full_name for s in outcome.moved_up)},
        )


def _guests_message(request, guests) -> None:
    """Who of those confirmed are guests, and from where (said on confirming)."""
    if guests:
        messages.info(
            request,
            ngettext("Guest: %(guests)s.", "Guests: %(guests)s.", len(guests))
            % {"guests": "; ".join(guests)},
        )


def _save_categories(request, tournament: Tournament) -> None:
    """The list's category choices (``category-<sign-up id>``), saved at once."""
    wanted = {}
    for name, value in request.POST.items():
        prefix, _sep, pk = name.partition("-")
        if prefix == "category" and pk.isdigit():
            wanted[int(pk)] = value
    try:
        changed = services.set_categories(
            tournament=tournament, user=request.user, categories=wanted
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            ngettext("%(n)d category saved.", "%(n)d categories saved.", changed) % {"n": changed},
        )


@organiser_required
def signup_list(request, pk: int):
    tournament = _managed(request, pk)
    sheet = selectors.sheet_of(tournament=tournament)
    form = SheetForm(request.POST or None, initial=_sheet_initial(sheet))
    if request.method == "POST":
        if request.POST.get("action") == "confirm_all":
            try:
                done = services.confirm_all(tournament=tournament, user=request.user)
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                messages.success(
                    request,
                    ngettext("%(n)d sign-up confirmed.", "%(n)d sign-ups confirmed.", done.count)
                    % {"n": done.count},
                )
                _guests_message(request, done.guests)
            return redirect("signups:organiser_list", pk=tournament.pk)
        if request.POST.get("action") == "categories":
            _save_categories(request, tournament)
            return redirect("signups:organiser_list", pk=tournament.pk)
        if form.is_valid():
            try:
                outcome = services.set_sheet(
                    tournament=tournament,
                    user=request.user,
                    is_open=form.cleaned_data["is_open"],
                    capacity=form.cleaned_data["capacity"],
                    closes_at=form.cleaned_data["closes_at"],
                )
            except ValidationError as error:
                _form_errors(form, error)
            else:
                messages.success(request, _("Sign-up settings saved."))
                _moved_message(request, outcome)
                return redirect("signups:organiser_list", pk=tournament.pk)
    rows = selectors.organiser_list(tournament=tournament)
    guests = selectors.guests(tournament=tournament, rows=rows, user=request.user)
    emails = sorted(
        {row.signup.email for row in rows if row.signup.email and row.signup.status != "cancelled"}
    )
    return render(
        request,
        "signups/organiser_list.html",
        {
            "tournament": tournament,
            "sheet": sheet,
            "form": form,
            "rows": rows,
            "listed": [(row, guests.get(row.signup.pk)) for row in rows],
            "guests_to_confirm": [
                (row, guests[row.signup.pk])
                for row in rows
                if row.signup.status == "held" and row.signup.pk in guests
            ],
            "categories": CATEGORY_CHOICES,
            "counts": selectors.counts(tournament=tournament, sheet=sheet),
            "closed": selectors.closed_reason(tournament=tournament, sheet=sheet),
            "emails": emails,
            "mailto": "mailto:?bcc=" + ",".join(emails) if emails else "",
            "log": selectors.signup_log(tournament=tournament),
            "in_hall": held_in_hall(tournament),
            "public_url": request.build_absolute_uri(
                reverse("signups:form", kwargs={"pk": tournament.pk})
            ),
        },
    )


def _signup(tournament: Tournament, signup_pk: int) -> Signup:
    return get_object_or_404(
        Signup.objects.select_related("club"), pk=signup_pk, tournament=tournament
    )


@organiser_required
@require_POST
def signup_action(request, pk: int, signup_pk: int):
    tournament = _managed(request, pk)
    signup = _signup(tournament, signup_pk)
    action = request.POST.get("action", "")
    try:
        if action == "confirm":
            outcome = services.confirm(signup=signup, user=request.user)
            messages.success(
                request,
                _("%(name)s is confirmed and on the tournament's list.")
                % {"name": signup.full_name}
                + (f" ({outcome.note})" if outcome.note else ""),
            )
            _guests_message(request, [outcome.guest] if outcome.guest else [])
        elif action == "cancel":
            outcome = services.cancel(signup=signup, user=request.user)
            messages.success(request, _("%(name)s is cancelled.") % {"name": signup.full_name})
            _moved_message(request, outcome)
        elif action in ("up", "down"):
            services.move(signup=signup, user=request.user, direction=action)
        else:
            messages.error(request, _("Unknown action."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return HttpResponseRedirect(
        reverse("signups:organiser_list", kwargs={"pk": tournament.pk}) + f"#signup-{signup.pk}"
    )


@organiser_required
def signup_edit(request, pk: int, signup_pk: int):
    tournament = _managed(request, pk)
    signup = _signup(tournament, signup_pk)
    initial = {
        "first_name": signup.first_name,
        "last_name": signup.last_name,
        "club": str(signup.club_id) if signup.club_id else OTHER,
        "club_text": signup.club_text,
        "email": signup.email,
        "category": signup.category,
    }
    form = EditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.edit(
                signup=signup,
                user=request.user,
                first_name=data["first_name"],
                last_name=data["last_name"],
                club=form.chosen_club(),
                club_text=data["club_text"] if data["club"] == OTHER else "",
                email=data["email"],
                category=data["category"],
            )
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, _("Sign-up saved."))
            return redirect("signups:organiser_list", pk=tournament.pk)
    return render(
        request,
        "signups/edit.html",
        {"tournament": tournament, "signup": signup, "form": form},
    )


app_name = "signups"
urlpatterns = [
    path("tournaments/<int:pk>/anmeldung/", signup_form, name="form"),
    path("anmeldung/<str:token>/", signup_status, name="status"),
    path("tournaments/<int:pk>/signups/", signup_list, name="organiser_list"),
    path(
        "tournaments/<int:pk>/signups/<int:signup_pk>/action/",
        signup_action,
        name="action",
    ),
    path("tournaments/<int:pk>/signups/<int:signup_pk>/edit/", signup_edit, name="edit"),
]
