"""A round, its tables (with their tokens and short codes), its seats and substitutions."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Length, Upper
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from tournaments.models.players import Entry
from tournaments.models.tournament import Tournament

MAX_SEATS = 5


def new_table_token() -> str:
    return secrets.token_urlsafe(18)


# A table's short code, typed by a player whose phone cannot scan the QR code: no 0/O, 1/I/L,
# read case-insensitively. 31**6, about 900 million codes; the token stays the real key.
SHORT_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
SHORT_CODE_LENGTH = 6


def random_short_code() -> str:
    return "".join(secrets.choice(SHORT_CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))


def new_short_codes(count: int) -> list[str]:
    """``count`` short codes no table has yet (one query per round of drawing)."""
    codes: set[str] = set()
    while len(codes) < count:
        fresh = {random_short_code() for _ in range(count - len(codes))} - codes
        taken = set(Table.objects.filter(short_code__in=fresh).values_list("short_code", flat=True))
        codes |= fresh - taken
    return sorted(codes)


def new_short_code() -> str:
    return new_short_codes(1)[0]


def normalise_short_code(text: str) -> str:
    """What a player typed, as stored (codes are read case-insensitively)."""
    return text.strip().upper()


class Round(models.Model):
    class State(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.DRAWN)
    draw_seed = models.BigIntegerField(
        _("draw seed"), help_text=_("The random seed of the seat draw; it reproduces the draw.")
    )
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    # The round clock: the organiser sets a time limit; pages count down to ``ends_at``.
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit (minutes)"), null=True, blank=True
    )
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    # The draw under review (Tournament.review_draws): its seats are not shown to players
    # until released. Rounds drawn without review, and those imported, are shown at once.
    awaiting_release = models.BooleanField(_("draw awaiting release"), default=False)
    released_at = models.DateTimeField(_("draw released at"), null=True, blank=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("draw released by"),
    )

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(state__in=["drawn", "playing", "closed"]), name="round_state_valid"
            ),
            models.CheckConstraint(condition=Q(draw_seed__gte=0), name="round_seed_positive"),
            models.CheckConstraint(
                condition=Q(time_limit_minutes__isnull=True)
                | Q(time_limit_minutes__range=(1, 600)),
                name="round_time_limit_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {_('round')} {self.number}"


class Table(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    # Opens this table's entry page on a phone (printed as a QR code on the score sheet).
    token = models.CharField(_("entry token"), max_length=40, unique=True, default=new_table_token)
    # Typed instead of scanning: /t/<code> redirects to the token's page.
    short_code = models.CharField(
        _("short code"), max_length=SHORT_CODE_LENGTH, unique=True, default=new_short_code
    )
    voided = models.BooleanField(_("voided"), default=False)
    void_reason = models.CharField(_("reason for voiding"), max_length=200, blank=True)
    # Since when the table's open call for the referee waits (RefereeCall; None: no open
    # call). Kept on the table, read with it, so the phone's page needs no query more.
    referee_called_at = models.DateTimeField(_("referee called at"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(
                condition=Q(voided=False) | ~Q(void_reason=""), name="table_void_needs_reason"
            ),
            # Six characters, upper case (no REGEXP: plain sqlite3 tools must read the file).
            models.CheckConstraint(
                condition=Q(Exact(Length("short_code"), Value(SHORT_CODE_LENGTH)))
                & Q(Exact(F("short_code"), Upper("short_code"))),
                name="table_short_code_shape",
            ),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number} ({_('round')} {self.round.number})"


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    # Kept on the seat as well so that the database can refuse a player seated twice in a round.
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    position = models.PositiveSmallIntegerField(
        _("position"), help_text=_("Place in playing order, from 0.")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_entry_once_per_round"),
            models.CheckConstraint(
                condition=Q(position__range=(0, MAX_SEATS - 1)), name="seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.position + 1}: {self.entry}"


class Substitution(models.Model):
    """A player who takes over a seat during a round, from a given deal on."""

    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="substitutions", verbose_name=_("seat")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="substitutions", verbose_name=_("player")
    )
    from_deal = models.PositiveSmallIntegerField(_("from deal"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        ordering = ["seat", "from_deal"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "from_deal"], name="substitution_once_per_deal"
            ),
            models.CheckConstraint(
                condition=Q(from_deal__gte=1), name="substitution_deal_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.entry} ({_('from deal')} {self.from_deal})"
