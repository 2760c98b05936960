"""Clubs, memberships and annual fees, edited in the app's own pages (a season:
``seasons.services``)."""

from __future__ import annotations

import datetime as dt
from typing import cast

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import AnnualFee, Club, Membership
from clubs.search import club_key
from clubs.selectors import season_fee_cents
from clubs.services.players import place_named_guests
from clubs.signals import club_shown_changed, player_shown_changed


def save_checked(*, instance, unique_message: str):
    """Validate and save ``instance``; a clash with a unique constraint becomes ``unique_message``."""
    instance.full_clean(validate_unique=False)
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError as error:
        raise ValidationError(unique_message) from error
    return instance


@transaction.atomic
def save_club(
    *,
    club: Club | None = None,
    name: str,
    short_name: str,
    town: str,
    public_player_pages: bool | None = None,
    user: User | None = None,
) -> Club:
    """A new club, or ``club``'s name, short name and town; ``public_player_pages`` (None:
    as it is) opens its players' results pages to the public (``clubs.permissions``)."""
    club = Club.objects.select_for_update().get(pk=club.pk) if club is not None else Club()
    club.name, club.short_name, club.town = name.strip(), short_name.strip(), town.strip()
    if public_player_pages is not None:
        club.public_player_pages = public_player_pages
    clash = Club.objects.exclude(pk=club.pk)
    errors = {}
    if clash.filter(name__iexact=club.name).exists():
        errors["name"] = _("A club of this name exists already.")
    if clash.filter(short_name__iexact=club.short_name).exists():
        errors["short_name"] = _("Another club has this short name.")
    if errors:
        raise ValidationError(errors)
    saved = save_checked(instance=club, unique_message=_("A club of this name exists already."))
    # Guests who typed this club's name when signing up are shown with it from now on.
    place_named_guests(club=saved, keys=[club_key(saved.name), club_key(saved.short_name)])
    _bump_tournaments(club_id=saved.pk)
    return saved


def _bump_tournaments(*, club_id: int) -> None:
    """The tournaments that show this club (host, a team's club, a player's club) show a
    rename at once: their cached pages and printouts are keyed on the revision."""
    club_shown_changed.send(sender=Club, club_id=club_id)


@transaction.atomic
def update_membership(
    *,
    membership: Membership,
    member_number: str,
    since: dt.date | None,
    left_on: dt.date | None,
    status: str,
    user: User | None = None,
) -> Membership:
    locked = Membership.objects.select_for_update().get(pk=membership.pk)
    if since and left_on and left_on < since:
        raise ValidationError({"left_on": _("A member cannot leave before joining.")})
    number = member_number.strip()
    if (
        number
        and Membership.objects.filter(club=locked.club_id, member_number=number)
        .exclude(pk=locked.pk)
        .exists()
    ):
        raise ValidationError({"member_number": _("This member number is given already.")})
    locked.member_number, locked.since, locked.left_on = number, since, left_on
    locked.status = status
    locked.full_clean(validate_constraints=False, validate_unique=False)
    locked.save()
    # The status decides which club is shown beside the player's name.
    player_shown_changed.send(sender=Membership, player_id=locked.player_id)
    return locked


@transaction.atomic
def set_annual_fee(
    *,
    membership: Membership,
    season,
    amount_cents: int,
    due_on: dt.date,
    status: str,
    paid_on: dt.date | None = None,
    method: str = "",
    note: str = "",
    user: User | None = None,
) -> AnnualFee:
    """Create or change the member's fee for the season. A payment needs both its date and
    its way (cash or transfer)."""
    Membership.objects.select_for_update().get(pk=membership.pk)
    errors = {}
    if amount_cents < 0:
        errors["amount"] = _("The amount cannot be negative.")
    if paid_on is not None and not method:
        errors["method"] = _("Say how it was paid: cash or transfer.")
    if paid_on is None and method:
        errors["paid_on"] = _("Give the day it was paid.")
    if errors:
        raise ValidationError(errors)
    fee, _created = AnnualFee.objects.select_for_update().get_or_create(
        membership=membership,
        season=season,
        defaults={"amount_cents": amount_cents, "due_on": due_on},
    )
    fee.amount_cents, fee.due_on, fee.status = amount_cents, due_on, status
    fee.paid_on, fee.method, fee.note = paid_on, method, note.strip()
    fee.recorded_by = user if user is not None and user.is_authenticated else None
    fee.full_clean(validate_unique=False)
    fee.save()
    return fee


@transaction.atomic
def record_cash_today(*, membership: Membership, season, user: User | None = None) -> AnnualFee:
    """ "Paid in cash today", one click in the members' list: the member's fee for the season
    (the row charged, or the season's fee as charged to the club's other members of the same
    status) marked paid today in cash, with who recorded it. Refused, writing nothing, when
    it is paid already or no amount is known yet."""
    locked = Membership.objects.select_for_update().select_related("player").get(pk=membership.pk)
    fees = list(
        AnnualFee.objects.select_for_update().filter(season=season, membership__club=locked.club)
    )
    fee = next((f for f in fees if f.membership_id == locked.pk), None)
    name = locked.player.full_name
    if fee is not None and fee.paid:
        raise ValidationError(
            _("The fee of %(name)s is paid already (%(day)s).")
            % {"name": name, "day": date_format(cast(dt.date, fee.paid_on), "SHORT_DATE_FORMAT")}
        )
    status = fee.status if fee is not None else locked.status
    amount = fee.amount_cents if fee is not None else season_fee_cents(fees=fees, status=status)
    if amount is None:
        raise ValidationError(
            _("No fee for this season is entered yet: enter the season's fee, or record this one.")
        )
    return set_annual_fee(
        membership=locked,
        season=season,
        amount_cents=amount,
        due_on=fee.due_on if fee is not None else season.starts_on,
        status=status,
        paid_on=timezone.localdate(),
        method=AnnualFee.Method.CASH,
        note=fee.note if fee is not None else "",
        user=user,
    )


@transaction.atomic
def charge_season_fees(
    *,
    club: Club,
    season,
    active_cents: int,
    passive_cents: int,
    due_on: dt.date,
    user: User | None = None,
) -> int:
    """Give every member of the season who has no fee row yet the season's fee (by their
    membership status). Existing rows are left alone, so running it twice adds nothing."""
    from clubs.selectors import season_memberships

    Club.objects.select_for_update().get(pk=club.pk)
    memberships = list(season_memberships(club=club, season=season))
    have = set(
        AnnualFee.objects.filter(season=season, membership__club=club).values_list(
            "membership_id", flat=True
        )
    )
    new = [
        AnnualFee(
            membership=m,
            season=season,
            status=m.status,
            amount_cents=active_cents if m.status == Membership.Status.ACTIVE else passive_cents,
            due_on=due_on,
        )
        for m in memberships
        if m.pk not in have
    ]
    AnnualFee.objects.bulk_create(new)
    return len(new)
