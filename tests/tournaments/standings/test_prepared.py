"""The standings' queries are built by the ORM once and run again with each tournament's id
(``tournaments.selectors.prepared``): the standings must be exactly those the ORM's querysets
give, built anew for every call, on varied data (ties and a draw by lot, substitutes at two
tables, a voided table, an annulled and a pending deal, a penalty, players withdrawn, a
fill-in, teams, a tournament from a paper list), one tournament after another (the query
compiled for the first tournament answers for the next)."""

import pytest

from clubs.models import Membership
from tests.factories import ClubFactory, EntryFactory, MembershipFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.standings.conftest import cego
from tournaments.models import Deal, Entry, Seat, Substitution, Team, Tournament
from tournaments.selectors import standings as selector
from tournaments.selectors.prepared import PreparedValues
from tournaments.services.desk_entry import annul_deal
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import void_table
from tournaments.services.standings import draw_lots

pytestmark = pytest.mark.django_db

PENALTY = {
    "contract": "cego",
    "declarer": 1,
    "declarer_points": 50,
    "penalty": {"seat": 3, "kind": "revoke"},
}


def by_the_orm(monkeypatch) -> None:
    """Every prepared query built by the ORM anew, as before."""
    monkeypatch.setattr(
        PreparedValues, "rows", lambda self, *args, using="default": list(self._build(*args))
    )


def varied(organiser, *, tie_break: str, deals: int) -> Tournament:
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24, tie_break=tie_break)
    club = ClubFactory()
    first = seat_table(tournament=tournament, round_number=1, table_number=1)
    second = seat_table(tournament=tournament, round_number=1, table_number=2)
    third = seat_table(tournament=tournament, round_number=1, table_number=3)
    for number in range(1, deals + 1):
        enter_deal(table=first, number=number, inputs=cego(number % 4, 45 if number % 3 else 34))
        enter_deal(table=second, number=number, inputs=cego((number + 1) % 4, 45))
    enter_deal(table=third, number=1, inputs=cego(0, 45))
    void_table(table=third, reason="lost sheet", user=organiser)
    annul_deal(deal=Deal.objects.get(table=second, number=2), reason="twice", user=organiser)
    # substitutes at two tables (the grouped query's list of tables has two items)
    for table, position, from_deal in ((first, 1, 2), (second, 3, 3)):
        Substitution.objects.create(
            seat=table.seats.get(position=position),
            entry=EntryFactory(tournament=tournament),
            from_deal=from_deal,
        )
    # round 2: the same players meet again; a penalty, a pending deal
    later = seat_table(tournament=tournament, round_number=2, table_number=1)
    later.seats.all().delete()
    for position, seat in enumerate(first.seats.order_by("position")):
        Seat.objects.create(table=later, round=later.round, position=position, entry=seat.entry)
    enter_deal(table=later, number=1, inputs=PENALTY)
    enter_deal(table=later, number=2, inputs=cego(2, 45))
    enter_deal(table=later, number=3, inputs=cego(0, 45), via="table")  # pending
    # withdrawn players (one after round 1, one before it without a deal), a fill-in, a team,
    # clubs beside the names
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    Entry.objects.filter(pk=entries[4].pk).update(withdrawn_after_round=1)
    EntryFactory(tournament=tournament, withdrawn_after_round=0)
    Entry.objects.filter(pk=entries[5].pk).update(fill_in=True)
    team = Team.objects.create(tournament=tournament, name="Die Asse", club=club)
    Entry.objects.filter(pk__in=[e.pk for e in entries[:3]]).update(team=team)
    for entry in entries[:6]:
        MembershipFactory(player=entry.player, club=club, status=Membership.Status.ACTIVE)
    draw_lots(tournament=tournament, user=organiser, reason="Gleichstand")
    enter_deal(table=later, number=4, inputs=cego(3, 45))
    # new ties after the draw: three fresh players at -10
    newcomers = seat_table(tournament=tournament, round_number=2, table_number=2)
    enter_deal(table=newcomers, number=1, inputs=cego(0, 45))
    return tournament


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("orga", "", "pw")


@pytest.mark.parametrize(
    "tie_break",
    [Tournament.TieBreak.LOT, Tournament.TieBreak.BEST_ROUND, Tournament.TieBreak.MOST_WON],
)
def test_prepared_standings_equal_the_orm_built_anew(monkeypatch, organiser, tie_break):
    tournaments = [varied(organiser, tie_break=tie_break, deals=n) for n in (5, 7)]
    paper = TournamentFactory(rules_slug="swm")
    for total in (120, -40, 120):
        EntryFactory(tournament=paper, paper_total=total)
    tournaments.append(paper)
    tournaments.append(TournamentFactory())  # nothing yet

    fast = [selector.tournament_standings(tournament=t) for t in tournaments]
    with monkeypatch.context() as patched:
        by_the_orm(patched)
        slow = [selector.tournament_standings(tournament=t) for t in tournaments]
    for got, expected in zip(fast, slow, strict=True):
        assert got == expected

    # the data is as varied as it says
    rows = fast[0].rows
    assert any(row.tied for row in rows) and any(row.decided_by_lot for row in rows)
    assert any(row.withdrawn for row in rows) and any(row.fill_in for row in rows)
    assert fast[0].teams and any(row.club for row in rows)
    assert fast[0].open_tables and fast[0].round_numbers == (1, 2)
    assert fast[0].rows != fast[1].rows
    assert [row.total for row in fast[2].rows] == [120, 120, -40]


def test_prepared_rows_equal_the_queryset_for_lists_of_any_length(organiser):
    """A list argument is compiled once per length; booleans and JSON come converted."""
    tournament = varied(organiser, tie_break=Tournament.TieBreak.LOT, deals=4)
    tables = sorted(
        Seat.objects.filter(round__tournament=tournament).values_list("table", flat=True).distinct()
    )
    build = selector._GROUPS._build
    prepared = PreparedValues(build)
    for length in (0, 1, 3, len(tables), 1):
        chosen = tables[:length]
        assert prepared.rows(tournament.pk, chosen) == list(build(tournament.pk, chosen))
    seats = selector._SEATS.rows(tournament.pk)
    assert {type(s["table__voided"]) for s in seats} == {bool}
    assert (
        selector._LOT_ORDERS.rows(tournament.pk)[0]["order"]
        == list(tournament.lot_draws.values_list("order", flat=True))[0]
    )
