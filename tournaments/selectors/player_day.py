"""A player's own day, as their phone shows it ("Mein Platz"): their table and seat in the
latest round whose draw is released, that round's state and clock, and who else sits there.

Only what the public pages show: names, clubs, start numbers, tables and seats of released
draws (``Round.awaiting_release`` rounds are left out, as if not drawn). The place and total
come from the standings (the view reads them cached by revision). Four queries whatever the
field size.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from clubs.search import normalise
from tournaments.models import Entry, Round, Seat, Tournament
from tournaments.selectors.standings import home_clubs

# The most a search shows (a search for "a" in a field of 150 lists the first ones).
SEARCH_LIMIT = 30


@dataclass(frozen=True)
class SeatAt:
    table_number: int
    seat: int  # 1 = the first in playing order, as on the score sheet
    others: tuple[str, ...]  # the others at the table, in playing order from this seat


@dataclass(frozen=True)
class PlayerDay:
    entry: Entry
    club: str
    round: Round | None  # the latest released round
    seat: SeatAt | None  # this player's seat in it (None: not drawn in it)
    next_round_held: int | None  # a later round drawn but not released yet
    rounds: int  # of the tournament


def player_day(*, tournament: Tournament, number: int) -> PlayerDay | None:
    """The entry with start ``number`` and where it sits; None if there is no such entry."""
    entry = (
        Entry.objects.filter(tournament=tournament, number=number).select_related("player").first()
    )
    if entry is None:
        return None
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    released = [r for r in rounds if not r.awaiting_release]
    current = released[-1] if released else None
    held = [r.number for r in rounds if r.awaiting_release]
    seat = None
    if current is not None:
        seats = list(
            Seat.objects.filter(table__round=current, table__seats__entry=entry)
            .select_related("table", "entry__player")
            .order_by("position")
        )
        mine = next((s for s in seats if s.entry_id == entry.pk), None)
        if mine is not None:
            after = [s for s in seats if s.position > mine.position]
            before = [s for s in seats if s.position < mine.position]
            seat = SeatAt(
                table_number=mine.table.number,
                seat=mine.position + 1,
                others=tuple(s.entry.player.full_name for s in after + before),
            )
    return PlayerDay(
        entry=entry,
        club=home_clubs(pk=entry.player_id).get(entry.player_id, ""),
        round=current,
        seat=seat,
        next_round_held=held[0] if held and (current is None or held[0] > current.number) else None,
        rounds=tournament.rounds,
    )


def find_players(*, tournament: Tournament, query: str) -> QuerySet[Entry]:
    """The tournament's entries whose start number is ``query``, or whose names contain every
    word of it ("Schaefer" finds "Schäfer"), in alphabetical order."""
    entries = tournament.entries.select_related("player")
    query = query.strip()
    if query.isdigit():
        return entries.filter(number=int(query))
    words = normalise(query).split()
    if not words:
        return entries.none()
    for word in words:
        entries = entries.filter(player__search_key__contains=word)
    return entries.order_by("player__sort_key", "number")[:SEARCH_LIMIT]
