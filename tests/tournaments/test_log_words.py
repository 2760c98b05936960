"""The change log's tournament rows in words: labels instead of field names, yes and no
instead of True and False (the deal rows have their own words, ``deal_words``)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournaments.setup.factories import tournament_with_players
from tournaments.selectors.changelog import as_text, tournament_log
from tournaments.services.checkin import add_keep_apart, withdraw_entry

pytestmark = pytest.mark.django_db


def test_tournament_rows_say_what_changed_in_german():
    tournament, entries = tournament_with_players(8)
    withdraw_entry(entry=entries[2], after_round=0)
    add_keep_apart(tournament=tournament, first=entries[3], second=entries[7], reason="Ehepaar")
    with translation.override("de"):
        lines = {line.action: line for line in tournament_log(tournament=tournament)}
        withdrawn = next(line for line in lines.values() if "abgemeldet" in line.after_text)
        apart = next(line for line in lines.values() if "Startnummer" in line.after_text)
        assert withdrawn.after_text == "abgemeldet nach Runde: 0"
        assert apart.after_text == "Startnummer: 4, und Startnummer: 8"
        for line in lines.values():
            assert "withdrawn_after_round" not in line.before_text + line.after_text
            assert "first:" not in line.after_text


def test_flags_and_empty_values_read_as_words():
    with translation.override("de"):
        assert as_text({"checked_in": True, "fill_in": False}) == "anwesend: ja, Ersatz: nein"
        assert as_text({"withdrawn_after_round": None}) == "abgemeldet nach Runde: –"
        assert as_text({"seed": 12}) == "Zufallszahl der Auslosung: 12"
