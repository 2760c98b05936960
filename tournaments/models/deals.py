"""A deal at a table (or a table's round total) and its scores."""

from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import MAX_SEATS, Table

# No deal and no round total comes anywhere near this; beyond it a number is a typing error
# (and a database integer overflow, a server error, further on).
SCORE_LIMIT = 1_000_000
SCORE_FIELDS = tuple(f"score_{i}" for i in range(MAX_SEATS))


def _zero_sum_condition() -> Exact:
    total = Coalesce(F(SCORE_FIELDS[0]), Value(0))
    for name in SCORE_FIELDS[1:]:
        total = total + Coalesce(F(name), Value(0))
    return Exact(total, Value(0))


class Deal(models.Model):
    """One deal at one table, or a table's round total in totals-only tournaments.

    The rule inputs are the deal-record fields of ``shared/spec/deal-record.md``: the
    common ones are columns, the contract-specific rest lives in ``details``.
    """

    class Kind(models.TextChoices):
        DEAL = "deal", _("deal")
        TOTAL = "total", _("round total")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        ANNULLED = "annulled", _("annulled")

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="deals", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.DEAL)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.CONFIRMED
    )
    dealer_position = models.PositiveSmallIntegerField(_("dealer"), null=True, blank=True)
    contract = models.CharField(_("contract"), max_length=40, blank=True)
    declarer_position = models.PositiveSmallIntegerField(_("declarer"), null=True, blank=True)
    declarer_points = models.PositiveSmallIntegerField(_("card points"), null=True, blank=True)
    won = models.BooleanField(_("won"), null=True, blank=True)
    # Typed in from a paper sheet as written (contract, declarer, amounts): scored as written,
    # without card points; statistics that need card points skip it.
    as_written = models.BooleanField(_("as written on the sheet"), default=False)
    details = models.JSONField(_("further rule inputs"), default=dict, blank=True)
    score_0 = models.IntegerField(_("score seat 1"), null=True, blank=True)
    score_1 = models.IntegerField(_("score seat 2"), null=True, blank=True)
    score_2 = models.IntegerField(_("score seat 3"), null=True, blank=True)
    score_3 = models.IntegerField(_("score seat 4"), null=True, blank=True)
    score_4 = models.IntegerField(_("score seat 5"), null=True, blank=True)
    # A key chosen by the entering device: the same submission arriving twice stores one deal.
    submission_key = models.UUIDField(_("submission key"), null=True, blank=True, unique=True)
    entered_via = models.CharField(_("entered via"), max_length=10, default="desk")
    # The seat whose player entered it at the table: a different seat must confirm it.
    entered_by_position = models.PositiveSmallIntegerField(
        _("entered by seat"), null=True, blank=True
    )
    # The device that entered (or last revised) the deal at the table, and the one that
    # confirmed it: the same phone must not do both.
    entered_device = models.CharField(_("entered on device"), max_length=40, blank=True)
    confirmed_device = models.CharField(_("confirmed on device"), max_length=40, blank=True)
    # Address and browser of the device that entered (or last revised) it at the table, as a
    # hash (``Device.client``): the same phone with its cookie deleted must not confirm either.
    entered_client = models.CharField(_("entered from client"), max_length=32, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="deal_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=_zero_sum_condition(), name="deal_scores_sum_zero"),
            models.CheckConstraint(
                condition=Q(declarer_position__isnull=True)
                | Q(declarer_position__range=(0, MAX_SEATS - 1)),
                name="deal_declarer_position_range",
            ),
            models.CheckConstraint(
                condition=Q(dealer_position__isnull=True)
                | Q(dealer_position__range=(0, MAX_SEATS - 1)),
                name="deal_dealer_position_range",
            ),
            models.CheckConstraint(
                condition=Q(declarer_points__isnull=True) | Q(declarer_points__lte=80),
                name="deal_declarer_points_range",
            ),
            models.CheckConstraint(
                condition=Q(kind="total") | ~Q(contract=""), name="deal_has_contract"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "confirmed", "annulled"]),
                name="deal_status_valid",
            ),
            models.CheckConstraint(condition=Q(kind__in=["deal", "total"]), name="deal_kind_valid"),
            models.CheckConstraint(
                condition=Q(as_written=False) | Q(kind="deal", declarer_points__isnull=True),
                name="deal_as_written_has_no_card_points",
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{name}__isnull": True})
                    | Q(**{f"{name}__range": (-SCORE_LIMIT, SCORE_LIMIT)}),
                    name=f"deal_{name}_bounded",
                )
                for name in SCORE_FIELDS
            ],
        ]

    def __str__(self) -> str:
        return f"{self.table}, {_('deal')} {self.number}"

    @property
    def scores(self) -> list[int | None]:
        return [getattr(self, name) for name in SCORE_FIELDS]

    def set_scores(self, scores: "list[int] | tuple[int, ...]") -> None:
        if len(scores) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} scores")
        padded = list(scores) + [None] * (MAX_SEATS - len(scores))
        for name, value in zip(SCORE_FIELDS, padded, strict=True):
            setattr(self, name, value)

    @property
    def counts(self) -> bool:
        return self.status == self.Status.CONFIRMED and not self.table.voided

    @property
    def same_device(self) -> bool:
        """Entered and confirmed on one phone: the organiser should look at it."""
        return bool(self.entered_device) and self.entered_device == self.confirmed_device
