import pytest

from seasons.selectors.standings import season_standings
from tests.factories import EntryFactory, SeasonFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, LotDraw, Round, Substitution, Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.services.desk_entry import annul_deal
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import void_table
from tournaments.services.standings import draw_lots

pytestmark = pytest.mark.django_db


def cego(declarer: int, points: int) -> dict:
    return {"contract": "cego", "declarer": declarer, "declarer_points": points}


def by_number(standings):
    return {row.number: row for row in standings.rows}


def test_totals_follow_confirmed_deals_only(swm_tournament, organiser):
    table = seat_table(tournament=swm_tournament)
    numbers = [seat.entry.number for seat in table.seats.order_by("position")]
    enter_deal(table=table, number=1, inputs=cego(0, 45))  # 2 Fach * 5 * 1 = 10 each
    pending = enter_deal(
        table=table, number=2, inputs=cego(1, 79), via="table", entered_by_position=1
    )
    annulled = enter_deal(table=table, number=3, inputs=cego(2, 79))
    annul_deal(deal=annulled, reason="vergeben", user=organiser)
    rows = by_number(tournament_standings(tournament=swm_tournament))
    assert [rows[n].total for n in numbers] == [30, -10, -10, -10]
    assert rows[numbers[0]].declarer_wins == 1
    assert pending.status == Deal.Status.PENDING


def test_voided_table_counts_nothing(swm_tournament, organiser):
    table = seat_table(tournament=swm_tournament)
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    void_table(table=table, reason="Schreibfehler", user=organiser)
    assert {row.total for row in tournament_standings(tournament=swm_tournament).rows} == {0}


def test_substitute_gets_the_deals_from_the_switch_on(swm_tournament):
    table = seat_table(tournament=swm_tournament)
    seat = table.seats.get(position=0)
    substitute = EntryFactory(tournament=swm_tournament)
    Substitution.objects.create(seat=seat, entry=substitute, from_deal=2)
    enter_deal(table=table, number=1, inputs=cego(0, 45))  # original player +30
    enter_deal(table=table, number=2, inputs=cego(0, 34))  # substitute loses: 2 Fach -> -30
    rows = by_number(tournament_standings(tournament=swm_tournament))
    assert rows[seat.entry.number].total == 30
    assert rows[substitute.number].total == -30
    assert rows[seat.entry.number].deals_played == 1


def test_round_totals_and_open_tables(swm_tournament):
    first = seat_table(tournament=swm_tournament, round_number=1)
    enter_deal(table=first, number=1, inputs=cego(0, 45))
    standings = tournament_standings(tournament=swm_tournament)
    assert standings.round_numbers == (1,)
    assert [
        (t.table_number, t.deals_confirmed, t.deals_expected) for t in standings.open_tables
    ] == [(1, 1, 24)]
    Round.objects.filter(pk=first.round_id).update(state=Round.State.CLOSED)
    assert tournament_standings(tournament=swm_tournament).finished


def test_tie_broken_by_best_round_then_by_recorded_lot(db, organiser):
    tournament = TournamentFactory(tie_break=Tournament.TieBreak.BEST_ROUND)
    table = seat_table(tournament=tournament)
    # Seats 1..3 lose 10 each: three-way tie below the winner.
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    standings = tournament_standings(tournament=tournament)
    assert [row.rank for row in standings.rows] == [1, 2, 2, 2]
    assert [row.tied for row in standings.rows] == [False, True, True, True]
    assert len(standings.unresolved_ties) == 1
    (lot,) = draw_lots(tournament=tournament, user=organiser, reason="Gleichstand")
    after = tournament_standings(tournament=tournament)
    assert [row.rank for row in after.rows] == [1, 2, 3, 4]
    assert [row.entry_id for row in after.rows[1:]] == lot.order
    assert all(row.decided_by_lot for row in after.rows[1:])
    assert after.unresolved_ties == ()
    assert (
        draw_lots(tournament=tournament, user=organiser, reason="Gleichstand") == []
    )  # nothing left to draw
    assert LotDraw.objects.get().seed == lot.seed


def test_best_round_separates_equal_totals(db):
    tournament = TournamentFactory(tie_break=Tournament.TieBreak.BEST_ROUND)
    first = seat_table(tournament=tournament, round_number=1)
    a, b = (s.entry for s in first.seats.order_by("position")[:2])
    enter_deal(table=first, number=1, inputs=cego(0, 45))  # a +30, b -10
    second = seat_table(tournament=tournament, round_number=2, table_number=1, size=2)
    # Put a and b together at a table of 4 in round 2 to even out their totals.
    second.seats.all().delete()
    others = [EntryFactory(tournament=tournament) for _ in range(2)]
    for position, entry in enumerate([a, b, *others]):
        second.seats.create(round=second.round, position=position, entry=entry)
    enter_deal(table=second, number=1, inputs=cego(1, 50))  # b +60, a -20 -> a 10, b 50
    enter_deal(table=second, number=2, inputs=cego(0, 50))  # a +60, b -20 -> a 70, b 30
    enter_deal(table=second, number=3, inputs=cego(1, 45))  # b +30, a -10 -> a 60, b 60
    rows = by_number(tournament_standings(tournament=tournament))
    assert rows[a.number].total == rows[b.number].total == 60
    # a scored 30 in each round; b -10 and 70: b's best round is better.
    assert rows[b.number].rank < rows[a.number].rank
    assert not rows[a.number].tied


@pytest.mark.parametrize("tables", [5, 25])
def test_standings_queries_do_not_grow_with_players(db, django_assert_num_queries, tables):
    tournament = TournamentFactory()
    for number in range(1, tables + 1):
        table = seat_table(tournament=tournament, table_number=number)
        for deal_number in range(1, 4):
            enter_deal(table=table, number=deal_number, inputs=cego(deal_number % 4, 50))
    with django_assert_num_queries(7):
        standings = tournament_standings(tournament=tournament)
    assert len(standings.rows) == tables * 4
    assert sum(row.total for row in standings.rows) == 0


def test_season_standings_sum_tournaments_including_negative(db, django_assert_num_queries):
    season = SeasonFactory()
    first = TournamentFactory(season=season)
    second = TournamentFactory(season=season)
    table_one = seat_table(tournament=first)
    table_two = seat_table(tournament=second)
    player = table_one.seats.get(position=0).entry.player
    # The same player plays in the second tournament too, at seat 1.
    seat = table_two.seats.get(position=1)
    seat.entry.player = player
    seat.entry.save()
    enter_deal(table=table_one, number=1, inputs=cego(0, 45))  # +30
    enter_deal(table=table_two, number=1, inputs=cego(0, 45))  # seat 1: -10
    season_standings(season=season)  # the first reader stores each tournament's results
    # the sixth: the season's planned dates (the Finale); the seventh: the series memberships
    with django_assert_num_queries(7):
        ranking = season_standings(season=season)
    row = next(r for r in ranking.rows if r.player_id == player.pk)
    assert row.total == 20
    assert row.tournament_totals == (30, -10)
    assert row.tournaments_played == 2
    totals = [r.total for r in ranking.rows]
    assert totals == sorted(totals, reverse=True)
    assert len(ranking.rows) == 7  # 8 entries, one player twice
