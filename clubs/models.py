"""Clubs, the player registry and memberships: the club's own business.

The tables kept the names they had when these models lived in ``tournaments``
(``tournaments_club`` …): the move was a change of Django's state only.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Category(models.TextChoices):
    OPEN = "open", _("open")
    WOMAN = "woman", _("woman")
    YOUTH = "youth", _("youth")
    SENIOR = "senior", _("senior")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    short_name = models.CharField(_("short name"), max_length=20, unique=True)
    town = models.CharField(_("town"), max_length=80)

    class Meta:
        db_table = "tournaments_club"
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty"),
            models.CheckConstraint(condition=~Q(short_name=""), name="club_short_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=60)
    last_name = models.CharField(_("last name"), max_length=60)
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
    )
    category = models.CharField(
        _("category"),
        max_length=10,
        choices=Category.choices,
        default=Category.OPEN,
        help_text=_("For side rankings such as best woman or best youth."),
    )
    email = models.EmailField(_("e-mail"), blank=True)
    clubs = models.ManyToManyField(
        Club, through="Membership", related_name="players", verbose_name=_("clubs")
    )

    class Meta:
        db_table = "tournaments_player"
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name", "first_name"]
        constraints = [
            models.CheckConstraint(condition=~Q(last_name=""), name="player_last_name_not_empty"),
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True) | Q(birth_year__range=(1900, 2100)),
                name="player_birth_year_plausible",
            ),
            models.CheckConstraint(
                condition=Q(category__in=Category.values), name="player_category_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.last_name}, {self.first_name}"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Membership(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        PASSIVE = "passive", _("passive")

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    member_number = models.CharField(_("member number"), max_length=20, blank=True)
    since = models.DateField(_("member since"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )

    class Meta:
        db_table = "tournaments_membership"
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "club"], name="membership_once_per_club"),
            models.UniqueConstraint(
                fields=["club", "member_number"],
                condition=~Q(member_number=""),
                name="membership_number_unique_in_club",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["active", "passive"]), name="membership_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.club.short_name})"
