"""Who may do what: the one place that decides.

Views ask through ``organiser_required`` (someone who may run something at all) and
``check`` (this user, this action, this object); templates through ``may``. Nothing else in
the code base decides access. The table token on the phone pages is a separate, anonymous
capability and does not pass through here.

Actions, each on the object named:
- ``MANAGE_CLUB`` (club): the club's players, members, fees, seasons it hosts.
- ``MANAGE_SEASON`` (season): season rules, season exports.
- ``MANAGE_TOURNAMENT`` (tournament): setup, check-in, draw, printouts, entry, standings admin.
- ``REFEREE_TOURNAMENT`` (tournament): correct, annul, void, draw lots (each with a reason).
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.contrib.auth.decorators import user_passes_test
from django.core.exceptions import PermissionDenied

MANAGE_CLUB = "manage_club"
MANAGE_SEASON = "manage_season"
MANAGE_TOURNAMENT = "manage_tournament"
REFEREE_TOURNAMENT = "referee_tournament"

ACTIONS = (MANAGE_CLUB, MANAGE_SEASON, MANAGE_TOURNAMENT, REFEREE_TOURNAMENT)


def has_perm(user: Any, action: str, obj: Any) -> bool:
    """May ``user`` do ``action`` to ``obj``?

    Today: any active staff user may do everything (the behaviour before per-club roles).
    """
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    return bool(user.is_authenticated and user.is_active and user.is_staff)


def check(user: Any, action: str, obj: Any) -> None:
    """Raise ``PermissionDenied`` unless ``user`` may do ``action`` to ``obj``."""
    if not has_perm(user, action, obj):
        raise PermissionDenied


def is_organiser(user: Any) -> bool:
    """Someone who may run anything at all (before any object is known)."""
    return bool(user.is_authenticated and user.is_active and user.is_staff)


def organiser_required(view):
    """Send visitors to the login page; the object check follows inside the view."""
    return wraps(view)(user_passes_test(is_organiser)(view))


def may_view_player_page(user: Any, player: Any) -> bool:
    """The player's results page: organisers always; the public where one of the player's
    clubs opted in (``Club.public_player_pages``, off by default)."""
    if is_organiser(user):
        return True
    return player.memberships.filter(club__public_player_pages=True).exists()


def player_pages_visible(user: Any, player_ids: Any) -> frozenset[int]:
    """Of ``player_ids``, those whose page ``user`` may open (one query for the public)."""
    from clubs.models import Membership  # the models import nothing from here

    ids = frozenset(player_ids)
    if is_organiser(user):
        return ids
    return frozenset(
        Membership.objects.filter(player_id__in=ids, club__public_player_pages=True).values_list(
            "player_id", flat=True
        )
    )
