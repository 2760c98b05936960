"""The prize ceremony's programme, step by step as the projector shows it, and the raffle's
candidates. A constant number of queries: the standings (cached by revision), the prize money
(``treasury.selectors``), the settings and the raffle's draws.

The steps: the prize places from the last one upwards (players tied on a place share a step),
the side prizes that the standings hold (best woman, best youth, best senior, the last place:
the "Wurstsalat"; before it the youngest and the oldest player, where they agreed to be named
for their age: ``clubs.ages``), the prize table's call order (place 1 chooses first) and the
raffle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ceremony.models import CeremonySettings, RaffleDraw
from clubs.ages import AgedPlayer, Ages, youngest_and_oldest
from clubs.models import Category
from tournaments.models import Entry, Tournament
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.standings import StandingRow, Standings, standings_at_revision
from treasury.selectors import tournament_money

PLACE, SIDE, CHOOSE, RAFFLE = "place", "side", "choose", "raffle"
DEFAULT_PRIZE_PLACES = 3


@dataclass(frozen=True)
class Winner:
    entry_id: int
    number: int
    name: str
    club: str
    total: int


@dataclass(frozen=True)
class Step:
    kind: str  # PLACE, SIDE, CHOOSE or RAFFLE
    title: str  # "Platz 3", "Beste Frau", "Platz 1 wählt", "Verlosung"
    winners: tuple[Winner, ...] = ()
    amount_cents: int | None = None  # the prize money of a place, where the treasurer set it
    place: int | None = None


@dataclass(frozen=True)
class Programme:
    tournament: Tournament
    settings: CeremonySettings | None
    steps: tuple[Step, ...]
    draws: tuple[RaffleDraw, ...] = field(default=())

    @property
    def revealed(self) -> bool:
        return self.settings is not None and self.settings.revealed_at is not None

    @property
    def shown(self) -> int:
        """How many steps the projector shows (0: the title)."""
        if self.settings is None:
            return 0
        return min(self.settings.shown_steps, len(self.steps))

    @property
    def current(self) -> Step | None:
        return self.steps[self.shown - 1] if self.shown else None

    @property
    def upcoming(self) -> Step | None:
        return self.steps[self.shown] if self.shown < len(self.steps) else None


def _winner(row: StandingRow) -> Winner:
    return Winner(
        entry_id=row.entry_id, number=row.number, name=row.name, club=row.club, total=row.total
    )


def _by_place(rows: list[StandingRow]) -> dict[int, list[StandingRow]]:
    places: dict[int, list[StandingRow]] = {}
    for row in rows:
        places.setdefault(row.rank, []).append(row)
    return places


def prize_places(*, standings: Standings, shares: int, hidden_top: int | None) -> int:
    """How many places the ceremony calls: the places with prize money, else the places
    hidden until it, else three."""
    ranked = [row for row in standings.rows if not row.fill_in and not row.withdrawn]
    wanted = shares or hidden_top or DEFAULT_PRIZE_PLACES
    return min(wanted, len(ranked))


def programme(*, tournament: Tournament) -> Programme:
    standings = standings_at_revision(tournament=tournament)
    settings = CeremonySettings.objects.filter(tournament=tournament).first()
    money = tournament_money(tournament=tournament, standings=standings)
    amounts: dict[int, int] = {}
    for line in money.prizes:
        amounts[line.entry_id] = line.amount_cents
    groups = prize_groups(standings)
    playing = [
        row
        for row in standings.rows
        if not row.fill_in and not row.withdrawn and any(t is not None for t in row.round_totals)
    ]
    places = prize_places(
        standings=standings,
        shares=len(tournament.prize_shares_cents or []),
        hidden_top=settings.hide_top_n if settings is not None else None,
    )
    called = _by_place([row for row in playing if row.rank <= places])
    steps: list[Step] = []
    for place in sorted(called, reverse=True):
        rows = called[place]
        steps.append(
            Step(
                kind=PLACE,
                title=_("Place %(place)s") % {"place": place},
                winners=tuple(_winner(row) for row in rows),
                amount_cents=amounts.get(rows[0].entry_id),
                place=place,
            )
        )
    seniors = [row for row in playing if row.category == Category.SENIOR]
    best_senior = [row for row in seniors if row.rank == seniors[0].rank] if seniors else []
    ages = playing_ages(tournament=tournament, rows=playing)
    sides = (
        (_("Best woman"), groups.best_woman),
        (_("Best youth"), groups.best_youth),
        (_("Best senior"), best_senior),
        (_("Youngest player"), list(ages.youngest)),
        (_("Oldest player"), list(ages.oldest)),
        (_("Last place (Wurstsalat)"), groups.last),
    )
    for title, rows in sides:
        if rows:
            steps.append(
                Step(
                    kind=SIDE,
                    title=title,
                    winners=tuple(_winner(row) for row in rows),
                    place=rows[0].rank,
                )
            )
    for place in sorted(called):
        for row in called[place]:
            steps.append(
                Step(
                    kind=CHOOSE,
                    title=_("Place %(place)s chooses") % {"place": place},
                    winners=(_winner(row),),
                    amount_cents=amounts.get(row.entry_id),
                    place=place,
                )
            )
    steps.append(Step(kind=RAFFLE, title=_("Raffle")))
    draws = tuple(RaffleDraw.objects.filter(tournament=tournament).order_by("number"))
    return Programme(tournament=tournament, settings=settings, steps=tuple(steps), draws=draws)


def playing_ages(*, tournament: Tournament, rows: list[StandingRow]) -> Ages[StandingRow]:
    """The youngest and the oldest of ``rows`` who agreed to be named for it (one query)."""
    known = {
        entry_id: (birth_year, agreed)
        for entry_id, birth_year, agreed in Entry.objects.filter(
            tournament=tournament, pk__in=[row.entry_id for row in rows]
        ).values_list("pk", "player__birth_year", "player__named_for_age")
    }
    return youngest_and_oldest(
        AgedPlayer(key=row, birth_year=known[row.entry_id][0], agreed=known[row.entry_id][1])
        for row in rows
        if row.entry_id in known
    )


def prize_winner_ids(current: Programme) -> set[int]:
    """The entries the programme gives a prize (a place or a side prize)."""
    return {
        winner.entry_id
        for step in current.steps
        if step.kind in (PLACE, SIDE)
        for winner in step.winners
    }


def raffle_candidates(*, tournament: Tournament, exclude: set[int]) -> list[tuple[int, int, str]]:
    """(start number, entry id, name) of the players checked in and still there, in
    start-number order, without the entries in ``exclude``."""
    entries = (
        Entry.objects.filter(
            tournament=tournament, checked_in=True, withdrawn_after_round__isnull=True
        )
        .exclude(pk__in=exclude)
        .select_related("player")
        .order_by("number")
    )
    return [(entry.number, entry.pk, entry.player.full_name) for entry in entries]
