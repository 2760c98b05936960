"""The draw by lot that separates players the tie-break rule left tied."""

from __future__ import annotations

import random

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tournaments.draw import new_seed
from tournaments.models import LotDraw, Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.services.revision import bump_revision


@transaction.atomic
def draw_lots(*, tournament: Tournament, user: AbstractBaseUser | None) -> list[LotDraw]:
    """Draw lots for every group still tied in the standings and record each draw.

    The seed is stored with the order, so anyone can check the draw afterwards.
    """
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
    bump_revision(tournament_id=tournament.pk)
    return draws
