"""The check-in desk: arrival, entry fee, withdrawals, late entries, keep-apart pairs and
substitutes at a table during a round.

Every function takes keyword-only arguments and runs in ``transaction.atomic``; the row it
changes is locked first (``select_for_update``) so that two desks working on the same list do
not overwrite each other. Problems are raised as ``ValidationError`` keyed by form field.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.models import Category, Club, Membership, Player
from clubs.permissions import MANAGE_CLUB, has_perm
from tournaments.models import (
    Entry,
    KeepApart,
    Round,
    Seat,
    Substitution,
    Tournament,
    TournamentChange,
)
from tournaments.services import changelog
from tournaments.services.revision import bump_revision
from tournaments.services.setup import register_player

Action = TournamentChange.Action


def _locked_entry(entry: Entry) -> Entry:
    return Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)


def _log_entry(entry: Entry, action: str, user: User | None, *, before=None, after=None) -> None:
    changelog.record(
        tournament_id=entry.tournament_id,
        action=action,
        user=user,
        subject=f"{entry.number}: {entry.player.full_name}",
        before=before,
        after=after,
    )


@transaction.atomic
def set_checked_in(*, entry: Entry, checked_in: bool, user: User | None = None) -> Entry:
    """Mark a player as arrived (or undo it). Only checked-in players are drawn."""
    locked = _locked_entry(entry)
    before = locked.checked_in
    locked.checked_in = checked_in
    locked.save(update_fields=["checked_in"])
    if before != checked_in:
        _log_entry(locked, Action.CHECKED_IN if checked_in else Action.CHECK_IN_UNDONE, user)
    bump_revision(tournament_id=locked.tournament_id)
    return locked


@transaction.atomic
def set_fee_paid(*, entry: Entry, paid: bool, user: User | None = None) -> Entry:
    """Record the entry fee as paid (or undo it). Refused for an entry that plays free
    (youth where the tournament says so): there is no fee to take."""
    locked = _locked_entry(entry)
    if paid and locked.plays_free:
        message = (
            _("%(name)s plays free (fill-in): there is no entry fee to take.")
            if locked.fill_in
            else _("%(name)s plays free (youth): there is no entry fee to take.")
        )
        raise ValidationError(message % {"name": locked.player.full_name})
    before = locked.fee_paid
    locked.fee_paid = paid
    locked.save(update_fields=["fee_paid"])
    if before != paid:
        _log_entry(locked, Action.FEE_PAID if paid else Action.FEE_UNDONE, user)
    bump_revision(tournament_id=locked.tournament_id)  # the prize list shows the money
    return locked


@transaction.atomic
def check_in_and_pay(*, entry: Entry, user: User | None = None) -> Entry:
    """The usual arrival at the desk in one step: present and the fee taken (one transaction,
    two log rows as if clicked one after the other). Refused, writing nothing, for an entry
    that plays free."""
    set_checked_in(entry=entry, checked_in=True, user=user)
    return set_fee_paid(entry=entry, paid=True, user=user)


@transaction.atomic
def withdraw_entry(*, entry: Entry, after_round: int, user: User | None = None) -> Entry:
    """The player leaves after round ``after_round`` (0 = before round 1).

    The player keeps the seats and results of rounds up to ``after_round`` and is not drawn in
    any later round. A round already drawn with the player in it must be redrawn, or the seat
    given to a substitute (:func:`substitute_player`); this is refused here to keep the seat
    plan honest.
    """
    locked = _locked_entry(entry)
    tournament = locked.tournament
    if not 0 <= after_round <= tournament.rounds:
        raise ValidationError(
            {
                "after_round": _("Choose a round between 0 and %(rounds)s.")
                % {"rounds": tournament.rounds}
            }
        )
    later_seat = (
        Seat.objects.filter(entry=locked, round__number__gt=after_round)
        .select_related("round")
        .order_by("round__number")
        .first()
    )
    if later_seat is not None:
        raise ValidationError(
            {
                "after_round": _(
                    "%(name)s is seated in round %(round)s already; redraw that round or "
                    "put in a substitute."
                )
                % {"name": locked.player.full_name, "round": later_seat.round.number}
            }
        )
    before = locked.withdrawn_after_round
    locked.withdrawn_after_round = after_round
    locked.save(update_fields=["withdrawn_after_round"])
    _log_entry(
        locked,
        Action.WITHDRAWN,
        user,
        before={"withdrawn_after_round": before},
        after={"withdrawn_after_round": after_round},
    )
    bump_revision(tournament_id=locked.tournament_id)
    return locked


@transaction.atomic
def undo_withdrawal(*, entry: Entry, user: User | None = None) -> Entry:
    """The player is back in the tournament from the next round drawn."""
    locked = _locked_entry(entry)
    before = locked.withdrawn_after_round
    if before is None:
        return locked
    locked.withdrawn_after_round = None
    locked.save(update_fields=["withdrawn_after_round"])
    _log_entry(
        locked,
        Action.WITHDRAWAL_UNDONE,
        user,
        before={"withdrawn_after_round": before},
        after={"withdrawn_after_round": None},
    )
    bump_revision(tournament_id=locked.tournament_id)
    return locked


@transaction.atomic
def register_new_player(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    category: str = Category.OPEN,
    club: Club | None = None,
    checked_in: bool = True,
    fee_paid: bool = False,
    user: User | None = None,
) -> Entry:
    """A late entry at the desk for somebody not yet in the player list: creates the player
    (and a club membership if a club is given) and registers them with the next start number.
    A player who turns up at the desk is checked in at once unless ``checked_in`` is False.

    A membership is the club's own business: ``user`` (when given) must be allowed to run
    ``club`` (``clubs.permissions``, ``MANAGE_CLUB``); otherwise nothing is written and the
    error names the field. A guest from another club is entered without a club."""
    if club is not None and user is not None and not has_perm(user, MANAGE_CLUB, club):
        raise ValidationError(
            {
                "club": _(
                    "You cannot add members to %(club)s. Leave the club blank for a guest; "
                    "their club adds them to its members."
                )
                % {"club": club.name}
            }
        )
    player = Player(first_name=first_name.strip(), last_name=last_name.strip(), category=category)
    player.full_clean()
    player.save()
    if club is not None:
        Membership.objects.create(player=player, club=club)
    return register_player(
        tournament=tournament, player=player, checked_in=checked_in, fee_paid=fee_paid, user=user
    )


@transaction.atomic
def register_existing_player(
    *,
    tournament: Tournament,
    player: Player,
    checked_in: bool = True,
    fee_paid: bool = False,
    user: User | None = None,
) -> Entry:
    """A late entry at the desk for a player already in the player list."""
    return register_player(
        tournament=tournament, player=player, checked_in=checked_in, fee_paid=fee_paid, user=user
    )


@transaction.atomic
def add_keep_apart(
    *,
    tournament: Tournament,
    first: Entry,
    second: Entry,
    reason: str = "",
    user: User | None = None,
) -> KeepApart:
    """Two entries the draw must not seat at one table; stored in id order, once."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if first.pk == second.pk:
        raise ValidationError({"second": _("Choose two different players.")})
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise ValidationError({"second": _("Both players must be registered here.")})
    low, high = sorted((first, second), key=lambda e: e.pk)
    if KeepApart.objects.filter(tournament=tournament, first=low, second=high).exists():
        raise ValidationError({"second": _("These two are kept apart already.")})
    pair = KeepApart.objects.create(
        tournament=tournament, first=low, second=high, reason=reason.strip()
    )
    changelog.record(
        tournament_id=tournament.pk,
        action=Action.KEEP_APART_ADDED,
        user=user,
        subject=_pair_text(pair),
        after={"first": low.number, "second": high.number},
        reason=reason,
    )
    return pair


def _pair_text(pair: KeepApart) -> str:
    return f"{pair.first.player.full_name} / {pair.second.player.full_name}"


@transaction.atomic
def remove_keep_apart(*, pair: KeepApart, user: User | None = None) -> None:
    Tournament.objects.select_for_update().get(pk=pair.tournament_id)
    locked = (
        KeepApart.objects.select_related("first__player", "second__player")
        .filter(pk=pair.pk)
        .first()
    )
    if locked is None:
        return  # removed meanwhile
    pair = locked
    changelog.record(
        tournament_id=pair.tournament_id,
        action=Action.KEEP_APART_REMOVED,
        user=user,
        subject=_pair_text(pair),
        before={"first": pair.first.number, "second": pair.second.number, "reason": pair.reason},
    )
    KeepApart.objects.filter(pk=pair.pk).delete()


def seat_occupant(*, seat: Seat, deal_number: int) -> Entry:
    """Who sits in ``seat`` at deal ``deal_number``: the latest substitute from that deal or
    earlier, else the drawn player."""
    substitution = (
        Substitution.objects.filter(seat=seat, from_deal__lte=deal_number)
        .select_related("entry__player")
        .order_by("-from_deal")
        .first()
    )
    return substitution.entry if substitution is not None else seat.entry


@transaction.atomic
def substitute_player(
    *,
    seat: Seat,
    entry: Entry,
    from_deal: int,
    reason: str,
    user: User | None = None,
) -> Substitution:
    """``entry`` takes over ``seat`` from deal ``from_deal`` on (to the end of the round or the
    next substitution of that seat). The deals scored so far stay with whoever sat there.

    Refused when the round is closed, the table voided, ``from_deal`` is outside
    1..deals_per_round, the seat already has a substitution from that deal, the replacement is
    registered in another tournament, or the replacement already has a place in this round
    (drawn at another seat, or substituting at another seat). The seat's own drawn player may
    come back (a substitution back to them).
    """
    # Lock the round first: a redraw or swap (which lock it too) cannot remove the seat meanwhile.
    Round.objects.select_for_update().get(pk=seat.round_id)
    seat = (
        Seat.objects.select_for_update()
        .select_related("round__tournament", "table", "entry__player")
        .get(pk=seat.pk)
    )
    round_ = seat.round
    tournament = round_.tournament
    if round_.state == Round.State.CLOSED:
        raise ValidationError(_("Round %(number)s is closed.") % {"number": round_.number})
    if seat.table.voided:
        raise ValidationError(_("This table was voided."))
    if not 1 <= from_deal <= tournament.deals_per_round:
        raise ValidationError(
            {
                "from_deal": _("The deal number must be between 1 and %(limit)s.")
                % {"limit": tournament.deals_per_round}
            }
        )
    if entry.tournament_id != tournament.pk:
        raise ValidationError({"entry": _("The replacement must be registered here.")})
    if entry.pk != seat.entry_id:
        elsewhere = Seat.objects.filter(round=round_, entry=entry).exists()
        subbing = (
            Substitution.objects.filter(seat__round=round_, entry=entry).exclude(seat=seat).exists()
        )
        if elsewhere or subbing:
            raise ValidationError(
                {
                    "entry": _("%(name)s already has a place in round %(round)s.")
                    % {"name": entry.player.full_name, "round": round_.number}
                }
            )
    if Substitution.objects.filter(seat=seat, from_deal=from_deal).exists():
        raise ValidationError(
            {"from_deal": _("This seat already has a substitution from that deal.")}
        )
    current = seat_occupant(seat=seat, deal_number=from_deal)
    if current.pk == entry.pk:
        raise ValidationError(
            {"entry": _("%(name)s sits there already.") % {"name": entry.player.full_name}}
        )
    substitution = Substitution.objects.create(
        seat=seat, entry=entry, from_deal=from_deal, reason=reason.strip()
    )
    changelog.record(
        tournament_id=tournament.pk,
        action=Action.SUBSTITUTED,
        user=user,
        subject=_("Round %(round)s, table %(table)s, seat %(seat)s")
        % {"round": round_.number, "table": seat.table.number, "seat": seat.position + 1},
        before={"player": current.number, "name": current.player.full_name},
        after={"player": entry.number, "name": entry.player.full_name, "from_deal": from_deal},
        reason=reason,
    )
    bump_revision(tournament_id=tournament.pk)
    return substitution


def next_start_number(*, tournament: Tournament) -> int:
    return (tournament.entries.aggregate(highest=Max("number"))["highest"] or 0) + 1


def search_players(*, tournament: Tournament, query: str, limit: int = 20):
    """Players matching a name, not yet registered in ``tournament`` (for late entries);
    spelling-tolerant like the registry ("Mueller" finds "Müller")."""
    from clubs.selectors import search_players as registry_search

    if not query.strip():
        return Player.objects.none()
    return (
        registry_search(query=query)
        .exclude(entries__tournament=tournament)
        .prefetch_related("clubs")[:limit]
    )


@transaction.atomic
def set_stays_at_table(*, entry: Entry, stays: bool, user: User | None = None) -> Entry:
    """Mark a player who keeps one table all day ("bleibt am Tisch"; Cego fields run to
    players who cannot move easily), or undo it. The next round drawn seats them at the table
    they sat at in their latest round (``tournaments.draw.place_fixed_tables``); a round
    already drawn keeps its seats."""
    locked = _locked_entry(entry)
    if locked.stays_at_table == stays:
        return locked
    locked.stays_at_table = stays
    locked.save(update_fields=["stays_at_table"])
    _log_entry(locked, Action.STAYS_AT_TABLE if stays else Action.MAY_MOVE, user)
    bump_revision(tournament_id=locked.tournament_id)  # the seat plan and table cards show it
    return locked
