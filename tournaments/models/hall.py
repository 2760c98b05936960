"""What goes across the hall: a table's call for the referee and the desk's announcements."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import Table
from tournaments.models.tournament import Tournament

# A call for the referee's reason and an announcement: short, as read across the hall.
CALL_REASON_LENGTH = 120
ANNOUNCEMENT_LENGTH = 200


class RefereeCall(models.Model):
    """A table's call for the referee, from its phone page ("Schiedsrichter rufen"): seen at
    the desk and by the tournament's referees until one of them closes it with a note (both
    written to the tournament's log). One open call per table: pressing again while it is
    open changes nothing (``tournaments.services.hall``)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="referee_calls",
        verbose_name=_("tournament"),
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="referee_calls", verbose_name=_("table")
    )
    deal_number = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=CALL_REASON_LENGTH, blank=True)
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)
    # Who pressed: the player's name at the table as their phone says, and the phone.
    called_by = models.CharField(_("called by"), max_length=120, blank=True)
    device = models.CharField(_("device"), max_length=40, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("call for the referee")
        verbose_name_plural = _("calls for the referee")
        ordering = ["tournament", "called_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(closed_at__isnull=True),
                name="referee_call_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | ~Q(note=""),
                name="referee_call_closed_with_note",
            ),
            models.CheckConstraint(
                condition=Q(deal_number__isnull=True) | Q(deal_number__range=(1, 99)),
                name="referee_call_deal_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.called_at:%H:%M}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Announcement(models.Model):
    """A short message the desk puts on the projector and the players' own pages ("Mein
    Platz") until it is removed or its time runs out (``shown_until``)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="announcements",
        verbose_name=_("tournament"),
    )
    text = models.CharField(_("message"), max_length=ANNOUNCEMENT_LENGTH)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    shown_until = models.DateTimeField(_("shown until"), null=True, blank=True)
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("removed by"),
    )

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["tournament", "-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="announcement_text_not_empty"),
        ]

    def __str__(self) -> str:
        return self.text
