"""The append-only histories: of a deal, of a round, of everything else done to a tournament;
and the draws by lot."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.deals import Deal
from tournaments.models.rounds import Round, Table
from tournaments.models.tournament import Tournament


class AppendOnly(models.Model):
    """A history row: written once, never changed or deleted."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError(f"{type(self).__name__}: the history is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{type(self).__name__}: the history is append-only.")


class DealChange(AppendOnly):
    """Append-only history of a deal: every creation, confirmation, correction, annulment."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        CORRECTED = "corrected", _("corrected")
        ANNULLED = "annulled", _("annulled")
        RESTORED = "restored", _("restored")

    deal = models.ForeignKey(
        Deal, on_delete=models.PROTECT, related_name="changes", verbose_name=_("deal")
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    # Now, unless written with the time of the original change (an archive, a batch).
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now, editable=False)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    actor = models.CharField(
        _("actor"), max_length=120, blank=True, help_text=_("Who, when no login was used.")
    )
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # The phone that made the change (a random id in a long-lived cookie) and its address.
    device = models.CharField(_("device"), max_length=40, blank=True)
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal change")
        verbose_name_plural = _("deal history")
        ordering = ["deal", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=["created", "confirmed", "corrected", "annulled", "restored"]
                ),
                name="deal_change_action_valid",
            ),
            models.CheckConstraint(
                condition=Q(action__in=["created", "confirmed"]) | ~Q(reason=""),
                name="deal_change_reason_required",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal}: {self.get_action_display()}"


class LotDraw(models.Model):
    """A draw by lot the app performed, e.g. to separate players tied in the standings."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="lot_draws", verbose_name=_("tournament")
    )
    purpose = models.CharField(_("purpose"), max_length=40, default="tie_break")
    seed = models.BigIntegerField(_("seed"))
    # Entry ids in the order the lot put them (first = better place).
    order = models.JSONField(_("order"))
    performed_at = models.DateTimeField(_("performed at"), auto_now_add=True)
    performed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("performed by"),
    )

    class Meta:
        verbose_name = _("draw by lot")
        verbose_name_plural = _("draws by lot")
        ordering = ["tournament", "performed_at"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.purpose} ({self.performed_at:%d.%m.%Y %H:%M})"


class RoundChange(AppendOnly):
    """Append-only log of what the organiser did to a round or one of its tables, and why."""

    class Action(models.TextChoices):
        CLOSED = "closed", _("round closed")
        REOPENED = "reopened", _("round reopened")
        TABLE_VOIDED = "table_voided", _("table's round voided")
        TABLE_RESTORED = "table_restored", _("table counts again")
        RELEASED = "released", _("draw released")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="changes", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="changes",
        verbose_name=_("table"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    reason = models.TextField(_("reason"), blank=True)
    # Now, unless written with the time of the original change (an archive, a batch).
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now, editable=False)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )

    class Meta:
        verbose_name = _("round change")
        verbose_name_plural = _("round history")
        ordering = ["round", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=["closed", "reopened", "table_voided", "table_restored", "released"]
                ),
                name="round_change_action_valid",
            ),
            models.CheckConstraint(
                condition=Q(action__in=["closed", "released"]) | ~Q(reason=""),
                name="round_change_reason_required",
            ),
            models.CheckConstraint(
                condition=Q(action__in=["closed", "reopened", "released"]) | Q(table__isnull=False),
                name="round_change_table_given",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.get_action_display()}"


class TournamentChange(AppendOnly):
    """Append-only log of everything else done to a tournament: check-in, fees, withdrawals,
    late entries, substitutions, keep-apart pairs, draws, swaps, settings, lots, tokens.

    Written only through ``tournaments.services.changelog.record``, inside the service's
    transaction. Deals and rounds keep their own histories (``DealChange``, ``RoundChange``).
    """

    class Action(models.TextChoices):
        CREATED = "created", _("tournament created")
        EDITED = "edited", _("settings changed")
        REFEREES = "referees", _("referees changed")
        CHECKED_IN = "checked_in", _("checked in")
        CHECK_IN_UNDONE = "check_in_undone", _("check-in undone")
        FEE_PAID = "fee_paid", _("entry fee paid")
        FEE_UNDONE = "fee_undone", _("payment undone")
        WITHDRAWN = "withdrawn", _("withdrawn")
        WITHDRAWAL_UNDONE = "withdrawal_undone", _("withdrawal undone")
        REGISTERED = "registered", _("registered")
        SUBSTITUTED = "substituted", _("substitute")
        KEEP_APART_ADDED = "keep_apart_added", _("keep-apart pair added")
        KEEP_APART_REMOVED = "keep_apart_removed", _("keep-apart pair removed")
        ROUND_DRAWN = "round_drawn", _("round drawn")
        ROUND_REDRAWN = "round_redrawn", _("round drawn again")
        SWAPPED = "swapped", _("players swapped")  # since issue 39: a seat swap approved
        LOTS_DRAWN = "lots_drawn", _("lots drawn")
        TOKEN_REISSUED = "token_reissued", _("table token re-issued")
        CLOCK_SET = "clock_set", _("round clock set")
        FINISHED = "finished", _("tournament finished")
        ARCHIVE_IMPORTED = "archive_imported", _("imported from an archive")
        ARCHIVE_REPLACED = "archive_replaced", _("replaced by a newer archive")
        HANDED_TO_HALL = "handed_to_hall", _("fetched by a venue laptop")
        SHEET_TYPED = "sheet_typed", _("paper sheet typed (first typing)")
        SHEET_RETYPED = "sheet_retyped", _("paper sheet typed again (second typing)")
        SHEET_SETTLED = "sheet_settled", _("differences of a paper sheet settled")
        SHEET_DISCARDED = "sheet_discarded", _("typing of a paper sheet discarded")
        STAYS_AT_TABLE = "stays_at_table", _("stays at the table")
        MAY_MOVE = "may_move", _("no longer stays at the table")
        REFEREE_CALLED = "referee_called", _("referee called")
        REFEREE_CALL_CLOSED = "referee_call_closed", _("referee call closed")
        ANNOUNCED = "announced", _("announcement shown")
        ANNOUNCEMENT_REMOVED = "announcement_removed", _("announcement removed")
        SWAP_REQUESTED = "swap_requested", _("seat swap requested")
        SWAP_REFUSED = "swap_refused", _("seat swap refused")
        SWAP_WITHDRAWN = "swap_withdrawn", _("seat swap withdrawn")
        RULING_RECORDED = "ruling_recorded", _("ruling recorded")
        RULING_CONFIRMED = "ruling_confirmed", _("ruling confirmed by a second referee")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="changes", verbose_name=_("tournament")
    )
    action = models.CharField(_("action"), max_length=30, choices=Action.choices)
    subject = models.CharField(
        _("concerns"), max_length=200, blank=True, help_text=_("Who or what was changed.")
    )
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    actor = models.CharField(
        _("actor"), max_length=120, blank=True, help_text=_("Who, when no login was used.")
    )

    class Meta:
        verbose_name = _("tournament change")
        verbose_name_plural = _("tournament log")
        ordering = ["tournament", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=[
                        "created",
                        "edited",
                        "referees",
                        "checked_in",
                        "check_in_undone",
                        "fee_paid",
                        "fee_undone",
                        "withdrawn",
                        "withdrawal_undone",
                        "registered",
                        "substituted",
                        "keep_apart_added",
                        "keep_apart_removed",
                        "round_drawn",
                        "round_redrawn",
                        "swapped",
                        "lots_drawn",
                        "token_reissued",
                        "clock_set",
                        "finished",
                        "archive_imported",
                        "archive_replaced",
                        "handed_to_hall",
                        "sheet_typed",
                        "sheet_retyped",
                        "sheet_settled",
                        "sheet_discarded",
                        "stays_at_table",
                        "may_move",
                        "referee_called",
                        "referee_call_closed",
                        "announced",
                        "announcement_removed",
                        "swap_requested",
                        "swap_refused",
                        "swap_withdrawn",
                        "ruling_recorded",
                        "ruling_confirmed",
                    ]
                ),
                name="tournament_change_action_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_action_display()}"
