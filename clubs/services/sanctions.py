"""The register of sanctions the association's season scorer keeps on the season server:
recording a ban (player, reason, from, until a date or for N championship tournaments, who
decided) and lifting one early with a reason. Each row says who recorded or lifted it and
when; nothing is deleted. Who may: ``clubs.permissions.KEEP_SANCTIONS``.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player, Sanction

REASON_LENGTH = 2000
DECIDED_BY_LENGTH = 160
LIFT_REASON_LENGTH = 300
MAX_TOURNAMENTS = 99


def _user(user: User | None) -> User | None:
    return user if getattr(user, "pk", None) else None


@transaction.atomic
def record_sanction(
    *,
    player_id: int,
    reason: str,
    starts_on: dt.date,
    ends_on: dt.date | None,
    tournaments: int | None,
    decided_by: str,
    user: User | None,
) -> Sanction:
    """A ban from ``starts_on``, until ``ends_on`` (and including it) or for ``tournaments``
    championship tournaments, never both. ``ValidationError`` by field; nothing written."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    why, who = (reason or "").strip(), (decided_by or "").strip()
    errors: dict[str, str] = {}
    if player is None:
        errors["player"] = _("Choose the player.")
    if not why:
        errors["reason"] = _("Give the reason.")
    elif len(why) > REASON_LENGTH:
        errors["reason"] = _("At most %(n)d characters, please.") % {"n": REASON_LENGTH}
    if not who:
        errors["decided_by"] = _("Say who decided.")
    elif len(who) > DECIDED_BY_LENGTH:
        errors["decided_by"] = _("At most %(n)d characters, please.") % {"n": DECIDED_BY_LENGTH}
    if (ends_on is None) == (tournaments is None):
        errors["ends_on"] = _("Give either the last day or the number of tournaments.")
    elif ends_on is not None and ends_on < starts_on:
        errors["ends_on"] = _("The ban cannot end before it starts.")
    elif tournaments is not None and not 1 <= tournaments <= MAX_TOURNAMENTS:
        errors["tournaments"] = _("Between 1 and %(n)d tournaments.") % {"n": MAX_TOURNAMENTS}
    if errors or player is None:
        raise ValidationError(errors)
    return Sanction.objects.create(
        player=player,
        reason=why,
        starts_on=starts_on,
        ends_on=ends_on,
        tournaments=tournaments,
        decided_by=who,
        recorded_by=_user(user),
    )


@transaction.atomic
def lift_sanction(*, sanction: Sanction, reason: str, user: User | None) -> Sanction:
    """End a ban early (an appeal against it upheld, a mistake): kept in the register,
    marked lifted with why, when and by whom."""
    locked = Sanction.objects.select_for_update().get(pk=sanction.pk)
    why = (reason or "").strip()
    if locked.lifted_at is not None:
        raise ValidationError(_("This sanction is lifted already."))
    if not why:
        raise ValidationError({"lift_reason": _("Say why the sanction is lifted.")})
    if len(why) > LIFT_REASON_LENGTH:
        raise ValidationError(
            {"lift_reason": _("At most %(n)d characters, please.") % {"n": LIFT_REASON_LENGTH}}
        )
    locked.lifted_at, locked.lifted_by, locked.lift_reason = timezone.now(), _user(user), why
    locked.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    return locked
