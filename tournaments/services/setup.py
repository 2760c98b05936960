"""Creating tournaments and registering players."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Max

from rules.registry import rule_source_data
from tournaments.models import Club, Entry, Player, Season, Tournament


@transaction.atomic
def create_tournament(
    *,
    name: str,
    host_club: Club,
    date: dt.date,
    rules_slug: str,
    season: Season | None = None,
    venue: str = "",
    rounds: int = 2,
    deals_per_round: int = 24,
    table_sizes: frozenset[int] = frozenset({4}),
    preferred_table_size: int = 4,
    entry_mode: str = Tournament.EntryMode.DEALS,
    tie_break: str = Tournament.TieBreak.BEST_ROUND,
) -> Tournament:
    """Create a tournament and pin a snapshot of its rule source's parameters."""
    tournament = Tournament(
        name=name,
        host_club=host_club,
        date=date,
        season=season,
        venue=venue,
        rules_slug=rules_slug,
        rules_snapshot=rule_source_data(rules_slug),
        rounds=rounds,
        deals_per_round=deals_per_round,
        preferred_table_size=preferred_table_size,
        tables_of_3=3 in table_sizes,
        tables_of_4=4 in table_sizes,
        tables_of_5=5 in table_sizes,
        entry_mode=entry_mode,
        tie_break=tie_break,
    )
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def register_player(
    *, tournament: Tournament, player: Player, category: str | None = None
) -> Entry:
    """Register a player; the start number is the next free one in the tournament."""
    # Lock the tournament row so that two desks registering at once get distinct numbers.
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    highest = tournament.entries.aggregate(highest=Max("number"))["highest"] or 0
    entry = Entry(
        tournament=tournament,
        player=player,
        number=highest + 1,
        category=category or player.category,
    )
    entry.full_clean()
    entry.save()
    return entry
