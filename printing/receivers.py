"""The printing room's answers to the tournament day's signals (``tournaments.signals``)."""

from __future__ import annotations

from django.dispatch import receiver

from printing import printouts
from tournaments.signals import printouts_ahead, round_seating_changed
from venue.signals import serving_started


@receiver(round_seating_changed, dispatch_uid="printing.round_seating_changed")
def prerender_round(sender, *, tournament, round_number: int, base_url: str, **kwargs) -> None:
    """Render the round's sheets, seat plan and table cards while the organiser looks at the
    draw (once the transaction commits)."""
    printouts.prerender_round(tournament=tournament, round_number=round_number, base_url=base_url)


@receiver(printouts_ahead, dispatch_uid="printing.printouts_ahead")
def warm_up(sender, **kwargs) -> None:
    """Start the PDF workers and read the sheets' fonts before the draw is made."""
    printouts.warm_up()


@receiver(serving_started, dispatch_uid="printing.serving_started")
def fonts_at_start(sender, **kwargs) -> None:
    """The venue server about to answer: the fonts read now (some 60 ms, before the first
    answer), so that the first printout of the day does not wait for them, nor share the
    processor with a thread still reading them."""
    printouts.read_fonts()
