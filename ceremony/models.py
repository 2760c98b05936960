"""The prize ceremony's settings and records of a tournament.

``CeremonySettings``: from which round the top places (or the whole standings) are hidden from
the public, and when the desk revealed them ("Siegerehrung starten"). Who may see hidden places
is ``clubs.permissions.sees_hidden_places``; what the public is shown is
``tournaments.selectors.visibility``. Every change bumps the tournament's revision (public
pages and their caches are keyed on it), inside ``ceremony.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class CeremonySettings(models.Model):
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="ceremony"
    )
    # Hiding is on while a round numbered this or higher is drawn (1: from the start);
    # None: nothing is hidden.
    hide_from_round = models.PositiveSmallIntegerField(_("hide from round"), null=True, blank=True)
    # The places hidden: the top N; None: the whole standings.
    hide_top_n = models.PositiveSmallIntegerField(_("hide the top places"), null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    revealed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The ceremony on the projector (step by step): how many of its steps are shown.
    shown_steps = models.PositiveIntegerField(default=0)
    changed_at = models.DateTimeField(auto_now=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("ceremony settings")

    def __str__(self) -> str:
        return f"ceremony of tournament {self.tournament_id}"

    @property
    def hiding_set(self) -> bool:
        return self.hide_from_round is not None


class RaffleDraw(models.Model):
    """One draw of the raffle among the players present, kept so that it can be shown to be
    fair: the seed and the candidates in start-number order decide the winner
    (``random.Random(seed).choice(candidates)``), anyone can draw it again."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="raffle_draws"
    )
    number = models.PositiveIntegerField()  # 1 for the first prize drawn, …
    seed = models.BigIntegerField()
    # [[start number, entry id, name], …] in start-number order, as drawn from
    candidates = models.JSONField()
    excluded_prize_winners = models.BooleanField(default=False)
    winner_entry = models.ForeignKey(
        "tournaments.Entry", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    winner_number = models.PositiveIntegerField()
    winner_name = models.CharField(max_length=200)
    drawn_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="raffle_draw_once"),
        ]

    def __str__(self) -> str:
        return f"raffle {self.number} of tournament {self.tournament_id}: {self.winner_name}"
