"""One click "paid in cash today" in the members' list: through the service, with the
amount charged (or the season's fee as charged to the others), who recorded it, and back at
the member's line."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clubs.models import AnnualFee, Membership
from clubs.services.admin import charge_season_fees, record_cash_today
from tests.treasury.test_fees import members  # noqa: F401

pytestmark = pytest.mark.django_db


def test_one_click_records_the_charged_fee_paid_in_cash_today(staff_client, members, organiser):  # noqa: F811
    club, season = members
    charge_season_fees(
        club=club, season=season, active_cents=3000, passive_cents=1000, due_on=season.starts_on
    )
    membership = Membership.objects.get(player__last_name="Passiv")
    page = staff_client.get(reverse("treasury:treasurer", args=[club.pk, season.pk]))
    html = page.content.decode()
    cash = reverse("treasury:fee_paid_cash", args=[club.pk, season.pk, membership.pk])
    assert f'action="{cash}"' in html and "paid 10,00 € in cash today" in html
    response = staff_client.post(cash)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#member-{membership.pk}")
    fee = AnnualFee.objects.get(membership=membership)
    assert (fee.amount_cents, fee.method, fee.paid_on) == (1000, "cash", timezone.localdate())
    assert fee.recorded_by == organiser
    # paid: no second click offered, and a second POST changes nothing
    html = staff_client.get(reverse("treasury:treasurer", args=[club.pk, season.pk])).content
    assert f'action="{cash}"' not in html.decode()
    with pytest.raises(ValidationError):
        record_cash_today(membership=membership, season=season, user=organiser)


def test_a_member_without_a_fee_row_pays_the_seasons_fee_as_charged(members, organiser):  # noqa: F811
    club, season = members
    charge_season_fees(
        club=club, season=season, active_cents=3000, passive_cents=1000, due_on=season.starts_on
    )
    late = Membership.objects.get(player__last_name="Neu")  # joined after the charge
    late.since = dt.date(2026, 12, 1)
    late.save()
    fee = record_cash_today(membership=late, season=season, user=organiser)
    assert (fee.amount_cents, fee.status, fee.method) == (3000, "active", "cash")


def test_without_any_fee_charged_nothing_is_guessed(members, organiser):  # noqa: F811
    club, season = members
    membership = Membership.objects.get(player__last_name="Aktiv")
    with pytest.raises(ValidationError, match="noch kein Beitrag eingetragen"):
        record_cash_today(membership=membership, season=season, user=organiser)
    assert not AnnualFee.objects.exists()
