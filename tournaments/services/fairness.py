"""Fairness that paper cannot prove: swaps of drawn seats need two officials; referees'
rulings are written, signed and public.

**The drawn seat belongs to the player.** After the draw, two players swap seats (or tables)
only as an exception that two officials of the tournament approve
(``clubs.permissions.is_official``: the host club's organisers, the tournament's referees).
One official asks for it with a reason (``request_swap``: the swap waits, "Platztausch
beantragt", and nothing changes); a second, different official approves it
(``approve_swap``), and only then are the seats changed; another official may refuse it, the
one who asked may withdraw it (``decline_swap``). Every step is a row of the tournament's log;
an approved swap is public (the standings page: tables, players, who asked and who approved;
its reason only for the tournament's officials) and travels in the archive.

Each official signs with their own login: on their own phone or laptop, or at the desk's
laptop by typing their user name and password into the approval form, checked like a login
(``django.contrib.auth.authenticate``, throttled by django-axes) without changing who is
logged in there (the form layer: ``tournaments.forms.fairness``). A service only ever sees the
user who signs.

**Rulings.** A table's call for the referee is closed by a ruling (``record_ruling`` with
the call): the deal (optional: a call about conduct has none), the decision in words, the
penalty that follows, if any, in words (a penalty the rule source scores is still entered as
the deal's penalty, ``services.phone_entry``), signed by the referee. A referee may also open a
ruling about conduct without a call (``record_ruling`` without one). Where the tournament
wants two referees (``Tournament.two_referee_rulings``) a ruling is pending until a second,
different official confirms it (``confirm_ruling``, at their own login or with their password
as above). Final rulings are public (the standings page: decision, round, table, deal,
referees; never the call's reason) and travel in the archive. The call's closing is the
ruling's log row (``referee_call_closed``, its reason the decision); a ruling without a call
is ``ruling_recorded``; the second signature ``ruling_confirmed``.

Every change: one transaction; a swap's round row locked first, then the swap's row; a
ruling's tournament row first, then its call or the ruling.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.permissions import is_official
from tournaments.models import (
    FAIRNESS_TEXT_LENGTH,
    PENALTY_LENGTH,
    Entry,
    RefereeCall,
    Round,
    Ruling,
    Seat,
    SeatSwap,
    Table,
    Tournament,
    TournamentChange,
)
from tournaments.services import changelog
from tournaments.services.draws import check_changeable
from tournaments.services.revision import bump_revision


def signature_name(user: Any) -> str:
    """How a signature is shown on the pages and in the archive: the user's full name, else
    the user name."""
    if user is None:
        return ""
    return (user.get_full_name() or "").strip() or user.get_username()


def _signed(user: User | None) -> User:
    """``user`` if they may sign at all (signed in); else a German refusal."""
    if user is None or not user.is_authenticated:
        raise ValidationError(
            _("Only a signed-in official of this tournament can sign this."), code="not_official"
        )
    return user


def _official(user: User | None, tournament: Tournament) -> User:
    user = _signed(user)
    if not is_official(user, tournament):
        raise ValidationError(
            _(
                "%(name)s is not an official of this tournament: only its organisers and "
                "referees can sign this."
            )
            % {"name": signature_name(user)},
            code="not_official",
        )
    return user


def _text(value: str, field: str, *, required: str) -> str:
    value = " ".join((value or "").split())
    if not value:
        raise ValidationError({field: required})
    if len(value) > FAIRNESS_TEXT_LENGTH:
        raise ValidationError(
            {
                field: _("Please say it in at most %(count)s characters.")
                % {"count": FAIRNESS_TEXT_LENGTH}
            }
        )
    return value


def _where(table: int, position: int) -> list[int]:
    """A seat as the log keeps it: [table, seat from 1]."""
    return [table, position + 1]


def swap_words(swap: SeatSwap) -> str:
    """ "Round 2: table 3, seat 1 ↔ table 7, seat 4 (Anna Muster ↔ Bernd Koch)"."""
    return _(
        "Round %(round)s: table %(first_table)s, seat %(first_seat)s ↔ table "
        "%(second_table)s, seat %(second_seat)s (%(first)s ↔ %(second)s)"
    ) % {
        "round": swap.round.number,
        "first_table": swap.first_table,
        "first_seat": swap.first_position + 1,
        "second_table": swap.second_table,
        "second_seat": swap.second_position + 1,
        "first": swap.first.player.full_name,
        "second": swap.second.player.full_name,
    }


def _locked_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)


def _locked_swap(swap: SeatSwap) -> tuple[Round, SeatSwap]:
    """The swap's round, then the swap, each locked (always in that order)."""
    round_ = _locked_round(Round(pk=swap.round_id))
    locked = (
        SeatSwap.objects.select_for_update(of=("self",))
        .select_related("first__player", "second__player", "round")
        .get(pk=swap.pk)
    )
    return round_, locked


def _seats_of(round_: Round, entries: list[Entry]) -> dict[int, tuple[Seat, int]]:
    """Each entry's seat in ``round_`` with its table's number (1 query)."""
    return {
        seat.entry_id: (seat, seat.table.number)
        for seat in Seat.objects.filter(
            round=round_, entry_id__in=[e.pk for e in entries]
        ).select_related("table")
    }


@transaction.atomic
def request_swap(
    *,
    round: Round,  # noqa: A002 - the model's name
    first: Entry,
    second: Entry,
    reason: str,
    user: User | None,
) -> SeatSwap:
    """Ask for two players of ``round`` to swap their seats: the request waits for a second
    official and changes no seat. Refused with a German message, changing nothing, for
    someone who is no official, the same player twice, a player not seated in the round, a
    round whose seats can no longer change (``draws.check_changeable``), a player already in
    a waiting request of the round, or no reason."""
    round_ = _locked_round(round)
    tournament = round_.tournament
    user = _official(user, tournament)
    if first.pk == second.pk:
        raise ValidationError({"second": _("Choose two different players.")})
    check_changeable(round_)
    reason = _text(
        reason,
        "reason",
        required=_("Say why the drawn seats should change: two officials decide on it."),
    )
    seats = _seats_of(round_, [first, second])
    for name, entry in (("first", first), ("second", second)):
        if entry.pk not in seats:
            raise ValidationError(
                {
                    name: _("This player is not seated in round %(number)s.")
                    % {"number": round_.number}
                }
            )
    both = [first.pk, second.pk]
    if (
        SeatSwap.objects.filter(round=round_, state=SeatSwap.State.REQUESTED)
        .filter(Q(first_id__in=both) | Q(second_id__in=both))
        .exists()
    ):
        raise ValidationError(
            _(
                "A swap of one of these players waits for approval already: approve, refuse "
                "or withdraw it first."
            ),
            code="waiting",
        )
    (a, a_table), (b, b_table) = seats[first.pk], seats[second.pk]
    swap = SeatSwap.objects.create(
        tournament=tournament,
        round=round_,
        first=first,
        second=second,
        first_table=a_table,
        first_position=a.position,
        second_table=b_table,
        second_position=b.position,
        reason=reason,
        requested_by=user,
        requested_name=signature_name(user),
    )
    swap.round = round_
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.SWAP_REQUESTED,
        user=user,
        subject=swap_words(swap),
        reason=reason,
        after={
            str(first.number): _where(a_table, a.position),
            str(second.number): _where(b_table, b.position),
        },
    )
    return swap


def _still_decidable(swap: SeatSwap) -> None:
    if swap.state != SeatSwap.State.REQUESTED:
        raise ValidationError(
            _("This swap was %(state)s already by %(who)s at %(time)s.")
            % {
                "state": swap.get_state_display(),
                "who": swap.decided_name or "–",
                "time": date_format(timezone.localtime(swap.decided_at), "TIME_FORMAT"),
            },
            code="decided",
        )


def _swap_seats(round_: Round, a: Seat, b: Seat) -> None:
    """Give ``a``'s player ``b``'s seat and the other way round."""
    # Both unique constraints (table+position, round+entry) would clash mid-swap: write anew.
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table_id=a.table_id, round=round_, position=a.position, entry_id=b.entry_id),
            Seat(table_id=b.table_id, round=round_, position=b.position, entry_id=a.entry_id),
        ]
    )


@transaction.atomic
def approve_swap(*, swap: SeatSwap, user: User | None, at_login_of: User | None = None) -> SeatSwap:
    """The second official's approval: the two players' seats are swapped now. ``user`` is
    who signs; ``at_login_of`` the login of the device they typed their password at, where
    that was another's (the log says so). Refused with a German message, changing nothing,
    for someone who is no official, the official who asked for it, a swap decided already,
    a round whose seats can no longer change, or seats that changed since the request (a
    redraw: refuse it and ask again)."""
    round_, locked = _locked_swap(swap)
    tournament = round_.tournament
    user = _official(user, tournament)
    _still_decidable(locked)
    if locked.requested_by_id == user.pk:
        raise ValidationError(
            _(
                "%(name)s asked for this swap: a second, different official must approve it "
                "(on their own device, or with their user name and password here)."
            )
            % {"name": signature_name(user)},
            code="same_official",
        )
    check_changeable(round_)
    seats = _seats_of(round_, [locked.first, locked.second])
    now_at = {
        entry_id: (table_number, seat.position) for entry_id, (seat, table_number) in seats.items()
    }
    asked = {
        locked.first_id: (locked.first_table, locked.first_position),
        locked.second_id: (locked.second_table, locked.second_position),
    }
    if now_at != asked:
        raise ValidationError(
            _(
                "The seats have changed since this swap was requested (a new draw?): refuse "
                "or withdraw it and ask again."
            ),
            code="moved",
        )
    a, b = seats[locked.first_id][0], seats[locked.second_id][0]
    _swap_seats(round_, a, b)
    locked.state = SeatSwap.State.APPROVED
    locked.decided_at = timezone.now()
    locked.decided_by = user
    locked.decided_name = signature_name(user)
    locked.save(update_fields=["state", "decided_at", "decided_by", "decided_name"])
    after: dict[str, Any] = {
        str(locked.first.number): _where(locked.second_table, locked.second_position),
        str(locked.second.number): _where(locked.first_table, locked.first_position),
        "requested_by": locked.requested_name,
        "approved_by": locked.decided_name,
    }
    if at_login_of is not None and at_login_of.pk != user.pk:
        after["signed_at_login_of"] = at_login_of.get_username()
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.SWAPPED,
        user=user,
        subject=swap_words(locked),
        reason=locked.reason,
        before={
            str(locked.first.number): _where(locked.first_table, locked.first_position),
            str(locked.second.number): _where(locked.second_table, locked.second_position),
        },
        after=after,
    )
    bump_revision(tournament_id=tournament.pk)
    return locked


@transaction.atomic
def decline_swap(*, swap: SeatSwap, user: User | None, note: str = "") -> SeatSwap:
    """Refuse a waiting swap (another official) or withdraw it (the official who asked):
    no seat changes, the log keeps it. Refused with a German message for someone who is no
    official or a swap decided already."""
    round_, locked = _locked_swap(swap)
    user = _official(user, round_.tournament)
    _still_decidable(locked)
    note = " ".join((note or "").split())[:FAIRNESS_TEXT_LENGTH]
    withdrawn = locked.requested_by_id == user.pk
    locked.state = SeatSwap.State.WITHDRAWN if withdrawn else SeatSwap.State.REFUSED
    locked.decided_at = timezone.now()
    locked.decided_by = user
    locked.decided_name = signature_name(user)
    locked.note = note
    locked.save(update_fields=["state", "decided_at", "decided_by", "decided_name", "note"])
    changelog.record(
        tournament_id=round_.tournament_id,
        action=(
            TournamentChange.Action.SWAP_WITHDRAWN
            if withdrawn
            else TournamentChange.Action.SWAP_REFUSED
        ),
        user=user,
        subject=swap_words(locked),
        reason=note or locked.reason,
    )
    return locked


# --- rulings -------------------------------------------------------------------------------


def ruling_place(ruling: Ruling) -> str:
    """ "Round 2, table 3, deal 7" (as much as the ruling names; "Tournament" for none)."""
    parts = []
    if ruling.round_number is not None:
        parts.append(_("Round %(round)s") % {"round": ruling.round_number})
    if ruling.table_number is not None:
        parts.append(_("table %(table)s") % {"table": ruling.table_number})
    if ruling.deal_number is not None:
        parts.append(_("deal %(deal)s") % {"deal": ruling.deal_number})
    return ", ".join(parts) or _("Tournament")


def _penalty(value: str) -> str:
    value = " ".join((value or "").split())
    if len(value) > PENALTY_LENGTH:
        raise ValidationError(
            {
                "penalty": _("Please say the penalty in at most %(count)s characters.")
                % {"count": PENALTY_LENGTH}
            }
        )
    return value


def _deal_in_range(tournament: Tournament, deal_number: int | None) -> None:
    if deal_number is not None and not 1 <= deal_number <= tournament.deals_per_round:
        raise ValidationError(
            {
                "deal": _("The round has deals 1 to %(deals)s.")
                % {"deals": tournament.deals_per_round}
            }
        )


def _place_without_call(
    tournament: Tournament,
    round_number: int | None,
    table_number: int | None,
    deal_number: int | None,
) -> None:
    """A ruling without a call names a round that is drawn, a table of it, a deal there."""
    if table_number is not None and round_number is None:
        raise ValidationError({"round": _("Name the round of the table.")})
    if deal_number is not None and table_number is None:
        raise ValidationError({"table": _("Name the table of the deal.")})
    if round_number is not None and not tournament.round_set.filter(number=round_number).exists():
        raise ValidationError(
            {"round": _("Round %(number)s is not drawn.") % {"number": round_number}}
        )
    if (
        table_number is not None
        and round_number is not None  # said above: a table names its round
        and not Table.objects.filter(
            round__tournament=tournament, round__number=round_number, number=table_number
        ).exists()
    ):
        raise ValidationError(
            {
                "table": _("Round %(round)s has no table %(table)s.")
                % {"round": round_number, "table": table_number}
            }
        )
    _deal_in_range(tournament, deal_number)


def _ruling_after(ruling: Ruling) -> dict[str, Any]:
    return {
        "deal": ruling.deal_number,
        "conduct": ruling.conduct,
        "penalty": ruling.penalty or None,
        "pending": not ruling.is_final,
    }


@transaction.atomic
def record_ruling(
    *,
    tournament: Tournament,
    decision: str,
    user: User | None,
    call: RefereeCall | None = None,
    deal_number: int | None = None,
    conduct: bool = False,
    penalty: str = "",
    round_number: int | None = None,
    table_number: int | None = None,
) -> Ruling:
    """A referee's ruling, signed by ``user``. With ``call``: it closes the call (its table
    and round; ``deal_number`` as the referee says, the form offers the call's). Without: a ruling about conduct,
    naming a round, table and deal where there are any. Final at once, or (the tournament's
    ``two_referee_rulings``) pending until a second official confirms it. Refused with a
    German message, changing nothing, for someone who is no official, no decision, a call
    closed already, a place the tournament does not have, or words too long."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    user = _official(user, locked)
    decision = _text(
        decision,
        "decision",
        required=_("Write the decision in words: it is shown with the ruling."),
    )
    penalty = _penalty(penalty)
    before: dict[str, Any] | None = None
    if call is not None:
        call = (
            RefereeCall.objects.select_for_update(of=("self",))
            .select_related("table__round")
            .get(pk=call.pk, tournament=locked)
        )
        if call.closed_at is not None:
            raise ValidationError(
                _("This call was closed already at %(time)s %(who)s.")
                % {
                    "time": date_format(timezone.localtime(call.closed_at), "TIME_FORMAT"),
                    "who": call.closed_by.get_username() if call.closed_by else "",
                },
                code="closed",
            )
        _deal_in_range(locked, deal_number)
        round_number, table_number = call.table.round.number, call.table.number
        before = {
            "called_at": date_format(timezone.localtime(call.called_at), "TIME_FORMAT"),
            "deal": call.deal_number,
            "reason": call.reason,
        }
    else:
        conduct = True  # without a table's call: a ruling about conduct
        _place_without_call(locked, round_number, table_number, deal_number)
    now = timezone.now()
    ruling = Ruling.objects.create(
        tournament=locked,
        call=call,
        round_number=round_number,
        table_number=table_number,
        deal_number=deal_number,
        conduct=conduct,
        decision=decision,
        penalty=penalty,
        needs_two=locked.two_referee_rulings,
        first_at=now,
        first_by=user,
        first_name=signature_name(user),
        decided_at=None if locked.two_referee_rulings else now,
    )
    if call is not None:
        call.closed_at, call.closed_by, call.note = now, user, decision
        call.save(update_fields=["closed_at", "closed_by", "note"])
        Table.objects.filter(pk=call.table_id).update(referee_called_at=None)
    changelog.record(
        tournament_id=locked.pk,
        action=(
            TournamentChange.Action.REFEREE_CALL_CLOSED
            if call is not None
            else TournamentChange.Action.RULING_RECORDED
        ),
        user=user,
        subject=ruling_place(ruling),
        before=before,
        after=_ruling_after(ruling),
        reason=decision,
    )
    if ruling.is_final:
        bump_revision(tournament_id=locked.pk)  # the public page lists it
    return ruling


@transaction.atomic
def confirm_ruling(*, ruling: Ruling, user: User | None, at_login_of: User | None = None) -> Ruling:
    """The second referee's signature on a pending ruling: it is final now (public, in the
    archive). Refused with a German message, changing nothing, for someone who is no
    official, the referee who signed it first, or a ruling that needs no second signature or
    has it already."""
    locked_tournament = Tournament.objects.select_for_update().get(pk=ruling.tournament_id)
    locked = Ruling.objects.select_for_update().get(pk=ruling.pk)
    user = _official(user, locked_tournament)
    if locked.is_final:
        raise ValidationError(
            _("This ruling counts already (signed by %(names)s).")
            % {"names": " / ".join(n for n in (locked.first_name, locked.second_name) if n)},
            code="final",
        )
    if locked.first_by_id == user.pk:
        raise ValidationError(
            _(
                "%(name)s signed this ruling: a second, different referee or organiser must "
                "confirm it (on their own device, or with their user name and password here)."
            )
            % {"name": signature_name(user)},
            code="same_official",
        )
    now = timezone.now()
    locked.second_at, locked.second_by, locked.second_name = now, user, signature_name(user)
    locked.decided_at = now
    locked.save(update_fields=["second_at", "second_by", "second_name", "decided_at"])
    after: dict[str, Any] = {"first_by": locked.first_name, "second_by": locked.second_name}
    if at_login_of is not None and at_login_of.pk != user.pk:
        after["signed_at_login_of"] = at_login_of.get_username()
    changelog.record(
        tournament_id=locked.tournament_id,
        action=TournamentChange.Action.RULING_CONFIRMED,
        user=user,
        subject=ruling_place(locked),
        after=after,
        reason=locked.decision,
    )
    bump_revision(tournament_id=locked.tournament_id)
    return locked
