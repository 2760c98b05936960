"""A season: the tournaments that add up to one ranking, and the rule by which they do.

The table kept the name it had when the model lived in ``tournaments``
(``tournaments_season``): the move was a change of Django's state only.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Season(models.Model):
    is_season = True  # how clubs.permissions tells a season (it imports no model here)

    class Scoring(models.TextChoices):
        # How a player's tournament results add up to the season score (seasons.ranking).
        SUM = "sum", _("sum of all results, negative ones included")
        BEST_N = "best_n", _("sum of the best N results")
        CUP = "cup", _("cup points per place")

    name = models.CharField(_("name"), max_length=120, unique=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    # Youth by birth year: a player born in this year or later plays as youth in this season.
    youth_born_from = models.PositiveSmallIntegerField(
        _("youth: born in or after"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
        help_text=_("Players born in this year or later count as youth in this season."),
    )
    scoring = models.CharField(
        _("season rule"), max_length=10, choices=Scoring.choices, default=Scoring.SUM
    )
    best_of = models.PositiveSmallIntegerField(
        _("best N results"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_("Only for the best-N rule: how many results count."),
    )
    # Points for place 1, 2, 3, …; places beyond the table get none.
    cup_points = models.JSONField(_("cup points per place"), default=list, blank=True)
    min_tournaments = models.PositiveSmallIntegerField(
        _("minimum tournaments to be ranked"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        db_table = "tournaments_season"
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(scoring__in=["sum", "best_n", "cup"]), name="season_scoring_valid"
            ),
            models.CheckConstraint(
                condition=~Q(scoring="best_n") | Q(best_of__gte=1), name="season_best_of_given"
            ),
            models.CheckConstraint(
                condition=Q(min_tournaments__gte=1), name="season_min_tournaments_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name
