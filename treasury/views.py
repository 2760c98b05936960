"""The treasurer's pages: the clubs with their seasons' fees, a club's members and annual fees per season (with the fees taken
at the tournaments it hosted), one fee, and a tournament's prize money."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import (
    ChargeFeesForm,
    FeeForm,
    MembershipForm,
    add_service_errors,
    cents,
)
from clubs.models import AnnualFee, Club, Membership
from clubs.permissions import (
    MANAGE_CLUB,
    MANAGE_TOURNAMENT,
    check,
    manageable_clubs,
    organiser_required,
)
from clubs.services import admin as services
from seasons.models import Season
from tournaments.models import Tournament
from tournaments.money import euros
from tournaments.selectors.standings import tournament_standings
from treasury import services as treasury_services
from treasury.forms import PrizeMoneyForm
from treasury.selectors import tournament_money, treasurer_view


@organiser_required
def club_list(request):
    return render(
        request,
        "treasury/club_list.html",
        {"clubs": manageable_clubs(request.user), "seasons": Season.objects.all()},
    )


def club_and_season(request, pk: int, season_pk: int):
    club = get_object_or_404(Club, pk=pk)
    check(request.user, MANAGE_CLUB, club)
    season = get_object_or_404(Season, pk=season_pk)
    return club, season


def hosted_tournaments(club: Club, season: Season) -> list:
    """The season's tournaments this club hosted, each with its money."""
    return [
        (t, tournament_money(tournament=t, standings=tournament_standings(tournament=t)))
        for t in Tournament.objects.filter(season=season, host_club=club).order_by("date")
    ]


@organiser_required
def treasurer(request, pk: int, season_pk: int | None = None):
    if season_pk is None:
        club = get_object_or_404(Club, pk=pk)
        check(request.user, MANAGE_CLUB, club)
        season = Season.objects.first()
        if season is None:
            messages.error(request, _("Create a season first."))
            return redirect("seasons:season_create")
        return redirect("treasury:treasurer", pk=club.pk, season_pk=season.pk)
    club, season = club_and_season(request, pk, season_pk)
    view = treasurer_view(club=club, season=season)
    charge = ChargeFeesForm(request.POST or None, prefix="charge")
    if request.method == "POST" and charge.is_valid():
        data = charge.cleaned_data
        count = services.charge_season_fees(
            club=club,
            season=season,
            active_cents=cents(data["active_amount"]),
            passive_cents=cents(data["passive_amount"]),
            due_on=data["due_on"],
            user=request.user,
        )
        messages.success(request, _("%(count)s fees entered.") % {"count": count})
        return redirect("treasury:treasurer", pk=club.pk, season_pk=season.pk)
    return render(
        request,
        "treasury/treasurer.html",
        {
            "club": club,
            "season": season,
            "seasons": Season.objects.all(),
            "view": view,
            "charge": charge,
            "hosted": hosted_tournaments(club, season),
        },
    )


@organiser_required
def fee_form(request, pk: int, season_pk: int, membership_pk: int):
    club, season = club_and_season(request, pk, season_pk)
    membership = get_object_or_404(
        Membership.objects.select_related("player"), pk=membership_pk, club=club
    )
    fee = AnnualFee.objects.filter(membership=membership, season=season).first()
    initial = {
        "status": fee.status if fee else membership.status,
        "amount": Decimal(fee.amount_cents) / 100 if fee else None,
        "due_on": fee.due_on if fee else season.starts_on,
        "paid_on": fee.paid_on if fee else None,
        "method": fee.method if fee else "",
        "note": fee.note if fee else "",
    }
    member_initial = {
        "member_number": membership.member_number,
        "since": membership.since,
        "left_on": membership.left_on,
        "status": membership.status,
    }
    is_member_form = request.POST.get("form") == "membership"
    form = FeeForm(None if is_member_form else (request.POST or None), initial=initial)
    member_form = MembershipForm(
        request.POST if is_member_form else None, initial=member_initial, prefix="m"
    )
    back = redirect("treasury:treasurer", pk=club.pk, season_pk=season.pk)
    if request.method == "POST" and is_member_form and member_form.is_valid():
        try:
            services.update_membership(
                membership=membership, user=request.user, **member_form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(member_form, error)
        else:
            messages.success(request, _("Membership saved."))
            return back
    elif request.method == "POST" and not is_member_form and form.is_valid():
        data = form.cleaned_data
        try:
            services.set_annual_fee(
                membership=membership,
                season=season,
                amount_cents=cents(data["amount"]),
                due_on=data["due_on"],
                status=data["status"],
                paid_on=data["paid_on"],
                method=data["method"],
                note=data["note"],
                user=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request, _("Fee of %(name)s saved.") % {"name": membership.player.full_name}
            )
            return back
    return render(
        request,
        "treasury/fee_form.html",
        {
            "club": club,
            "season": season,
            "membership": membership,
            "form": form,
            "member_form": member_form,
        },
    )


@organiser_required
@require_POST
def fee_paid_cash(request, pk: int, season_pk: int, membership_pk: int):
    """One click in the members' list: the annual fee paid in cash today."""
    club, season = club_and_season(request, pk, season_pk)
    membership = get_object_or_404(
        Membership.objects.select_related("player"), pk=membership_pk, club=club
    )
    try:
        fee = services.record_cash_today(membership=membership, season=season, user=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("%(name)s paid %(amount)s in cash today.")
            % {"name": membership.player.full_name, "amount": euros(fee.amount_cents)},
        )
    back = reverse("treasury:treasurer", args=[club.pk, season.pk])
    return redirect(f"{back}#member-{membership.pk}")


@organiser_required
def prize_money(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    initial = {
        "shares": "; ".join(
            f"{c / 100:.2f}".replace(".", ",") for c in tournament.prize_shares_cents
        ),
        "youth_entry_free": tournament.youth_entry_free,
    }
    form = PrizeMoneyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            treasury_services.set_prize_money(
                tournament=tournament,
                shares_cents=form.cleaned_data["shares"],
                youth_entry_free=form.cleaned_data["youth_entry_free"],
                user=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Prize money saved."))
            return redirect("treasury:prize_money", pk=tournament.pk)
    money = tournament_money(
        tournament=tournament, standings=tournament_standings(tournament=tournament)
    )
    return render(
        request,
        "treasury/prize_money.html",
        {"tournament": tournament, "form": form, "money": money},
    )


urlpatterns = [
    path("clubs/", club_list, name="club_list"),
    path("clubs/<int:pk>/fees/", treasurer, name="treasurer_latest"),
    path("clubs/<int:pk>/fees/<int:season_pk>/", treasurer, name="treasurer"),
    path(
        "clubs/<int:pk>/fees/<int:season_pk>/member/<int:membership_pk>/",
        fee_form,
        name="fee_edit",
    ),
    path(
        "clubs/<int:pk>/fees/<int:season_pk>/member/<int:membership_pk>/cash-today/",
        fee_paid_cash,
        name="fee_paid_cash",
    ),
    path("tournaments/<int:pk>/prize-money/", prize_money, name="prize_money"),
]
