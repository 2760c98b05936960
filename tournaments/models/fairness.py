"""Fairness: seat swaps two officials approve, and the referees' rulings."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models.hall import RefereeCall
from tournaments.models.players import Entry
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament

# A swap's reason and a ruling's words: a sentence or two, as said in the hall.
FAIRNESS_TEXT_LENGTH = 500
PENALTY_LENGTH = 200


class SeatSwap(models.Model):
    """Two players of a drawn round swapping their seats (or tables): the drawn seat belongs
    to the player, so a swap is an exception that two officials of the tournament approve
    (``tournaments.services.fairness``). One official asks for it with a reason
    (``requested``); only when a second, different official approves it are the seats
    changed (``approved``). It may be refused (by another official) or withdrawn (by the one
    who asked). The seats are the ones of the request (table numbers, positions from 0):
    approving checks that they are still so. Approved swaps are public (the standings page)
    and travel in the archive; the names are kept as text for copies on other servers."""

    class State(models.TextChoices):
        REQUESTED = "requested", _("requested")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", pgettext_lazy("seat swap", "withdrawn")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="seat_swaps",
        verbose_name=_("tournament"),
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seat_swaps", verbose_name=_("round")
    )
    first = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("first player")
    )
    second = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("second player")
    )
    first_table = models.PositiveSmallIntegerField(_("first player's table"))
    first_position = models.PositiveSmallIntegerField(_("first player's seat"))
    second_table = models.PositiveSmallIntegerField(_("second player's table"))
    second_position = models.PositiveSmallIntegerField(_("second player's seat"))
    reason = models.TextField(_("reason"), max_length=FAIRNESS_TEXT_LENGTH)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.REQUESTED
    )
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_name = models.CharField(_("requested by (name)"), max_length=150)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_name = models.CharField(_("decided by (name)"), max_length=150, blank=True)
    note = models.TextField(_("note"), max_length=FAIRNESS_TEXT_LENGTH, blank=True)

    class Meta:
        verbose_name = _("seat swap")
        verbose_name_plural = _("seat swaps")
        ordering = ["tournament", "requested_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["requested", "approved", "refused", "withdrawn"]),
                name="seat_swap_state_valid",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="seat_swap_reason_given"),
            models.CheckConstraint(condition=~Q(first=F("second")), name="seat_swap_two_players"),
            # Decided exactly when it is no longer requested; approved by someone named.
            models.CheckConstraint(
                condition=(Q(state="requested") & Q(decided_at__isnull=True))
                | (~Q(state="requested") & Q(decided_at__isnull=False)),
                name="seat_swap_decided_when_not_requested",
            ),
            models.CheckConstraint(
                condition=~Q(state="approved") | ~Q(decided_name=""),
                name="seat_swap_approved_by_someone",
            ),
            # The second approval is another person's: never the login that asked.
            models.CheckConstraint(
                condition=~Q(state="approved") | ~Q(decided_by=F("requested_by")),
                name="seat_swap_approved_by_another",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.round}: {self.first_table} ↔ {self.second_table} ({self.get_state_display()})"
        )


class Ruling(models.Model):
    """A referee's decision: what closes a table's call for the referee (``call``), or one a
    referee opens without a call (conduct). Names the round, table and deal where there are
    any, says the decision in words and any penalty that follows (a penalty the rule source
    scores is still entered as the deal's penalty). Signed by ``first_by``; where the
    tournament wants two referees (``Tournament.two_referee_rulings``, copied to
    ``needs_two`` when it is made) it is pending until a second, different official confirms
    it. Final rulings (``decided_at``) are public and travel in the archive; the referees'
    names are kept as text for copies on other servers (``tournaments.services.fairness``)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rulings", verbose_name=_("tournament")
    )
    call = models.OneToOneField(
        RefereeCall,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ruling",
        verbose_name=_("call for the referee"),
    )
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    deal_number = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)
    conduct = models.BooleanField(_("about conduct"), default=False)
    decision = models.TextField(_("decision"), max_length=FAIRNESS_TEXT_LENGTH)
    penalty = models.CharField(_("penalty"), max_length=PENALTY_LENGTH, blank=True)
    needs_two = models.BooleanField(_("needs two referees"), default=False)
    first_at = models.DateTimeField(_("ruled at"), default=timezone.now)
    first_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ruled by"),
    )
    first_name = models.CharField(_("ruled by (name)"), max_length=150)
    second_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    second_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    second_name = models.CharField(_("confirmed by (name)"), max_length=150, blank=True)
    # When it counts: at once, or at the second signature.
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["tournament", "first_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(decision=""), name="ruling_decision_given"),
            models.CheckConstraint(condition=~Q(first_name=""), name="ruling_signed"),
            models.CheckConstraint(
                condition=~Q(second_by=F("first_by")), name="ruling_second_is_another"
            ),
            # Final only with every signature it needs.
            models.CheckConstraint(
                condition=Q(decided_at__isnull=True)
                | Q(needs_two=False)
                | (Q(second_at__isnull=False) & ~Q(second_name="")),
                name="ruling_final_with_its_signatures",
            ),
            models.CheckConstraint(
                condition=Q(deal_number__isnull=True) | Q(table_number__isnull=False),
                name="ruling_deal_at_a_table",
            ),
            models.CheckConstraint(
                condition=Q(table_number__isnull=True) | Q(round_number__isnull=False),
                name="ruling_table_in_a_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.decision[:40]}"

    @property
    def is_final(self) -> bool:
        return self.decided_at is not None
