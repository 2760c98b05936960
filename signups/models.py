"""Online pre-registration on the season server: a tournament's sign-up sheet (open or not,
capacity, closing time), the people who signed up (with a seat, confirmed, on the waiting
list or cancelled) and the log of who did what to them.

Written only through ``signups.services``. A confirmed sign-up becomes the tournament's
registration (an entry not checked in, or a ``HallRegistration`` once a venue laptop holds
the tournament), so it travels to the hall with the tournament.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Category
from tournaments.models import AppendOnly, Tournament


class SignupSheet(models.Model):
    """A tournament's online sign-up, as its organisers set it."""

    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        related_name="signup_sheet",
        verbose_name=_("tournament"),
    )
    is_open = models.BooleanField(_("online sign-up open"), default=False)
    capacity = models.PositiveIntegerField(
        _("seats"),
        null=True,
        blank=True,
        help_text=_("Empty: no limit. Beyond it people land on the waiting list."),
    )
    closes_at = models.DateTimeField(
        _("sign-up closes"),
        null=True,
        blank=True,
        help_text=_("Empty: open until the tournament's day."),
    )
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("sign-up sheet")
        verbose_name_plural = _("sign-up sheets")
        constraints = [
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                name="signup_sheet_capacity_positive",
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class Signup(models.Model):
    """One person who signed up for a tournament through the public form."""

    class Status(models.TextChoices):
        HELD = "held", _("seat held, not confirmed yet")
        CONFIRMED = "confirmed", _("confirmed")
        WAITING = "waiting", _("on the waiting list")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="signups", verbose_name=_("tournament")
    )
    first_name = models.CharField(_("first name"), max_length=60)
    last_name = models.CharField(_("last name"), max_length=60)
    # ``clubs.search.player_key``: "Müller" and "Mueller" are one name (duplicates).
    name_key = models.CharField(_("name key"), max_length=130, editable=False)
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
    )
    club_text = models.CharField(_("other club"), max_length=120, blank=True)
    # For the side rankings (women, youth, seniors): as the person said, "" not said. Carried
    # to the registry's player when the sign-up is confirmed (``services.signups``).
    category = models.CharField(
        _("category"), max_length=10, choices=Category.choices, blank=True, default=""
    )
    email = models.EmailField(_("e-mail"), blank=True)
    # Set when the link from the first mail was followed (or an organiser entered the
    # address): only then does anything else go to the address (``services.mail``).
    email_confirmed_at = models.DateTimeField(_("e-mail confirmed at"), null=True, blank=True)
    consent_at = models.DateTimeField(_("consent given at"))
    status = models.CharField(_("state"), max_length=10, choices=Status.choices)
    # The waiting list's order (smallest first); kept when a seat is taken, for the record.
    queue = models.PositiveIntegerField(_("waiting list order"), default=0)
    # SHA-256 of the personal link's random token; the token itself is never stored.
    token_hash = models.CharField(_("link hash"), max_length=64, unique=True, editable=False)
    player = models.ForeignKey(
        "clubs.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    created_at = models.DateTimeField(_("signed up at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            # One name once per tournament (a cancelled sign-up may sign up again).
            models.UniqueConstraint(
                fields=["tournament", "name_key"],
                condition=~Q(status="cancelled"),
                name="signup_name_once",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["held", "confirmed", "waiting", "cancelled"]),
                name="signup_status_valid",
            ),
            models.CheckConstraint(condition=~Q(last_name=""), name="signup_last_name_set"),
            models.CheckConstraint(
                condition=Q(club__isnull=True) | Q(club_text=""), name="signup_one_club"
            ),
            models.CheckConstraint(
                condition=Q(category__in=["", *Category.values]), name="signup_category_valid"
            ),
            models.CheckConstraint(
                condition=Q(email_confirmed_at__isnull=True) | ~Q(email=""),
                name="signup_confirmed_email_set",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.last_name}, {self.first_name}"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def club_name(self) -> str:
        return self.club.name if self.club_id else self.club_text

    @property
    def has_seat(self) -> bool:
        return self.status in (self.Status.HELD, self.Status.CONFIRMED)


class SignupChange(AppendOnly):
    """Append-only: who did what to a tournament's sign-ups (the person through the form or
    their link, an organiser, the waiting list moving up)."""

    class Action(models.TextChoices):
        SETTINGS = "settings", _("sign-up settings changed")
        SIGNED_UP = "signed_up", _("signed up")
        CONFIRMED = "confirmed", _("confirmed")
        EDITED = "edited", _("edited")
        CANCELLED = "cancelled", _("cancelled")
        MOVED_UP = "moved_up", _("moved up from the waiting list")
        MOVED = "moved", _("moved on the waiting list")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )
    signup = models.ForeignKey(
        Signup,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="changes",
        verbose_name=_("sign-up"),
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    actor = models.CharField(_("actor"), max_length=120, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("sign-up change")
        verbose_name_plural = _("sign-up log")
        ordering = ["changed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.get_action_display()}"
