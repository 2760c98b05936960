"""The treasurer's changes: a tournament's prize money per place."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Tournament


@transaction.atomic
def set_prize_money(
    *,
    tournament,
    shares_cents: list[int],
    youth_entry_free: bool,
    user: User | None = None,
):
    """The amounts per place shared out of the entry-fee pot, and whether youth play free."""

    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if any(amount < 0 for amount in shares_cents):
        raise ValidationError({"shares": _("Amounts cannot be negative.")})
    locked.prize_shares_cents = list(shares_cents)
    locked.youth_entry_free = youth_entry_free
    locked.save(update_fields=["prize_shares_cents", "youth_entry_free"])
    return locked
