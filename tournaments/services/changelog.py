"""One helper that writes a tournament's log (``TournamentChange``): who, when, what, before
and after, why. Every service that changes a tournament day calls it inside its own
transaction, so a change and its log row are stored together or not at all.

Deals and rounds have their own, older histories (``DealChange``, ``RoundChange``); the
tournament's log page shows all three together (``tournaments.selectors.changelog``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from tournaments.models import TournamentChange


def _user_or_none(user: User | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def record(
    *,
    tournament_id: int,
    action: str,
    user: User | None = None,
    actor: str = "",
    subject: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> TournamentChange:
    """Append one row to the tournament's log. Call it inside the service's transaction."""
    return TournamentChange.objects.create(
        tournament_id=tournament_id,
        action=action,
        changed_by=_user_or_none(user),
        actor=actor[:120],
        subject=str(subject)[:200],
        before=before,
        after=after,
        reason=reason.strip(),
    )
