"""The season's tallies add up in the database per table (and per deal at a substitute's
table): they must equal adding every counting deal one by one, as the tournament standings do."""

import pytest

from seasons.selectors.standings import _season_tallies
from tests.factories import EntryFactory
from tests.seasons.conftest import play, tournament_in
from tests.tournaments.standings.conftest import cego
from tournaments.models import SCORE_FIELDS, Deal, Seat, Substitution
from tournaments.selectors.standings import _tally, tournament_standings
from tournaments.services.desk_entry import annul_deal
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import void_table

pytestmark = pytest.mark.django_db


def deal_by_deal(season, bucket):
    seats = list(
        Seat.objects.filter(round__tournament__season=season).values(
            "id", "table_id", "position", "entry_id", bucket, "table__voided"
        )
    )
    voided = {s["table_id"] for s in seats if s["table__voided"]}
    substitutions = list(
        Substitution.objects.filter(seat__round__tournament__season=season).values(
            "seat_id", "entry_id", "from_deal"
        )
    )
    deals = [
        d
        for d in Deal.objects.filter(
            table__round__tournament__season=season, status=Deal.Status.CONFIRMED
        ).values("table_id", "number", "kind", "declarer_position", *SCORE_FIELDS)
        if d["table_id"] not in voided
    ]
    return _tally(seats=seats, substitutions=substitutions, deals=deals, bucket=bucket)


def as_dicts(tallies):
    return {
        entry_id: (tally.round_totals, tally.deals_played, tally.declarer_wins)
        for entry_id, tally in tallies.items()
    }


def test_database_sums_equal_adding_the_deals(season, organiser):
    first = tournament_in(season, "Herbstturnier", 14)
    second = tournament_in(season, "Winterturnier", 28)
    players = [EntryFactory(tournament=first) for _ in range(4)]
    table = play(first, players, [(0, 45), (1, 34), (2, 45), (3, 45), (0, 34)])
    substitute = EntryFactory(tournament=first)
    Substitution.objects.create(seat=table.seats.get(position=2), entry=substitute, from_deal=3)
    play(first, players, [(1, 45), (2, 45), (3, 34)], round_number=2)
    others = [EntryFactory(tournament=first) for _ in range(4)]
    struck = play(first, others, [(0, 45), (1, 45), (2, 34)], table_number=2)
    annul_deal(deal=Deal.objects.get(table=struck, number=2), reason="twice", user=organiser)
    voided = play(
        first, [EntryFactory(tournament=first) for _ in range(4)], [(0, 45)], table_number=3
    )
    void_table(table=voided, reason="lost sheet", user=organiser)
    again = [EntryFactory(tournament=second, player=e.player) for e in players]
    pending = play(second, again, [(3, 45), (2, 34)])
    # entered at the table, not confirmed yet: counts nothing
    enter_deal(table=pending, number=3, inputs=cego(1, 45), via="table")
    assert Deal.objects.filter(status=Deal.Status.PENDING).count() == 1

    for bucket in ("round__tournament_id", "round__number"):
        expected = as_dicts(deal_by_deal(season, bucket))
        assert as_dicts(_season_tallies(season, bucket=bucket)) == expected
        assert substitute.pk in expected and len(expected) == 13


def test_tournament_standings_equal_adding_the_deals(season, organiser):
    """The tournament standings add up in the database as well: the same totals, deals played
    and declarer wins as adding every counting deal one by one; open tables counted alike."""
    tournament = tournament_in(season, "Herbstturnier", 14)
    players = [EntryFactory(tournament=tournament) for _ in range(4)]
    table = play(tournament, players, [(0, 45), (1, 34), (2, 45), (3, 45), (0, 34)])
    substitute = EntryFactory(tournament=tournament)
    Substitution.objects.create(seat=table.seats.get(position=1), entry=substitute, from_deal=4)
    play(tournament, players, [(1, 45), (2, 45), (3, 34)], round_number=2)
    others = [EntryFactory(tournament=tournament) for _ in range(4)]
    struck = play(tournament, others, [(0, 45), (1, 45), (2, 34)], table_number=2)
    annul_deal(deal=Deal.objects.get(table=struck, number=2), reason="twice", user=organiser)
    enter_deal(table=struck, number=4, inputs=cego(3, 45), via="table")  # pending
    voided = play(
        tournament,
        [EntryFactory(tournament=tournament) for _ in range(4)],
        [(0, 45)],
        table_number=3,
    )
    void_table(table=voided, reason="lost sheet", user=organiser)

    expected = deal_by_deal(season, "round__number")
    standings = tournament_standings(tournament=tournament)
    got = {
        row.entry_id: (
            {
                n: t
                for n, t in zip(standings.round_numbers, row.round_totals, strict=True)
                if t is not None
            },
            row.deals_played,
            row.declarer_wins,
        )
        for row in standings.rows
    }
    # the players of the voided table are listed, with nothing counted
    assert {k: v for k, v in got.items() if v != ({}, 0, 0)} == as_dicts(expected)
    assert sum(1 for v in got.values() if v == ({}, 0, 0)) == 4
    assert substitute.pk in got and got[substitute.pk][1] == 2  # deals 4 and 5
    open_table = next(t for t in standings.open_tables if t.table_number == 2)
    assert (open_table.deals_confirmed, open_table.deals_pending) == (3, 1)  # annulled counts
