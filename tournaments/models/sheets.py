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


class SheetPhoto(models.Model):
    """A photo of a table's tick-box score sheet (issue 42), read by ``sheetreading.reader``
    and kept with the sheet's history. Written only through
    ``tournaments.services.sheet_photos``.

    Where it is kept: in the database, not under a media folder. The venue's data folder is
    its SQLite file (its backups, restores, the archive and the season server's copy carry
    the database, not a folder beside it), and a photo is kept as a copy of at most
    ``sheet_photos.KEPT_SIDE`` pixels on its long side (a 12-megapixel phone photo is some
    4 MB; the copy some 0.5 MB, still readable by the reader and by eye) with the page as
    the reader straightened it (grey JPEG), from which the desk's row crops are cut.
    ``sha256`` is the uploaded file's, so the same photo uploaded twice is refused.

    ``rows`` is what was read, one entry per deal row of the page:
    ``{"deal", "flags", "values" (declarer, contract, declarer_points, won, after_solo as
    read, null where not), "accepted", "struck", "empty", "scores", "crop" [x, y, w, h]}``.
    Nothing of it counts until the desk confirms the sheet (``state`` confirmed): then its
    lines were stored as a typed sheet's are, or under double entry as the first typing
    (``typing``).
    """

    class State(models.TextChoices):
        READ = "read", _("waiting for the desk")
        CONFIRMED = "confirmed", _("confirmed")
        DISCARDED = "discarded", _("discarded")

    class Via(models.TextChoices):
        DESK = "desk", _("desk")
        PHONE = "phone", _("table's phone")

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="sheet_photos",
        verbose_name=_("tournament"),
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="photos", verbose_name=_("table")
    )
    page = models.PositiveSmallIntegerField(_("page of the sheet"), default=0)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.READ)
    via = models.CharField(_("uploaded via"), max_length=5, choices=Via.choices)
    sha256 = models.CharField(_("SHA-256 of the file"), max_length=64)
    photo = models.BinaryField(_("photo"))
    photo_type = models.CharField(_("photo's type"), max_length=20, default="image/jpeg")
    straightened = models.BinaryField(_("straightened page"))
    rows = models.JSONField(_("rows read"))
    seconds = models.FloatField(_("reading time (s)"), default=0.0)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    uploader = models.CharField(_("uploaded by (phone)"), max_length=120, blank=True)
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed or discarded by"),
    )
    decided_at = models.DateTimeField(_("confirmed or discarded at"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    typing = models.ForeignKey(
        SheetTyping,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="photos",
        verbose_name=_("first typing"),
    )

    class Meta:
        verbose_name = _("photo of a score sheet")
        verbose_name_plural = _("photos of score sheets")
        ordering = ["table", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["read", "confirmed", "discarded"]),
                name="sheet_photo_state_valid",
            ),
            models.CheckConstraint(
                condition=Q(via__in=["desk", "phone"]), name="sheet_photo_via_valid"
            ),
            # the same file once per tournament: a sheet photographed twice is refused
            models.UniqueConstraint(
                fields=["tournament", "sha256"], name="sheet_photo_once_per_tournament"
            ),
            # one reading of a sheet's page waits for the desk at a time
            models.UniqueConstraint(
                fields=["table", "page"],
                condition=Q(state="read"),
                name="sheet_photo_one_waiting_per_page",
            ),
            # decided means someone decided
            models.CheckConstraint(
                condition=Q(state="read") | Q(decided_at__isnull=False),
                name="sheet_photo_decided_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_state_display()}"
