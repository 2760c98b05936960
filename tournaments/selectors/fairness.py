"""Reads of the fairness records (``tournaments.services.fairness``): the swaps of drawn
seats (waiting, decided, approved) and the referees' rulings. One query each."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Ruling, SeatSwap, Tournament


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


def day_rulings(*, tournament: Tournament) -> list[Ruling]:
    """Every ruling of the tournament: the pending ones first (oldest first), then the final
    ones (the latest first)."""
    rulings = list(Ruling.objects.filter(tournament=tournament))
    pending = sorted((r for r in rulings if not r.is_final), key=lambda r: (r.first_at, r.pk))
    final = sorted(
        (r for r in rulings if r.is_final), key=lambda r: (r.decided_at, r.pk), reverse=True
    )
    return pending + final


@dataclass(frozen=True)
class PublicRuling:
    """A final ruling as the public page shows it: never the call's reason, only the
    decision, where, the penalty and the referees."""

    round_number: int | None
    table_number: int | None
    deal_number: int | None
    conduct: bool
    decision: str
    penalty: str
    referees: tuple[str, ...]


def public_rulings(*, tournament: Tournament) -> tuple[PublicRuling, ...]:
    """The final rulings, in the order they came to count."""
    return tuple(
        PublicRuling(
            round_number=ruling.round_number,
            table_number=ruling.table_number,
            deal_number=ruling.deal_number,
            conduct=ruling.conduct,
            decision=ruling.decision,
            penalty=ruling.penalty,
            referees=tuple(name for name in (ruling.first_name, ruling.second_name) if name),
        )
        for ruling in Ruling.objects.filter(tournament=tournament, decided_at__isnull=False)
        .order_by("decided_at", "pk")
        .only(
            "round_number",
            "table_number",
            "deal_number",
            "conduct",
            "decision",
            "penalty",
            "first_name",
            "second_name",
        )
    )
