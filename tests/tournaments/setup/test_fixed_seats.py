"""A player marked "bleibt am Tisch" at the check-in keeps one table number all day; too many
such players for the tables is a German message before anything is drawn; the seat plan,
the draw page and the printouts say it."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from printing import printouts
from tests.tournaments.setup.factories import tournament_with_players
from tournaments.models import Round, Seat, Tournament, TournamentChange
from tournaments.services import checkin, draws
from tournaments.services.round_state import set_round_state

pytestmark = pytest.mark.django_db


def table_of(round_: Round, entry) -> int:
    return Seat.objects.get(round=round_, entry=entry).table.number


def close(round_: Round, user) -> None:
    set_round_state(round=round_, state=Round.State.CLOSED, user=user, close_open=True, reason="x")


def test_staying_players_keep_their_table_number_all_day(django_user_model):
    user = django_user_model.objects.create_user("chef")
    tournament, entries = tournament_with_players(
        26, rounds=4, rules_slug="bb2013", tables_of_3=True, tables_of_5=True
    )
    staying = [entries[3], entries[17]]
    for entry in staying:
        checkin.set_stays_at_table(entry=entry, stays=True, user=user)
    first = draws.draw_next_round(tournament=tournament, number=1)
    tables = {e.pk: table_of(first, e) for e in staying}
    assert len(set(tables.values())) == 2  # a table each
    for number in (2, 3, 4):
        close(Round.objects.get(tournament=tournament, number=number - 1), user)
        round_ = draws.draw_next_round(tournament=tournament, number=number)
        assert {e.pk: table_of(round_, e) for e in staying} == tables
        report = draws.seating_report(round=round_)
        assert report.keep_apart_violations == 0


def test_marked_after_round_one_stays_where_they_sat(django_user_model):
    user = django_user_model.objects.create_user("chef")
    tournament, entries = tournament_with_players(16, rounds=3)
    first = draws.draw_next_round(tournament=tournament, number=1)
    before = tournament.__class__.objects.get(pk=tournament.pk).revision
    checkin.set_stays_at_table(entry=entries[5], stays=True, user=user)
    assert Tournament.objects.get(pk=tournament.pk).revision == before + 1
    log = TournamentChange.objects.filter(tournament=tournament).latest("pk")
    assert log.action == TournamentChange.Action.STAYS_AT_TABLE and log.changed_by == user
    close(first, user)
    second = draws.draw_next_round(tournament=tournament, number=2)
    assert table_of(second, entries[5]) == table_of(first, entries[5])
    checkin.set_stays_at_table(entry=entries[5], stays=False, user=user)
    assert TournamentChange.objects.filter(
        tournament=tournament, action=TournamentChange.Action.MAY_MOVE
    ).exists()


def test_more_staying_players_than_tables_is_refused_in_german_before_drawing():
    tournament, entries = tournament_with_players(8)
    for entry in entries[:3]:
        entry.stays_at_table = True
        entry.save()
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        draws.draw_next_round(tournament=tournament, number=1)
    message = refused.value.messages[0]
    assert "3 Spieler bleiben am Tisch" in message and "nur 2 Tische" in message
    assert not Round.objects.filter(tournament=tournament).exists()


def test_the_check_in_desk_sets_it_and_the_pages_show_it(client, django_user_model):
    user = django_user_model.objects.create_superuser("chef", "chef@example.org", "pw")
    client.force_login(user)
    tournament, entries = tournament_with_players(8)
    url = reverse("tournaments:checkin_entry_action", args=[tournament.pk, entries[2].pk])
    response = client.post(url, {"action": "stays"})
    assert response.status_code == 302
    entries[2].refresh_from_db()
    assert entries[2].stays_at_table
    page = client.get(reverse("tournaments:checkin", args=[tournament.pk])).content.decode()
    assert page.count("badge-stays") == 1
    assert 'value="may_move"' in page
    draws.draw_next_round(tournament=tournament, number=1)
    plan = client.get(reverse("tournaments:seat_plan", args=[tournament.pk, 1])).content.decode()
    assert plan.count("badge-stays") == 2  # at the table and in the list by name
    assert "bleibt am Tisch" in plan
    draw_page = client.get(
        reverse("tournaments:round_draw", args=[tournament.pk, 1])
    ).content.decode()
    assert "badge-stays" in draw_page


@pytest.mark.parametrize("document", ["seat_plan_pdf", "table_cards_pdf"])
def test_the_seat_plan_and_table_cards_say_it(document):
    tournament, entries = tournament_with_players(8)
    entries[4].stays_at_table = True
    entries[4].save()
    draws.draw_next_round(tournament=tournament, number=1)
    with translation.override("de"):
        pdf = getattr(printouts, document)(tournament=tournament, round_number=1)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert text.count("bleibt am Tisch") == 1
    # beside the player's name (the table card: on the line under it)
    name = text.index(entries[4].player.last_name)
    assert 0 < text.index("bleibt am Tisch") - name < 40
