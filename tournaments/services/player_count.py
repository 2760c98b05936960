"""Any player count at the draw: what the rules allow when the checked-in players do not fill
the tournament's tables, each as one service the draw page calls with one click.

- **Tables of five** (:func:`allow_table_size` with 5): where the rule source has them
  (Schwärzehof, B&B family) the tournament simply allows them; for a Cego source played at
  four only (swm, Cego-Online) they are a tournament agreement (``five_table_agreement``): the
  pinned snapshot gets the table rule "the dealer sits out and pays or receives like a
  defender" (REFERENCE 2), so every deal, sheet and archive is scored with it.
- **Tables of three** (:func:`allow_table_size` with 3): only where the rule source scores
  three-hand Cego (swm has no three-hand tables [S]).
- **Fill-ins** (:func:`add_fill_ins`): active members of the host club who are not entered,
  registered checked in and marked ``Entry.fill_in`` (they play free and get no place).

:func:`draw_with` applies one of them and draws the round in one transaction: if the draw
still fails, nothing is changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player
from clubs.search import name_sort_key
from clubs.selectors import active_members
from tournaments import draw as seat_draw
from tournaments import seating
from tournaments.models import Entry, Round, Tournament, TournamentChange
from tournaments.services import changelog
from tournaments.services.draws import draw_next_round, eligible_entries
from tournaments.services.registration import entry_category
from tournaments.services.revision import bump_revision

FIVES = "fives"
THREES = "threes"
FILL_INS = "fill_ins"


def source_table_sizes(tournament: Tournament) -> frozenset[int]:
    """The table sizes the tournament's pinned rule source scores (with an agreed five)."""
    return frozenset(int(size) for size in (tournament.rules_snapshot.get("tables") or {}))


def possible_table_sizes(tournament: Tournament) -> frozenset[int]:
    """Sizes the tournament could allow: its source's, and five by agreement where possible."""
    sizes = set(source_table_sizes(tournament))
    if seating.five_table_agreement_possible(tournament.rules_snapshot):
        sizes.add(seating.AGREED_TABLE)
    return frozenset(size for size in sizes if 3 <= size <= 5)


def fill_in_candidates(*, tournament: Tournament) -> QuerySet[Player]:
    """Active members of the host club on the tournament's day who are not entered."""
    return active_members(club=tournament.host_club, on=tournament.date).exclude(
        entries__tournament=tournament
    )


@dataclass(frozen=True)
class CountOptions:
    """The draw page's message and offers for a round not yet drawn."""

    advice: seat_draw.CountAdvice
    fives: tuple[int, ...] | None  # the tables with fives allowed; None: not offered
    fives_by_agreement: bool
    threes: tuple[int, ...] | None
    fill_ins: int | None  # how many to pick; None: not offered
    candidates: list[Player]


def count_options(*, tournament: Tournament, round_number: int) -> CountOptions:
    players = eligible_entries(tournament=tournament, round_number=round_number).count()
    advice = seat_draw.advise_count(
        players=players,
        allowed_sizes=tournament.allowed_table_sizes,
        preferred_size=tournament.preferred_table_size,
        possible_sizes=possible_table_sizes(tournament),
    )
    candidates = list(fill_in_candidates(tournament=tournament)) if advice.fill_ins else []
    return CountOptions(
        advice=advice,
        fives=advice.with_size.get(5),
        fives_by_agreement=5 not in source_table_sizes(tournament),
        threes=advice.with_size.get(3),
        fill_ins=advice.fill_ins
        if advice.fill_ins and len(candidates) >= advice.fill_ins
        else None,
        candidates=candidates,
    )


def _locked(tournament: Tournament) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.finished_at is not None:
        raise ValidationError(_("The tournament is finished; its results are locked."))
    return locked


@transaction.atomic
def allow_table_size(*, tournament: Tournament, size: int, user: User | None = None) -> Tournament:
    """Allow tables of ``size`` (3 or 5) in the tournament, as its rule source permits; a table
    of five under a four-only Cego source becomes the tournament agreement. Logged."""
    locked = _locked(tournament)
    field = {3: "tables_of_3", 5: "tables_of_5"}.get(size)
    if field is None:
        raise ValidationError(_("Only tables of three or five can be added."))
    if getattr(locked, field):
        return locked
    before = {field: False}
    after = {field: True}
    if size in source_table_sizes(locked):
        subject = _("Tables of %(size)s allowed") % {"size": size}
    elif size == 5 and seating.five_table_agreement_possible(locked.rules_snapshot):
        locked.five_table_agreement = True
        locked.rules_snapshot = seating.with_five_table_agreement(locked.rules_snapshot)
        before["five_table_agreement"] = False
        after["five_table_agreement"] = True
        subject = _("Tournament agreement: table of five, the dealer sits out")
    elif size == 3:
        raise ValidationError(
            _("The rule source of this tournament does not score three-hand Cego.")
        )
    else:
        raise ValidationError(_("Tables of five cannot be agreed for this rule source."))
    setattr(locked, field, True)
    # Tournament.save bumps the revision: the sheets and the tariff card show the agreement.
    locked.save(update_fields=[field, "five_table_agreement", "rules_snapshot"])
    changelog.record(
        tournament_id=locked.pk,
        action=TournamentChange.Action.EDITED,
        user=user,
        subject=subject,
        before=before,
        after=after,
    )
    return locked


@transaction.atomic
def add_fill_ins(
    *, tournament: Tournament, players: Iterable[Player], user: User | None = None
) -> list[Entry]:
    """Register ``players`` (active members of the host club, not entered) as fill-ins:
    checked in, no fee, with the next start numbers. All or none."""
    locked = _locked(tournament)
    wanted = {player.pk for player in players}
    if not wanted:
        raise ValidationError(_("Choose the members who fill in."))
    allowed = {
        player.pk: player for player in fill_in_candidates(tournament=locked).filter(pk__in=wanted)
    }
    refused = wanted - allowed.keys()
    if refused:
        names = ", ".join(
            p.full_name for p in Player.objects.filter(pk__in=refused).order_by("sort_key", "pk")
        )
        raise ValidationError(
            ngettext(
                "Not an active member of the host club, or entered already: %(names)s.",
                "Not active members of the host club, or entered already: %(names)s.",
                len(refused),
            )
            % {"names": names}
        )
    new = sorted(allowed.values(), key=lambda p: (name_sort_key(p.first_name, p.last_name), p.pk))
    highest = locked.entries.aggregate(highest=Max("number"))["highest"] or 0
    entries = [
        Entry(
            tournament=locked,
            player=player,
            number=highest + index,
            category=entry_category(locked, player=player),
            checked_in=True,
            fill_in=True,
        )
        for index, player in enumerate(new, start=1)
    ]
    Entry.objects.bulk_create(entries)
    for entry in entries:
        changelog.record(
            tournament_id=locked.pk,
            action=TournamentChange.Action.REGISTERED,
            user=user,
            subject=_("%(number)s: %(name)s (fill-in)")
            % {"number": entry.number, "name": entry.player.full_name},
            after={"checked_in": True, "fill_in": True, "category": entry.category},
        )
    bump_revision(tournament_id=locked.pk)
    return entries


@transaction.atomic
def draw_with(
    *,
    tournament: Tournament,
    number: int,
    option: str,
    players: Iterable[Player] = (),
    user: User | None = None,
    while_previous_open: bool = False,
) -> Round:
    """Apply one option (``fives``, ``threes``, ``fill_ins`` with ``players``) and draw round
    ``number``; a draw that still fails rolls the option back too."""
    if option == FIVES:
        allow_table_size(tournament=tournament, size=5, user=user)
    elif option == THREES:
        allow_table_size(tournament=tournament, size=3, user=user)
    elif option == FILL_INS:
        add_fill_ins(tournament=tournament, players=players, user=user)
    else:
        raise ValidationError(_("This action is not possible now."))
    return draw_next_round(
        tournament=Tournament.objects.get(pk=tournament.pk),
        number=number,
        user=user,
        while_previous_open=while_previous_open,
    )
