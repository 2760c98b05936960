import pytest

from tests.factories import EntryFactory, TournamentFactory
from tournaments.models import Round, Seat, Table


def seat_table(*, tournament, round_number: int = 1, table_number: int = 1, size: int = 4):
    """A table of ``size`` fresh entries in round ``round_number`` (created if needed)."""
    round_, _ = Round.objects.get_or_create(
        tournament=tournament, number=round_number, defaults={"draw_seed": 1}
    )
    table = Table.objects.create(round=round_, number=table_number)
    for position in range(size):
        Seat.objects.create(
            table=table,
            round=round_,
            position=position,
            entry=EntryFactory(tournament=tournament),
        )
    return table


@pytest.fixture
def swm_tournament(db):
    return TournamentFactory(rules_slug="swm", deals_per_round=24)


@pytest.fixture
def table(swm_tournament):
    return seat_table(tournament=swm_tournament)


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("orga", "", "pw")
