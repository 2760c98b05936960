"""The rating across seasons as stored (``ratings.services`` writes it, ``ratings.selectors``
reads it; the maths is ``ratings.rating``). Never worked out by a reader: a tournament that
finishes or arrives is rated then (``ratings.receivers``), or ``manage.py recompute_ratings``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class RatedTournament(models.Model):
    """A finished tournament that the ratings include, with the date and revision it was rated
    at: a later revision (corrected deals, a new copy arriving) or another date means it is
    rated again, from its place in the order on."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("tournament"),
    )
    date = models.DateField(_("date"))
    revision = models.IntegerField(_("revision"))
    # What its rating depended on (``selectors.matches_digest``): a new revision with the same
    # tables and points (a name corrected) is not rated again.
    digest = models.CharField(max_length=16)
    players = models.PositiveIntegerField(_("players"), default=0)
    matches = models.PositiveIntegerField(_("tables rated"), default=0)
    rated_at = models.DateTimeField(_("rated at"), auto_now=True)

    class Meta:
        verbose_name = _("rated tournament")
        verbose_name_plural = _("rated tournaments")
        ordering = ["date", "tournament_id"]

    def __str__(self) -> str:
        return f"{self.tournament_id}@{self.revision}"


class PlayerRating(models.Model):
    """A player's current rating: openskill's (mu, sigma) and the number shown."""

    player = models.OneToOneField(
        "clubs.Player",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating",
        verbose_name=_("player"),
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField(_("rating"))
    tournaments = models.PositiveIntegerField(_("tournaments rated"))
    last_tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("last tournament"),
    )
    last_change = models.IntegerField(_("change in the last tournament"), default=0)

    class Meta:
        verbose_name = _("player's rating")
        verbose_name_plural = _("players' ratings")
        indexes = [models.Index(fields=["-display"], name="rating_display_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
            models.CheckConstraint(condition=Q(tournaments__gte=1), name="rating_has_tournaments"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.display}"


class RatingChange(models.Model):
    """What one tournament did to one player's rating: before and after."""

    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="rating_changes"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    date = models.DateField()  # the tournament's date as rated: its place in the order
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    matches = models.PositiveSmallIntegerField(_("tables rated"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        indexes = [models.Index(fields=["date", "tournament"], name="rating_change_order_idx")]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "tournament"], name="rating_change_once_per_tournament"
            ),
            models.CheckConstraint(condition=Q(matches__gte=1), name="rating_change_has_matches"),
            models.CheckConstraint(
                condition=Q(sigma_before__gt=0) & Q(sigma_after__gt=0),
                name="rating_change_sigma_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.tournament_id}: {self.display_after}"

    @property
    def change(self) -> int:
        return self.display_after - self.display_before


class RatingRun(models.Model):
    """The log: every time the ratings were written, why, how, and by whom (a person only for
    the command run by someone signed in elsewhere; the signals run as nobody)."""

    class Kind(models.TextChoices):
        INCREMENTAL = "incremental", _("newest tournament added")
        REPLAY = "replay", _("replayed from a tournament on")
        FULL = "full", _("replayed from the first season")

    kind = models.CharField(max_length=12, choices=Kind.choices)
    reason = models.CharField(max_length=200, blank=True)
    from_tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    tournaments = models.PositiveIntegerField(default=0)  # tournaments rated in this run
    seconds = models.FloatField(default=0)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating run")
        verbose_name_plural = _("rating runs")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["incremental", "replay", "full"]), name="rating_run_kind"
            ),
            models.CheckConstraint(condition=Q(seconds__gte=0), name="rating_run_seconds"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.at:%Y-%m-%d %H:%M}"


class RatingLock(models.Model):
    """One row, locked (``select_for_update``) by every write of the ratings, so that two
    tournaments arriving at once are rated one after the other."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    # ``ratings.rating.METHOD`` when the stored ratings were last replayed: another method (a
    # new version whose maths or matches differ, or a database from before this field) replays
    # everything on the next run, so an upgrade never leaves ratings of the old way standing.
    method = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="rating_lock_single")]

    def __str__(self) -> str:
        return "ratings"
