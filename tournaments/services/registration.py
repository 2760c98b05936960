"""Pre-registration before the tournament day: many players at once.

Registered here means on the list, not arrived: the entries are not checked in and the fee
is not taken; the check-in desk (``tournaments.services.checkin``) does that at the door.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.categories import season_category
from clubs.models import Player
from clubs.permissions import held_in_hall
from clubs.search import name_sort_key
from tournaments.models import Entry, HallRegistration, Round, Seat, Substitution, Tournament
from tournaments.services.revision import bump_revision


def entry_category(tournament: Tournament, *, player: Player) -> str:
    """The player's category in this tournament: by birth year where its season has a youth
    cut-off (``Season.youth_born_from``), else the registry's category."""
    season = tournament.season
    return season_category(
        category=player.category,
        birth_year=player.birth_year,
        youth_born_from=season.youth_born_from if season is not None else None,
    )


@dataclass(frozen=True)
class BulkResult:
    registered: list[Entry]
    already: int  # players who were on the list before
    for_the_hall: int = 0  # kept for the venue laptop that holds the tournament


def _register_for_the_hall(
    *, tournament: Tournament, wanted: dict[int, Player], user: User | None
) -> BulkResult:
    """A tournament a venue laptop fetched (``clubs.permissions.held_in_hall``): the players
    are kept as ``HallRegistration`` rows, which the laptop takes while it is online and no
    round is drawn; once a round is drawn (the laptop sent it), check-in is closed."""
    if Round.objects.filter(tournament=tournament).exists():
        raise ValidationError(
            _(
                "%(tournament)s is under way in the hall (a round is drawn): register at the "
                "check-in desk there."
            )
            % {"tournament": tournament.name}
        )
    # A player taken back before (a cancelled online sign-up) and registered again: a new
    # row, so the laptop, which takes rows after the last id it took, sees it.
    withdrawn = HallRegistration.objects.filter(
        tournament=tournament, player_id__in=wanted, withdrawn_at__isnull=False
    )
    again = set(withdrawn.values_list("player_id", flat=True))
    withdrawn.delete()
    present = (
        set(
            Entry.objects.filter(tournament=tournament, player_id__in=wanted).values_list(
                "player_id", flat=True
            )
        )
        - again
    ) | set(
        HallRegistration.objects.filter(tournament=tournament, player_id__in=wanted).values_list(
            "player_id", flat=True
        )
    )
    rows = [
        HallRegistration(tournament=tournament, player=player, registered_by=user)
        for pk, player in wanted.items()
        if pk not in present
    ]
    HallRegistration.objects.bulk_create(rows)
    return BulkResult(registered=[], already=len(present), for_the_hall=len(rows))


@transaction.atomic
def register_players(
    *,
    tournament: Tournament,
    players: Iterable[Player],
    user: User | None = None,
) -> BulkResult:
    """Put every player in ``players`` on the tournament's list (not checked in, fee not
    taken), with the next free start numbers in name order; players on the list already are
    skipped. One lock on the tournament, one insert: a constant number of queries. A
    tournament a venue laptop holds keeps them for the laptop instead (``for_the_hall``);
    ``ValidationError`` once a round is drawn there."""
    locked = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("season")
        .get(pk=tournament.pk)
    )
    wanted = {player.pk: player for player in players}
    if held_in_hall(locked):
        return _register_for_the_hall(
            tournament=locked, wanted=wanted, user=user if getattr(user, "pk", None) else None
        )
    present = set(
        Entry.objects.filter(tournament=locked, player_id__in=wanted).values_list(
            "player_id", flat=True
        )
    )
    new = sorted(
        (p for pk, p in wanted.items() if pk not in present),
        key=lambda p: (name_sort_key(p.first_name, p.last_name), p.pk),
    )
    highest = locked.entries.aggregate(highest=Max("number"))["highest"] or 0
    entries = [
        Entry(
            tournament=locked,
            player=player,
            number=highest + index,
            category=entry_category(locked, player=player),
        )
        for index, player in enumerate(new, start=1)
    ]
    Entry.objects.bulk_create(entries)
    bump_revision(tournament_id=locked.pk)
    return BulkResult(registered=entries, already=len(present))


@transaction.atomic
def unregister(*, entry: Entry, user: User | None = None) -> None:
    """Take a pre-registered player off the list. Refused once the player has checked in,
    paid or been seated: then the check-in desk's withdrawal is the honest record."""
    locked = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    name = locked.player.full_name
    if locked.checked_in or locked.fee_paid:
        raise ValidationError(
            _("%(name)s has checked in or paid already: withdraw at the check-in desk instead.")
            % {"name": name}
        )
    if (
        Seat.objects.filter(entry=locked).exists()
        or Substitution.objects.filter(entry=locked).exists()
        or locked.paper_total is not None
    ):
        raise ValidationError(
            _("%(name)s has a seat or a result: withdraw at the check-in desk instead.")
            % {"name": name}
        )
    locked.delete()
    bump_revision(tournament_id=locked.tournament_id)


@transaction.atomic
def withdraw_for_the_hall(
    *, tournament: Tournament, player: Player, user: User | None = None
) -> None:
    """On the season server, for a tournament a venue laptop holds: take ``player``'s
    registration back (an online sign-up cancelled). The row is marked withdrawn (made for
    an entry that went to the hall with the tournament); the laptop, while it asks for
    registrations (no round drawn), removes the entry if the player has not checked in or
    paid (``publishing.laptop.fetching``), and its next batch takes the entry off here."""
    locked = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
    if Round.objects.filter(tournament=locked).exists():
        raise ValidationError(
            _(
                "%(tournament)s is under way in the hall (a round is drawn): withdraw at the "
                "check-in desk there."
            )
            % {"tournament": locked.name}
        )
    row, _created = HallRegistration.objects.get_or_create(
        tournament=locked,
        player=player,
        defaults={"registered_by": user if getattr(user, "pk", None) else None},
    )
    if row.withdrawn_at is None:
        row.withdrawn_at = timezone.now()
        row.save(update_fields=["withdrawn_at"])
