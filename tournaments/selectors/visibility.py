"""What the public may see of a tournament's standings while the desk hides the top places
for the prize ceremony (``ceremony.models.CeremonySettings``).

One answer for every public document: the standings page and its live part, the projector,
"Mein Platz", the read API, the standings list PDF and the season's stored results
(``seasons.selectors.results``). Who sees everything anyway (the desk and the referees) is
``clubs.permissions.sees_hidden_places``; the projector, the phones and the API are the
public's whoever asks.

Hiding is on while the settings name a round (``hide_from_round``), a round of at least that
number is drawn (round 1 or less: from the start), and the desk has not revealed the places
yet. Every change of the settings bumps the tournament's revision, and so does every draw: a
page cached by revision is never built under one hiding and shown under another.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ceremony.models import CeremonySettings
from tournaments.models import Round, Tournament
from tournaments.selectors.standings import StandingRow, Standings


@dataclass(frozen=True)
class Hiding:
    """The places hidden from the public now: the top ``top`` places, or all (None)."""

    top: int | None
    from_round: int

    def hides(self, row: StandingRow) -> bool:
        if self.top is None:
            return True
        return not row.fill_in and row.rank <= self.top

    @property
    def everything(self) -> bool:
        return self.top is None


def hiding(*, tournament: Tournament) -> Hiding | None:
    """The hiding in force for ``tournament`` now, or None (two queries at most)."""
    found = (
        CeremonySettings.objects.filter(
            tournament_id=tournament.pk, hide_from_round__isnull=False, revealed_at__isnull=True
        )
        .values_list("hide_from_round", "hide_top_n")
        .first()
    )
    if found is None:
        return None
    from_round, top = found
    from_round = from_round or 1  # the query asked for a round
    if (
        from_round > 1
        and not Round.objects.filter(tournament_id=tournament.pk, number__gte=from_round).exists()
    ):
        return None
    return Hiding(top=top, from_round=from_round)


def public_standings(standings: Standings, *, shown: Hiding | None) -> Standings:
    """``standings`` without the hidden places' rows (and without the ties and teams, which
    would name them); ``standings`` itself where nothing is hidden."""
    if shown is None:
        return standings
    return replace(
        standings,
        rows=tuple(row for row in standings.rows if not shown.hides(row)),
        unresolved_ties=(),
        teams=(),
    )
