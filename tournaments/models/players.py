"""Who plays: the entries, their teams and the pairs the draw keeps apart."""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Category, Club, Player
from tournaments.models.tournament import Tournament


class Team(models.Model):
    """Up to four entries of one tournament who are ranked together (the sum of their totals).

    Across a season, teams of the same name are the same team.
    """

    SIZE = 4

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tournament")
    )
    name = models.CharField(_("team name"), max_length=80)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="teams",
        verbose_name=_("club"),
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player registered for a tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    number = models.PositiveIntegerField(_("start number"))
    category = models.CharField(
        _("category"), max_length=10, choices=Category.choices, default=Category.OPEN
    )
    fee_paid = models.BooleanField(_("entry fee paid"), default=False)
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"),
        null=True,
        blank=True,
        help_text=_("Empty while the player is in the tournament; 0 = withdrawn before round 1."),
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # A tournament played on paper and imported as one total per player (totals-only mode).
    paper_total = models.IntegerField(_("total from the paper list"), null=True, blank=True)
    # A member of the host club who made the count fit at the draw (Ersatzspieler): seated and
    # scored like anyone, plays free, listed after the ranked players without a place.
    fill_in = models.BooleanField(_("fill-in"), default=False)
    # "bleibt am Tisch": a player who cannot move easily keeps one table all day; the draw
    # seats them at the table they sat at in the latest earlier round (tournaments.draw).
    stays_at_table = models.BooleanField(
        _("stays at the table"),
        default=False,
        help_text=_("The player keeps the same table number in every round."),
    )
    # The service (tournaments.services.teams) keeps a team to its own tournament and to four.
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("team"),
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_player"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="entry_number_positive"),
            models.CheckConstraint(
                condition=Q(category__in=Category.values), name="entry_category_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.player.full_name}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None

    @property
    def plays_free(self) -> bool:
        """No entry fee to take: a fill-in, or youth where the tournament lets youth play free."""
        from tournaments.money import plays_free

        return self.fill_in or plays_free(tournament=self.tournament, category=self.category)


class KeepApart(models.Model):
    """Two entries the seat draw must not put at one table (couples, clubmates on request)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="keep_apart_pairs",
        verbose_name=_("tournament"),
    )
    first = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("first player")
    )
    second = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("second player")
    )
    reason = models.CharField(_("reason"), max_length=120, blank=True)

    class Meta:
        verbose_name = _("keep-apart pair")
        verbose_name_plural = _("keep-apart pairs")
        constraints = [
            # Stored in id order so that a pair cannot be entered twice the other way round.
            models.CheckConstraint(condition=Q(first__lt=F("second")), name="keep_apart_ordered"),
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="keep_apart_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"
