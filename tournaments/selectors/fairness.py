"""Reads of the fairness records (``tournaments.services.fairness``): the swaps of drawn
seats (waiting, decided, approved) and the referees' rulings. One query each."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import SeatSwap, Tournament


def _swaps(tournament: Tournament):
    return SeatSwap.objects.filter(tournament=tournament).select_related(
        "round", "first__player", "second__player"
    )


def waiting_swaps(*, tournament: Tournament) -> list[SeatSwap]:
    """The swaps asked for and not decided yet, the oldest first."""
    return list(
        _swaps(tournament).filter(state=SeatSwap.State.REQUESTED).order_by("requested_at", "pk")
    )


def decided_swaps(*, tournament: Tournament) -> list[SeatSwap]:
    """The swaps approved, refused or withdrawn, the latest first."""
    return list(
        _swaps(tournament).exclude(state=SeatSwap.State.REQUESTED).order_by("-decided_at", "-pk")
    )


@dataclass(frozen=True)
class PublicSwap:
    """An approved swap as the public page shows it (cached with the tournament's revision;
    the reason is shown only to the tournament's officials)."""

    round_number: int
    first_table: int
    first_seat: int  # from 1
    second_table: int
    second_seat: int
    first_name: str
    second_name: str
    requested_by: str
    approved_by: str
    approved_at: object
    reason: str


def approved_swaps(*, tournament: Tournament) -> tuple[PublicSwap, ...]:
    """The approved swaps, by round, then in the order they were approved."""
    return tuple(
        PublicSwap(
            round_number=swap.round.number,
            first_table=swap.first_table,
            first_seat=swap.first_position + 1,
            second_table=swap.second_table,
            second_seat=swap.second_position + 1,
            first_name=swap.first.player.full_name,
            second_name=swap.second.player.full_name,
            requested_by=swap.requested_name,
            approved_by=swap.decided_name,
            approved_at=swap.decided_at,
            reason=swap.reason,
        )
        for swap in _swaps(tournament)
        .filter(state=SeatSwap.State.APPROVED)
        .order_by("round__number", "decided_at", "pk")
    )
