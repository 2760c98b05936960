"""Only who came is ranked (issue 39, item 1): a player signed up online who never checked
in and was never drawn has no rank, in the tournament's standings and in the season's
workbook rows, and is not counted in "of N"."""

import datetime

import pytest
from django.urls import reverse

from seasons.models import Season
from seasons.selectors.standings import season_tournament_standings
from tests.factories import EntryFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.models import Entry, Round, TournamentChange
from tournaments.selectors.standings import tournament_standings
from tournaments.services import finish
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import set_round_state
from treasury.selectors import tournament_money

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    """Four came, checked in and played one deal (the declarer won); one more checked in and
    waits for the next round; one signed up online and never came."""
    season = Season.objects.create(
        name="Saison", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2027, 6, 30)
    )
    tournament = TournamentFactory(
        rules_slug="swm", season=season, date=datetime.date(2026, 11, 28)
    )
    played = [EntryFactory(tournament=tournament, number=n, checked_in=True) for n in (1, 2, 3, 4)]
    waiting = EntryFactory(tournament=tournament, number=5, checked_in=True)
    no_show = EntryFactory(tournament=tournament, number=6, checked_in=False)
    table = table_of(tournament=tournament, entries=played)
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    return tournament, table, played, waiting, no_show


def test_a_no_show_has_no_rank_and_is_not_counted(evening):
    tournament, _table, played, waiting, no_show = evening
    rows = tournament_standings(tournament=tournament).rows
    ranked = [row.entry_id for row in rows]
    assert no_show.pk not in ranked
    assert sorted(ranked) == sorted([e.pk for e in played] + [waiting.pk])
    assert len(rows) == 5  # "von 5", not 6
    assert rows[0].entry_id == played[0].pk and rows[0].total > 0


def test_a_player_drawn_but_not_checked_in_is_ranked(evening):
    """Seated at a table counts as present (a desk that draws without the check-in list),
    even before a deal of that table counts."""
    tournament, _table, _played, _waiting, no_show = evening
    table_of(tournament=tournament, entries=[no_show], round_number=1, table_number=2)
    assert no_show.pk in [row.entry_id for row in tournament_standings(tournament=tournament).rows]


def test_a_withdrawal_before_the_first_round_still_leaves_the_list(evening):
    tournament, _table, _played, waiting, _no_show = evening
    Entry.objects.filter(pk=waiting.pk).update(withdrawn_after_round=0)
    assert waiting.pk not in [
        row.entry_id for row in tournament_standings(tournament=tournament).rows
    ]


def test_the_season_workbook_rows_leave_the_no_show_out_too(evening):
    tournament, _table, _played, _waiting, no_show = evening
    (rows,) = season_tournament_standings(season=tournament.season)
    assert no_show.pk not in [row.entry_id for row in rows.rows] and len(rows.rows) == 5


def test_the_till_owes_no_fee_for_a_no_show_and_counts_them_apart(evening):
    tournament, _table, played, waiting, no_show = evening
    Entry.objects.filter(pk__in=[e.pk for e in played]).update(fee_paid=True)
    tournament.entry_fee_cents = 1000
    tournament.save(update_fields=["entry_fee_cents"])
    money = tournament_money(
        tournament=tournament, standings=tournament_standings(tournament=tournament)
    )
    assert (money.entries_paid, money.fees_taken_cents) == (4, 4000)
    assert (money.entries_unpaid, money.outstanding_cents) == (1, 1000)  # the one waiting
    assert money.entries_absent == 1  # the no-show owes nothing


def _closed(tournament, table, organiser):
    tournament.rounds, tournament.deals_per_round = 1, 1
    tournament.save(update_fields=["rounds", "deals_per_round"])
    set_round_state(round=table.round, state=Round.State.CLOSED, user=organiser)


def test_finishing_names_the_no_shows_and_keeps_them_unless_asked(
    evening, client, django_user_model
):
    tournament, table, _played, waiting, no_show = evening
    organiser = django_user_model.objects.create_superuser("orga", "", "pw")
    _closed(tournament, table, organiser)
    client.force_login(organiser)
    url = reverse("tournaments:tournament_finish", args=[tournament.pk])
    page = client.post(url, {"action": "finish"}).content.decode()
    assert f"6 · {no_show.player.full_name}" in page and 'name="remove_no_shows"' in page
    assert waiting.player.full_name not in page  # checked in: came

    assert client.post(url, {"action": "finish", "confirm": "1"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.finished_at is not None
    assert Entry.objects.filter(pk=no_show.pk).exists()  # kept: not asked


def test_finishing_may_take_the_no_shows_off_the_list_each_logged(evening, django_user_model):
    tournament, table, _played, _waiting, no_show = evening
    organiser = django_user_model.objects.create_superuser("orga", "", "pw")
    paid_no_show = EntryFactory(tournament=tournament, number=7, fee_paid=True)
    _closed(tournament, table, organiser)
    finish.finish_tournament(tournament=tournament, user=organiser, remove_no_shows=True)
    assert not Entry.objects.filter(pk=no_show.pk).exists()
    assert Entry.objects.filter(pk=paid_no_show.pk).exists()  # paid: the money is on record
    logged = TournamentChange.objects.get(tournament=tournament, action="withdrawn")
    assert logged.subject == no_show.player.full_name and logged.changed_by == organiser
    assert len(tournament_standings(tournament=tournament).rows) == 5


def test_the_check_in_list_says_who_did_not_come_once_a_round_is_drawn(
    evening, client, django_user_model
):
    tournament, _table, _played, waiting, no_show = evening
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    page = client.get(reverse("tournaments:checkin", args=[tournament.pk])).content.decode()
    row = page[page.index(f'id="entry-{no_show.pk}"') :]
    assert "badge-absent" in row[: row.index("</tr>")]
    waiting_row = page[page.index(f'id="entry-{waiting.pk}"') :]
    assert "badge-absent" not in waiting_row[: waiting_row.index("</tr>")]
