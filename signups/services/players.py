"""Who a confirmed sign-up is in the registry: the player found or created, the club shown
beside the name, and the category for the side rankings.

- **The club named.** A club of the server chosen on the form, or the text typed for "other
  club" when it is a club's name, short name or remembered spelling here
  (``clubs.selectors.clubs_by_key``); any other text stays text.
- **Found** where exactly one player of that name is a member of that club or a guest of it
  without membership (for text or no club: of that name and no club, not a guest of
  another club, and no other text named); else a **new record**.
- **Membership** only where the confirming organiser runs that club (as at the desk's late
  entry); anyone else's club is shown as the player's club without one
  (``Player.guest_club``), and text as typed (``Player.guest_club_name``) until the
  association maps it to a club (``clubs.services.players.place_named_guests``). A found
  player's guest club is filled only where blank: what the registry says stands.
- **Category**: a new record takes the sign-up's; a found one only where the registry says
  "open" (the default, so nobody said otherwise); a registry category that differs stays,
  and the note says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import Category, Club, Membership, Player, category_label
from clubs.permissions import manageable_clubs
from clubs.search import club_key, player_key
from clubs.selectors import clubs_by_key
from clubs.signals import player_shown_changed
from signups.models import Signup
from signups.selectors import guest_words, named_club
from tournaments.models import Tournament


@dataclass(frozen=True)
class Registry:
    """What a confirmation reads once, however many sign-ups it confirms (three queries)."""

    clubs: dict[str, Club]  # by the key of a name, short name or remembered spelling
    runs: frozenset[int]  # the clubs the confirming organiser runs
    host_id: int


def registry_for(*, tournament: Tournament, user: User | None) -> Registry:
    runs = (
        frozenset(manageable_clubs(user).values_list("pk", flat=True))
        if user is not None
        else frozenset()
    )
    return Registry(clubs=clubs_by_key(), runs=runs, host_id=tournament.host_club_id)


@dataclass(frozen=True)
class Found:
    player: Player
    note: str  # for the log: found or new, what was filled in
    guest: str  # "" unless the club named is not the host club: "Anna Fink (CC Br, …)"


def _candidates(signup: Signup, club: Club | None, text: str) -> list[Player]:
    same = Player.objects.filter(search_key=player_key(signup.first_name, signup.last_name))
    if club is not None:
        found = same.filter(
            Q(memberships__club=club) | Q(memberships__isnull=True, guest_club=club)
        ).distinct()
        return list(found[:2])
    found = same.exclude(pk__in=Membership.objects.values("player_id")).filter(
        guest_club__isnull=True
    )
    key = club_key(text)
    return [
        player
        for player in found[:10]
        if not text or not player.guest_club_name or club_key(player.guest_club_name) == key
    ][:2]


def _category_note(player: Player, wanted: str, *, new: bool) -> tuple[bool, str]:
    """Whether the player's category changes to the sign-up's, and what the log says."""
    if not wanted or wanted == player.category:
        return False, ""
    if new or player.category == Category.OPEN:
        return True, _("category %(category)s from the sign-up") % {
            "category": category_label(wanted)
        }
    return False, _(
        "the registry says %(registry)s, the sign-up %(signup)s: change it on the player's "
        "page if the sign-up is right"
    ) % {"registry": category_label(player.category), "signup": category_label(wanted)}


def player_for(*, signup: Signup, registry: Registry) -> Found:
    """The registry's player for ``signup`` (found, completed or created; see the module)."""
    club = named_club(signup=signup, clubs=registry.clubs)
    text = "" if club is not None else signup.club_text.strip()
    candidates = _candidates(signup, club, text)
    new = len(candidates) != 1
    if new:
        player = Player(first_name=signup.first_name, last_name=signup.last_name)
        notes = [_("new player record")]
    else:
        player = candidates[0]
        notes = [_("found in the registry")]
    member = (
        club is not None
        and not new
        and Membership.objects.filter(player=player, club=club).exists()
    )
    joins = club is not None and not member and club.pk in registry.runs
    changed = False
    if joins:  # a membership where the organiser runs the club: no guest's club beside it
        changed = bool(player.guest_club_id or player.guest_club_name)
        player.guest_club, player.guest_club_name = None, ""
    elif not member and not (player.guest_club_id or player.guest_club_name):
        if club is not None:
            player.guest_club, changed = club, True
            notes.append(
                _("shown with %(club)s, without membership (its organisers add it)")
                % {"club": club.short_name}
            )
        elif text:
            player.guest_club_name, changed = text[:120], True
            notes.append(_("club as named: “%(club)s”") % {"club": text})
    take, category_note = _category_note(player, signup.category, new=new)
    if take:
        player.category, changed = signup.category, True
    if category_note:
        notes.append(category_note)
    if new:
        player.full_clean(exclude=["search_key", "sort_key"])
        player.save()
    elif changed:
        player.save(update_fields=["guest_club", "guest_club_name", "category"])
    if joins and club is not None:
        Membership.objects.create(player=player, club=club)
        if not new:
            notes.append(_("joins %(club)s") % {"club": club.short_name})
    if not new and (changed or joins):
        player_shown_changed.send(sender=Player, player_id=player.pk)
    guest = ""
    if (club is not None and club.pk != registry.host_id) or text:
        guest = guest_words(
            name=signup.full_name,
            where=club.short_name if club is not None else text,
            on_server=club is not None,
            member=member or joins,
        )
    return Found(player=player, note="; ".join(notes), guest=guest)
