"""The draw by lot that separates players the tie-break rule left tied."""

from __future__ import annotations

import random

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.draw import new_seed
from tournaments.models import LotDraw, Tournament, TournamentChange
from tournaments.selectors.standings import tournament_standings
from tournaments.services import changelog
from tournaments.services.revision import bump_revision


class LotError(Exception):
    """Lots cannot be drawn as asked (the message says why)."""


@transaction.atomic
def draw_lots(*, tournament: Tournament, user: User | None, reason: str) -> list[LotDraw]:
    """Draw lots for every group still tied in the standings and record each draw.

    The seed is stored with the order, so anyone can check the draw afterwards; the reason
    (required, like every referee's act) goes into the tournament's log.
    """
    if not reason.strip():
        raise LotError(_("Give a reason for drawing lots."))
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    draws = []
    for group in tournament_standings(tournament=tournament).unresolved_ties:
        seed = new_seed()
        order = sorted(group)
        random.Random(seed).shuffle(order)
        draws.append(
            LotDraw.objects.create(
                tournament=tournament,
                purpose="tie_break",
                seed=seed,
                order=order,
                performed_by=user if user is not None and user.is_authenticated else None,
            )
        )
    if draws:
        changelog.record(
            tournament_id=tournament.pk,
            action=TournamentChange.Action.LOTS_DRAWN,
            user=user,
            after=[{"seed": d.seed, "order": d.order} for d in draws],
            reason=reason,
        )
    bump_revision(tournament_id=tournament.pk)
    return draws
