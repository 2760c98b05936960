"""Tournaments made directly of rounds, tables and confirmed deals: one deal per table whose
scores are the points each player made there (they add up to zero, as every deal does)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Deal, Entry, Round, Seat, Table, Tournament

# A round: its tables, each [(player, points at that table), ...]
Table_ = list[tuple[object, int]]


def played(rounds: list[list[Table_]], *, date: dt.date, finished: bool = True, **fields):
    """A tournament of ``rounds`` on ``date``; finished (without the save that would tell the
    receivers) unless asked otherwise."""
    tournament = TournamentFactory(
        date=date, rules_slug="swm", rounds=max(len(rounds), 1), **fields
    )
    entries: dict[int, Entry] = {}
    for round_number, tables in enumerate(rounds, start=1):
        round_ = Round.objects.create(
            tournament=tournament, number=round_number, draw_seed=1, state=Round.State.CLOSED
        )
        for table_number, seats in enumerate(tables, start=1):
            table = Table.objects.create(round=round_, number=table_number)
            for position, (player, _points) in enumerate(seats):
                entry = entries.get(player.pk)
                if entry is None:
                    entry = entries[player.pk] = Entry.objects.create(
                        tournament=tournament, player=player, number=len(entries) + 1
                    )
                Seat.objects.create(table=table, round=round_, position=position, entry=entry)
            deal = Deal(table=table, number=1, status=Deal.Status.CONFIRMED, contract="cego")
            deal.set_scores([points for _player, points in seats])
            deal.save()
    if finished:
        Tournament.objects.filter(pk=tournament.pk).update(finished_at=timezone.now())
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def people(db):
    return [PlayerFactory(first_name=f"Vorname{i}", last_name=f"Spieler{i}") for i in range(8)]


def a_tournament(people, *, day: int, shift: int = 0, month: int = 11, year: int = 2026):
    """Two rounds of two tables of four from ``people`` (eight), the order of finishing
    turned by ``shift`` so that tournaments differ; one tie in round 2."""
    order = people[shift:] + people[:shift]
    return played(
        [
            [
                [(order[0], 30), (order[1], 10), (order[2], -10), (order[3], -30)],
                [(order[4], 50), (order[5], -10), (order[6], -10), (order[7], -30)],
            ],
            [
                [(order[0], 20), (order[4], 20), (order[1], -10), (order[5], -30)],
                [(order[2], 40), (order[6], 0), (order[3], -20), (order[7], -20)],
            ],
        ],
        date=dt.date(year, month, day),
    )


__all__ = ["a_tournament", "played"]
