import pytest

from tests.factories import EntryFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Round, Seat, Table
from tournaments.services.phone_entry import enter_deal


def cego(declarer: int, points: int) -> dict:
    """Under "swm": a Cego won with 45 card points is +30 for the declarer, -10 for the rest."""
    return {"contract": "cego", "declarer": declarer, "declarer_points": points}


def table_of(*, tournament, entries, round_number: int = 1, table_number: int = 1) -> Table:
    """A table seating the given entries in order (for players who meet again)."""
    round_, _ = Round.objects.get_or_create(
        tournament=tournament, number=round_number, defaults={"draw_seed": 1}
    )
    table = Table.objects.create(round=round_, number=table_number)
    for position, entry in enumerate(entries):
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
    return table


def entries_of(table: Table) -> list:
    return [seat.entry for seat in table.seats.order_by("position").select_related("entry")]


def fill(tournament, *, tables: int, deals: int = 3) -> None:
    """``tables`` tables of four in round 1, each with ``deals`` desk-entered deals."""
    for number in range(1, tables + 1):
        table = seat_table(tournament=tournament, table_number=number)
        for deal_number in range(1, deals + 1):
            enter_deal(table=table, number=deal_number, inputs=cego(deal_number % 4, 50))


@pytest.fixture(autouse=True)
def english(client, settings):
    """The pages in English, whatever the German catalogue translates by now."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("orga", "", "pw")


@pytest.fixture
def tournament(db):
    return TournamentFactory(rules_slug="swm", deals_per_round=24)


@pytest.fixture
def one_table(tournament):
    """One table after one deal: the declarer +30, three players tied at -10."""
    table = seat_table(tournament=tournament)
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    return table


__all__ = ["EntryFactory", "cego", "entries_of", "fill", "table_of"]
