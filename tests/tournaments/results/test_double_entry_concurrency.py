"""Two second typings of one sheet submitted at the same moment: one is stored, the other is
told so. Real threads, real transactions."""

import pytest

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.results.test_concurrency import run_together
from tournaments.models import Deal, SheetTyping, TournamentChange
from tournaments.services import double_entry
from tournaments.services.double_entry import TypingConflict
from tournaments.services.paper_sheets import WrittenRow

pytestmark = pytest.mark.django_db(transaction=True)

ROW = WrittenRow(1, "halbe", 1, (None, 60, None, None))


def test_two_second_typings_at_once_one_wins(django_user_model):
    tournament = TournamentFactory(rules_slug="swm", deals_per_round=24, double_entry=True)
    table = seat_table(tournament=tournament)
    one = django_user_model.objects.create_superuser("eins", "", "pw")
    two = django_user_model.objects.create_superuser("zwei", "", "pw")
    first = double_entry.type_sheet(table=table, rows=[ROW], user=one, expected_typing=None)
    outcomes = run_together(
        lambda: double_entry.type_sheet(
            table=table, rows=[ROW], user=two, typist="A", expected_typing=first.pk
        ),
        lambda: double_entry.type_sheet(
            table=table, rows=[ROW], user=two, typist="B", expected_typing=first.pk
        ),
    )
    stored = [o for o in outcomes if isinstance(o, SheetTyping)]
    refused = [o for o in outcomes if isinstance(o, TypingConflict)]
    assert len(stored) == 1 and len(refused) == 1, outcomes
    assert "Zweiteingabe dieses Bogens gespeichert" in refused[0].message  # German, the default
    assert Deal.objects.filter(table=table).count() == 1
    assert TournamentChange.objects.filter(action="sheet_retyped").count() == 1
