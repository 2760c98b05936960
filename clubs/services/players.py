"""The player registry: create, edit, merge two records of one person."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import AnnualFee, Category, Club, Membership, Player, PlayerMerge
from clubs.search import club_key
from clubs.selectors import players_like
from clubs.signals import player_shown_changed, players_merging


class DuplicateName(ValidationError):
    """A player of that name exists already; ``players`` are the candidates to use instead."""

    def __init__(self, players):
        self.players = list(players)
        names = ", ".join(_describe(p) for p in self.players)
        super().__init__(
            {
                "last_name": _(
                    "A player of this or a similar name exists already: %(names)s. Use that "
                    "record, or confirm that this is a different person."
                )
                % {"names": names}
            }
        )


def _describe(player: Player) -> str:
    """Name and clubs: the message reaches organisers of every club, so no birth year
    (the offer beside it shows that where ``permissions.registry_player_ids`` allows)."""
    clubs = ", ".join(m.club.short_name for m in player.memberships.all())
    return player.full_name + (f" ({clubs})" if clubs else "")


def _set_home_membership(player: Player, club: Club | None, member_number: str) -> None:
    """The membership the registry form edits: the player's one at ``club`` (created when
    missing). The member number must be unique within the club."""
    if club is None:
        return
    member_number = member_number.strip()
    if member_number:
        taken = (
            Membership.objects.filter(club=club, member_number=member_number)
            .exclude(player=player)
            .select_related("player")
            .first()
        )
        if taken is not None:
            raise ValidationError(
                {
                    "member_number": _("%(club)s has given number %(number)s to %(name)s.")
                    % {"club": club.short_name, "number": member_number, "name": taken.player}
                }
            )
    membership, created = Membership.objects.select_for_update().get_or_create(
        player=player, club=club, defaults={"member_number": member_number}
    )
    if not created and member_number and membership.member_number != member_number:
        membership.member_number = member_number
        membership.save(update_fields=["member_number"])


@transaction.atomic
def create_player(
    *,
    first_name: str,
    last_name: str,
    birth_year: int | None = None,
    category: str = Category.OPEN,
    email: str = "",
    club: Club | None = None,
    member_number: str = "",
    named_for_age: bool = False,
    allow_duplicate: bool = False,
    user: User | None = None,
) -> Player:
    """A new player. Refused with :class:`DuplicateName` when a player of that name exists
    (spelt with or without umlauts) or of a near-miss spelling ("Brigite" for "Brigitte"),
    unless ``allow_duplicate`` (a different person)."""
    if not allow_duplicate:
        same = players_like(first_name=first_name, last_name=last_name)
        if same:
            raise DuplicateName(same)
    player = Player(
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        birth_year=birth_year,
        category=category,
        email=email.strip(),
        named_for_age=named_for_age,
    )
    player.full_clean(exclude=["search_key", "sort_key"])
    player.save()
    _set_home_membership(player, club, member_number)
    return player


@transaction.atomic
def update_player(
    *,
    player: Player,
    first_name: str,
    last_name: str,
    birth_year: int | None = None,
    category: str = Category.OPEN,
    email: str = "",
    club: Club | None = None,
    member_number: str = "",
    named_for_age: bool | None = None,
    user: User | None = None,
) -> Player:
    """Change a player's record. ``named_for_age`` None keeps the player's consent to be named
    as youngest or oldest as it is (a caller that does not ask about it changes nothing)."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    locked.first_name = first_name.strip()
    locked.last_name = last_name.strip()
    locked.birth_year = birth_year
    locked.category = category
    locked.email = email.strip()
    if named_for_age is not None:
        locked.named_for_age = named_for_age
    locked.full_clean(exclude=["search_key", "sort_key"])
    locked.save()
    _set_home_membership(locked, club, member_number)
    _bump_tournaments(player_id=locked.pk)
    return locked


def _bump_tournaments(*, player_id: int) -> None:
    """The tournaments that show this player (name, club, category) show the change at once:
    their cached pages and printouts are keyed on the revision."""
    player_shown_changed.send(sender=Player, player_id=player_id)


def _snapshot(player: Player) -> dict:
    return {
        "id": player.pk,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "birth_year": player.birth_year,
        "named_for_age": player.named_for_age,
        "category": player.category,
        "email": player.email,
        "memberships": [
            {"club": m.club.short_name, "member_number": m.member_number, "status": m.status}
            for m in player.memberships.select_related("club")
        ],
    }


def _move_other_references(*, keep: Player, remove: Player) -> None:
    """Any other model that refers to a player (added by other areas later) follows the
    merge too; where that breaks one of its constraints the merge is refused."""
    handled = {Membership, PlayerMerge}  # tournament entries: moved by their receiver
    for relation in Player._meta.related_objects:
        if relation.related_model in handled or not (relation.one_to_many or relation.one_to_one):
            continue
        name = relation.field.name
        try:
            with transaction.atomic():
                relation.related_model._base_manager.filter(**{name: remove}).update(**{name: keep})
        except IntegrityError as error:
            raise ValidationError(
                {
                    "remove": _(
                        "Both records appear in %(what)s where only one may: resolve that "
                        "first. Nothing was merged."
                    )
                    % {"what": relation.related_model._meta.verbose_name_plural}
                }
            ) from error


@transaction.atomic
def merge_players(*, keep: Player, remove: Player, user: User | None = None) -> PlayerMerge:
    """Two records of one person become one: ``remove``'s entries (and with them its seats,
    substitutions and results), memberships and annual fees move to ``keep``; blanks in
    ``keep`` (birth year, e-mail) are filled from ``remove``; ``remove`` is deleted and the
    merge logged. Refused, changing nothing, where both played in the same tournament or
    hold a fee for the same club and season."""
    if keep.pk == remove.pk:
        raise ValidationError({"remove": _("Choose two different players.")})
    # Lock both in id order so that two merges of the same pair cannot deadlock.
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update()
        .filter(pk__in=[keep.pk, remove.pk])
        .order_by("pk")
    }
    if len(locked) != 2:
        raise ValidationError(_("One of the two players no longer exists."))
    keep, remove = locked[keep.pk], locked[remove.pk]
    # The tournament day refuses (both played in one tournament) or moves the entries first;
    # a refusal later on rolls its move back with everything else.
    entries_moved = sum(
        cast(int, moved)  # each receiver answers with the entries it moved
        for _receiver, moved in players_merging.send(sender=Player, keep=keep, remove=remove)
    )
    snapshot = _snapshot(remove)
    kept_memberships = {m.club_id: m for m in keep.memberships.select_for_update()}
    moved_memberships = 0
    for membership in remove.memberships.select_for_update().select_related("club"):
        target = kept_memberships.get(membership.club_id)
        if target is None:
            membership.player = keep
            membership.save(update_fields=["player"])
            moved_memberships += 1
            continue
        kept_seasons = set(target.fees.values_list("season_id", flat=True))
        fees = list(membership.fees.select_related("season"))
        double = [fee.season.name for fee in fees if fee.season_id in kept_seasons]
        if double:
            raise ValidationError(
                {
                    "remove": _(
                        "Both records have an annual fee at %(club)s for %(seasons)s; delete "
                        "one of them first. Nothing was merged."
                    )
                    % {"club": membership.club.short_name, "seasons": ", ".join(double)}
                }
            )
        AnnualFee.objects.filter(pk__in=[fee.pk for fee in fees]).update(membership=target)
        if not target.member_number and membership.member_number:
            number = membership.member_number
            membership.delete()  # frees the number (unique within the club)
            target.member_number = number
            target.save(update_fields=["member_number"])
        else:
            membership.delete()
        moved_memberships += 1
    _move_other_references(keep=keep, remove=remove)
    _bump_tournaments(player_id=keep.pk)
    changed = []
    if keep.birth_year is None and remove.birth_year is not None:
        keep.birth_year = remove.birth_year
        changed.append("birth_year")
    if not keep.email and remove.email:
        keep.email = remove.email
        changed.append("email")
    if not (keep.guest_club_id or keep.guest_club_name) and (
        remove.guest_club_id or remove.guest_club_name
    ):
        keep.guest_club_id, keep.guest_club_name = remove.guest_club_id, remove.guest_club_name
        changed += ["guest_club", "guest_club_name"]
    if changed:
        keep.save(update_fields=changed)
    log = PlayerMerge.objects.create(
        kept=keep,
        removed_name=f"{remove.last_name}, {remove.first_name}"[:130],
        removed_data=snapshot,
        entries_moved=entries_moved,
        memberships_moved=moved_memberships,
        merged_by=user if user is not None and user.is_authenticated else None,
    )
    remove.delete()
    return log


@transaction.atomic
def place_named_guests(*, club: Club, keys: Iterable[str]) -> int:
    """Guests who named a club as text (``Player.guest_club_name``, signing up online) that
    is now known as ``club``: ``keys`` are the ``clubs.search.club_key`` of a spelling just
    remembered for it, or of its name and short name. They are shown with ``club`` from now
    on (``guest_club``), still without a membership (only its organisers give one); the
    tournaments showing them bump their revision. Returns how many."""
    wanted = {key for key in keys if key}
    if not wanted:
        return 0
    moved = [
        player
        for player in Player.objects.select_for_update().exclude(guest_club_name="")
        if club_key(player.guest_club_name) in wanted
    ]
    for player in moved:
        player.guest_club, player.guest_club_name = club, ""
        player.save(update_fields=["guest_club", "guest_club_name"])
        _bump_tournaments(player_id=player.pk)
    return len(moved)
