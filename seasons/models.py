"""A season: the tournaments that add up to one ranking, and the rule by which they do.

The table kept the name it had when the model lived in ``tournaments``
(``tournaments_season``): the move was a change of Django's state only.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# Days after a tournament is finished during which its results may be appealed (Skat: 14).
DEFAULT_APPEAL_DAYS = 14
MAX_APPEAL_DAYS = 365


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
    # The association's final: who has played at least this many tournaments qualifies
    # (None: the season has no such rule). Independent of best N and of min_tournaments.
    final_min_tournaments = models.PositiveSmallIntegerField(
        _("tournaments needed for the final"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_(
            "Players who have played at least this many tournaments of the season qualify "
            "for the final. Leave empty if the season has no final."
        ),
    )
    # How many tournaments the season holds in all, played ones included (None: not said).
    # With the planned dates (PlannedTournament) it tells the final's column how many are
    # still to come (seasons.ranking.season_plan).
    planned_tournaments = models.PositiveSmallIntegerField(
        _("planned tournaments in the season"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_(
            "How many tournaments the season will have in all, played ones included. "
            "Leave empty if it is not known yet."
        ),
    )
    # Counts the changes of the season's planned dates (seasons.services.set_season_rules):
    # the caches keyed by the season's fields (tournaments.caching.season_stamp) follow them
    # without reading the dates.
    plan_revision = models.PositiveIntegerField(default=0, editable=False)
    # The appeal window: a tournament's results are provisional until this many days after it
    # was finished (whole days, local time), then final (``tournaments.finality``).
    appeal_days = models.PositiveSmallIntegerField(
        _("appeal window (days)"),
        default=DEFAULT_APPEAL_DAYS,
        validators=[MaxValueValidator(MAX_APPEAL_DAYS)],
        help_text=_(
            "A tournament's results are provisional until this many days after it was "
            "finished (or until the season scorer confirms them), then final."
        ),
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
            models.CheckConstraint(
                condition=Q(final_min_tournaments__isnull=True) | Q(final_min_tournaments__gte=1),
                name="season_final_min_tournaments_positive",
            ),
            models.CheckConstraint(
                condition=Q(planned_tournaments__isnull=True) | Q(planned_tournaments__gte=1),
                name="season_planned_tournaments_positive",
            ),
            models.CheckConstraint(
                condition=Q(appeal_days__lte=MAX_APPEAL_DAYS), name="season_appeal_days_bounded"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlannedTournament(models.Model):
    """A date in the season's calendar, planned before (or without) the host creating the
    tournament. A tournament of the season on the same date takes its place: the calendar then
    shows the tournament, and the final's column counts the date once
    (``seasons.ranking.season_plan``)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="planned", verbose_name=_("season")
    )
    date = models.DateField(_("date"))
    # Free text as the association's calendar says it: the host, the town, the name.
    note = models.CharField(_("host or place"), max_length=120, blank=True)

    class Meta:
        verbose_name = _("planned tournament")
        verbose_name_plural = _("planned tournaments")
        ordering = ["date", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "date", "note"], name="planned_tournament_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date:%d.%m.%Y} {self.note}".strip()


class TournamentResultSet(models.Model):
    """Which revision of a tournament its stored results (``TournamentResult``) were worked out
    at. Results are read only while this equals ``Tournament.revision``; otherwise they are
    worked out again (``seasons.selectors.results``)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("tournament"),
    )
    revision = models.IntegerField(_("revision"))
    # ``seasons.selectors.results.RESULTS_METHOD`` they were worked out by: rows of an older
    # version (one that ranked no-shows, say) are worked out again, whatever the revision.
    method = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("stored tournament results")
        verbose_name_plural = _("stored tournament results")

    def __str__(self) -> str:
        return f"{self.tournament_id}@{self.revision}"


class TournamentResult(models.Model):
    """One entry's result in one tournament, worked out from its deals at the revision of the
    tournament's ``TournamentResultSet``: what the player page, the season page and the
    season workbook read instead of adding up every deal again."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    entry = models.OneToOneField("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    total = models.IntegerField(null=True)  # None: registered, no result
    place = models.PositiveIntegerField(null=True)  # by total among those with a result
    declarer_wins = models.PositiveIntegerField(default=0)
    # contract -> [declared, won, points as declarer, defended, points as defender]
    contracts = models.JSONField(default=dict)
    penalties = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("stored tournament result")
        verbose_name_plural = _("stored tournament results")
        constraints = [
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(total__isnull=False),
                name="result_place_needs_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.total}"


class Appeal(models.Model):
    """An appeal against a tournament's results, as the association received it (from a
    player or a club, named in words), and the season scorer's decision with its reason.
    While one is open the tournament's results stay provisional; one decided "needs a
    correction" keeps them provisional until the scorer confirms them after the correction
    (``tournaments.finality``). The correction itself is a deal correction as any other,
    with its own history (the tournament's pages, where the tournament is written).

    Who sees what (``clubs.permissions.JUDGE_RESULTS``): the season scorer everything; the
    public that an appeal was received (the date), whether it is open, and the decision with
    its reason, never the appellant or the appellant's text."""

    class Outcome(models.TextChoices):
        UPHELD = "upheld", _("upheld")
        PARTLY_UPHELD = "partly_upheld", _("partly upheld")
        REJECTED = "rejected", _("rejected")
        WITHDRAWN = "withdrawn", pgettext_lazy("appeal", "withdrawn")

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="appeals",
        verbose_name=_("tournament"),
    )
    appellant = models.CharField(_("appellant"), max_length=160)
    text = models.TextField(_("what is appealed"), max_length=4000)
    received_on = models.DateField(_("received on"))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    outcome = models.CharField(
        _("decision"), max_length=16, choices=Outcome.choices, blank=True, default=""
    )
    reason = models.TextField(_("reason for the decision"), max_length=4000, blank=True)
    needs_correction = models.BooleanField(_("results to be corrected"), default=False)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        ordering = ["-received_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome__in=["", "upheld", "partly_upheld", "rejected", "withdrawn"]),
                name="appeal_outcome_valid",
            ),
            models.CheckConstraint(
                condition=~Q(appellant="") & ~Q(text=""), name="appeal_says_who_and_what"
            ),
            # Open: no decision of any kind. Decided: when, and why.
            models.CheckConstraint(
                condition=(
                    Q(outcome="", decided_at__isnull=True, reason="", needs_correction=False)
                    | (~Q(outcome="") & Q(decided_at__isnull=False) & ~Q(reason=""))
                ),
                name="appeal_decided_with_reason",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "outcome"], name="appeal_by_tournament")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.appellant} ({self.received_on})"

    @property
    def is_open(self) -> bool:
        return not self.outcome


class ResultConfirmation(models.Model):
    """The season scorer confirmed a tournament's results before its appeal window closed
    (append-only: one row per confirmation). Counts only if made after the tournament's
    latest finish: a tournament reopened and finished again is provisional again."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="result_confirmations",
        verbose_name=_("tournament"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), default=timezone.now)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )

    class Meta:
        verbose_name = _("confirmation of results")
        verbose_name_plural = _("confirmations of results")
        ordering = ["-confirmed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament_id} @ {self.confirmed_at}"


class SeriesMembership(models.Model):
    """A tournament that also counts for another series than its own season (issue 41): a
    village series over several pubs, a club's championship, a cup feeding a higher final.

    The tournament's ``season`` stays its home season, so that every season stays as it was
    before series existed; this row adds one more series it counts for, under that series'
    own rule (its ``Season`` fields: sum, best N, cup points, minimum, final). Which
    tournaments a season counts is :func:`counted_tournaments` (home and also-counting),
    read by every page, workbook, feed and document of a season
    (``seasons.selectors.series.season_tournaments``). Added and removed through
    ``seasons.services_series``, which refuses the home season (a row here naming the home
    season would count nothing twice: the reads take each tournament once)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="series_memberships",
        verbose_name=_("tournament"),
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        related_name="also_counting",
        verbose_name=_("series"),
    )
    added_at = models.DateTimeField(_("added at"), default=timezone.now)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("added by"),
    )

    class Meta:
        verbose_name = _("also counts for")
        verbose_name_plural = _("also counts for")
        ordering = ["season__starts_on", "season__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "season"], name="series_membership_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} -> {self.season_id}"

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        if self.tournament_id and self.season_id:
            home = self.tournament.season_id
            if home == self.season_id:
                raise ValidationError(
                    _("The tournament already belongs to this season; it counts there anyway.")
                )


def counted_tournaments(season_ids):
    """The tournaments that count for any of ``season_ids``: their home season is one of
    them, or they also count for one (``SeriesMembership``). A query set of ``Tournament``
    (each once, whatever the number of seasons it counts for); used as a subquery
    (``tournament_id__in=counted_tournaments(ids).values("pk")``) it adds no query."""
    tournament_model = SeriesMembership._meta.get_field("tournament").related_model
    ids = list(season_ids)
    return tournament_model.objects.filter(
        Q(season_id__in=ids)
        | Q(pk__in=SeriesMembership.objects.filter(season_id__in=ids).values("tournament_id"))
    )
