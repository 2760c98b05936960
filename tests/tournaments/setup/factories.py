"""Helpers for the setup, check-in and draw tests."""

from __future__ import annotations

from clubs.models import Player
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Deal, Entry, Tournament


def tournament_with_players(
    count: int, *, checked_in: bool = True, **tournament_fields
) -> tuple[Tournament, list[Entry]]:
    """A tournament with ``count`` entries numbered 1..count (bulk-created)."""
    tournament = TournamentFactory(**tournament_fields)
    players = Player.objects.bulk_create(
        [Player(first_name=f"Vorname{i}", last_name=f"Spieler{i:03d}") for i in range(count)]
    )
    entries = Entry.objects.bulk_create(
        [
            Entry(tournament=tournament, player=player, number=i + 1, checked_in=checked_in)
            for i, player in enumerate(players)
        ]
    )
    return tournament, entries


def add_total(table) -> Deal:
    """Store a deal at ``table`` directly (a started round), bypassing the result service."""
    size = table.seats.count()
    deal = Deal(table=table, number=1, contract="solo", declarer_position=0)
    deal.set_scores([3 * (size - 1)] + [-3] * (size - 1))
    deal.save()
    return deal


__all__ = [
    "EntryFactory",
    "PlayerFactory",
    "TournamentFactory",
    "add_total",
    "tournament_with_players",
]
