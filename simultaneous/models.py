"""A simultaneous Cego day: several halls play the same day under one rule source and deal
count, each running its own tournament on its own laptop, and the season server ranks them
all as if under one roof (``simultaneous.selectors``).

``SimultaneousDay``: created by the association (``clubs.permissions.MANAGE_SIMULTANEOUS``)
with its date, rule source, rounds and deals per round. ``Section``: one hall taking part,
i.e. one tournament hosted by a club; a tournament belongs to at most one day (a one-to-one
field). Whether a tournament fits the day (same rule source, rounds, deals per round and
date) is checked by ``simultaneous.services.add_hall`` and again by the ranking at every
build (a hall whose laptop changed its tournament afterwards is shown apart with the reason,
not ranked). ``DayChange``: who did what.

On the hall's laptop ``OverallCopy`` keeps the last overall ranking fetched from the season
server with its time, so the hall's projector shows it when the village's internet drops.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class SimultaneousDay(models.Model):
    name = models.CharField(_("name"), max_length=160)
    date = models.DateField(_("date"))
    season = models.ForeignKey(
        "seasons.Season",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="simultaneous_days",
        verbose_name=_("season"),
    )
    rules_slug = models.CharField(_("rule source"), max_length=60)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # Bumped by every change of the day or its halls: the ranking's cache key names it.
    revision = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("simultaneous day")
        verbose_name_plural = _("simultaneous days")
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=~Q(rules_slug=""), name="simultaneous_rules_set"),
            models.CheckConstraint(condition=~Q(name=""), name="simultaneous_name_set"),
            models.CheckConstraint(condition=Q(rounds__range=(1, 20)), name="simultaneous_rounds"),
            models.CheckConstraint(
                condition=Q(deals_per_round__range=(1, 100)), name="simultaneous_deals"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d.%m.%Y})"

    @property
    def deal_count(self) -> int:
        return self.rounds * self.deals_per_round


class Section(models.Model):
    day = models.ForeignKey(SimultaneousDay, on_delete=models.CASCADE, related_name="sections")
    # One day per tournament: the database refuses a second (a one-to-one field).
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="simultaneous_section",
        verbose_name=_("tournament"),
    )
    added_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("hall")
        verbose_name_plural = _("halls")
        ordering = ["day", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["day", "tournament"], name="simultaneous_hall_once"),
        ]

    def __str__(self) -> str:
        return f"{self.day_id}: {self.tournament_id}"


class DayChange(models.Model):
    """Who did what to a day: created or changed it, added or removed a hall."""

    class Action(models.TextChoices):
        CREATED = "created", _("created")
        HALL_ADDED = "hall_added", _("hall added")
        HALL_REMOVED = "hall_removed", _("hall removed")
        CHANGED = "changed", _("changed")

    day = models.ForeignKey(SimultaneousDay, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=20, choices=Action.choices)
    text = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.action}: {self.text}"


class OverallCopy(models.Model):
    """On the hall's laptop: the last overall ranking the season server gave for this
    tournament's day (the read API's document), and when it was fetched. One row per
    tournament, replaced at each fetch."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="simultaneous_copy"
    )
    document = models.JSONField(default=dict)
    fetched_at = models.DateTimeField()
    # The last attempt that failed (the copy stays as it was), for "Keine Verbindung seit …".
    failed_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament_id} @ {self.fetched_at}"
