"""Paper sheets typed twice at the desk."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import Table


class SheetTyping(models.Model):
    """A table's paper sheet typed twice at the desk (``Tournament.double_entry``).

    The first typing waits here, counting for nothing, until a second typing of the same
    sheet (made without seeing the first) arrives. Equal cell by cell: the lines are stored as
    deals (``paper_sheets.enter_written_deals``) and the typing is ``counted``. Different: the desk
    settles each differing cell, then the lines count. Written only through
    ``tournaments.services.double_entry``. Each row of ``first_rows`` / ``second_rows`` is
    ``{"number", "contract", "declarer", "amounts" (as typed, null for a blank cell),
    "scores" (the complete row the engine made of it)}``. A sheet of round totals only
    (``kind = totals``) is one such row: number 1 (the line a ``Deal.Kind.TOTAL`` takes),
    contract "" and declarer null, amounts and scores the totals typed; it counts through
    ``paper_sheets.enter_totals``.
    """

    class Kind(models.TextChoices):
        DEALS = "deals", _("the deals as written")
        TOTALS = "totals", _("round totals")

    class State(models.TextChoices):
        AWAITING_SECOND = "awaiting", _("waiting for the second typing")
        DIFFERENCES = "differences", _("differences to settle")
        COUNTED = "counted", _("counted")
        DISCARDED = "discarded", _("discarded")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="typings", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=6, choices=Kind.choices, default=Kind.DEALS)
    state = models.CharField(
        _("state"), max_length=12, choices=State.choices, default=State.AWAITING_SECOND
    )
    first_rows = models.JSONField(_("first typing"))
    first_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("first typed by"),
    )
    first_typist = models.CharField(_("first typist"), max_length=40, blank=True)
    first_at = models.DateTimeField(_("first typed at"), auto_now_add=True)
    second_rows = models.JSONField(_("second typing"), null=True, blank=True)
    second_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("second typed by"),
    )
    second_typist = models.CharField(_("second typist"), max_length=40, blank=True)
    second_at = models.DateTimeField(_("second typed at"), null=True, blank=True)
    # Same login and same typist's name (or none) both times: nobody else checked the sheet.
    same_person = models.BooleanField(_("both typings by the same person"), default=False)
    settlement = models.JSONField(_("settled cells"), null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("settled by"),
    )
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("typing of a paper sheet")
        verbose_name_plural = _("typings of paper sheets")
        ordering = ["table", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["awaiting", "differences", "counted", "discarded"]),
                name="sheet_typing_state_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["deals", "totals"]), name="sheet_typing_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["awaiting", "discarded"]) | Q(second_rows__isnull=False),
                name="sheet_typing_second_before_counting",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(state__in=["awaiting", "differences"]),
                name="sheet_typing_one_open_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_state_display()}"

    @property
    def is_open(self) -> bool:
        return self.state in (self.State.AWAITING_SECOND, self.State.DIFFERENCES)
