"""Calls for the referee from a table's phone, seen and closed at the desk with a note in the
log; announcements from the desk on the projector and the players' own pages until removed
or expired (``tournaments.services.hall``)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournaments.results.conftest import seat_table
from tests.tournaments.results.test_entry_views import phone
from tournaments.models import Announcement, RefereeCall, Round, Table, TournamentChange
from tournaments.services import fairness, hall

pytestmark = pytest.mark.django_db


def revision(tournament) -> int:
    tournament.refresh_from_db(fields=["revision"])
    return tournament.revision


# --- calls for the referee ---------------------------------------------------------------


def test_a_call_is_a_row_and_a_second_press_adds_nothing(table):
    tournament = table.round.tournament
    before = revision(tournament)
    call, created = hall.call_referee(table=table, deal_number=7, reason="Farbe nicht bedient")
    again, created_again = hall.call_referee(table=table, deal_number=8)
    assert created and not created_again and again.pk == call.pk
    assert RefereeCall.objects.count() == 1
    table.refresh_from_db()
    assert table.referee_called_at == call.called_at
    assert revision(tournament) == before  # nothing public changed
    log = TournamentChange.objects.filter(action=TournamentChange.Action.REFEREE_CALLED)
    assert log.count() == 1 and log.get().after == {"deal": 7, "reason": "Farbe nicht bedient"}


def test_the_database_keeps_one_open_call_per_table(table):
    hall.call_referee(table=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        RefereeCall.objects.create(tournament=table.round.tournament, table=table)


def close_call(*, call, note, user):
    """Close ``call`` with a ruling (``services.fairness``) on its deal, saying ``note``."""
    return fairness.record_ruling(
        tournament=call.tournament, call=call, deal_number=call.deal_number, decision=note,
        user=user,
    )  # fmt: skip


def test_closing_needs_a_decision_and_writes_it_to_the_log(table, organiser):
    call, _ = hall.call_referee(table=table, deal_number=3)
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        close_call(call=call, note="   ", user=organiser)
    assert "Entscheidung in Worten" in refused.value.messages[0]
    call.refresh_from_db()
    assert call.is_open
    close_call(call=call, note="Spiel 3 wie gespielt", user=organiser)
    call.refresh_from_db()
    table.refresh_from_db()
    assert call.closed_by == organiser and call.note == "Spiel 3 wie gespielt"
    assert table.referee_called_at is None
    closed = TournamentChange.objects.get(action=TournamentChange.Action.REFEREE_CALL_CLOSED)
    assert closed.reason == "Spiel 3 wie gespielt" and closed.changed_by == organiser
    with pytest.raises(ValidationError):  # closed twice: refused, nothing changes
        close_call(call=call, note="nochmal", user=organiser)
    # after closing, the table may call again: a new row
    second, created = hall.call_referee(table=table)
    assert created and second.pk != call.pk


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"deal_number": 0}, "deal"),
        ({"deal_number": 25}, "deal"),
        ({"reason": "x" * 121}, "reason"),
    ],
)
def test_bad_input_is_refused_in_german_and_changes_nothing(table, kwargs, field):
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        hall.call_referee(table=table, **kwargs)
    assert field in refused.value.message_dict
    assert not RefereeCall.objects.exists()
    assert not TournamentChange.objects.exists()


def test_a_closed_round_cannot_call(table):
    Round.objects.filter(pk=table.round_id).update(state=Round.State.CLOSED)
    with pytest.raises(ValidationError):
        hall.call_referee(table=table)
    assert not RefereeCall.objects.exists()


def test_the_phone_calls_and_sees_the_call_open(client, table):
    url = phone(client, table, 1)
    page = client.get(url).content.decode()
    assert "table_entry_call" not in page  # the name, never in the page
    call_url = reverse("tournaments:table_entry_call", args=[table.token])
    assert f'action="{call_url}"' in page
    response = client.post(call_url, {"deal": "5", "reason": "Streit um Stich"})
    assert response.status_code == 302
    call = RefereeCall.objects.get()
    assert call.deal_number == 5 and call.reason == "Streit um Stich"
    assert "at table 1 (phone)" in call.called_by or "Tisch 1" in call.called_by
    assert call.device  # the phone's id
    page = client.get(url).content.decode()
    assert 'class="referee-called"' in page
    # the sheet's refresh brings the state along (out of band), and without it once closed
    live = client.get(url + "?partial=sheet", headers={"HX-Request": "true"}).content.decode()
    assert '<div id="call-state" hx-swap-oob="true"><p class="referee-called"' in live
    close_call(call=call, note="erledigt", user=User.objects.create_superuser("schiri"))
    live = client.get(url + "?partial=sheet", headers={"HX-Request": "true"}).content.decode()
    assert '<div id="call-state" hx-swap-oob="true"></div>' in live
    # two phones at the table press at once: one call
    hall.call_referee(table=table)
    other = Client()
    phone(other, table, 2)
    other.post(call_url, {"deal": ""})
    assert RefereeCall.objects.filter(closed_at__isnull=True).count() == 1


def test_the_phone_says_a_deal_that_is_no_number(client, table):
    phone(client, table, 0)
    call_url = reverse("tournaments:table_entry_call", args=[table.token])
    client.post(call_url, {"deal": "sieben"})
    assert not RefereeCall.objects.exists()


def test_the_desk_sees_the_banner_and_closes_the_call(client, table, organiser):
    hall.call_referee(table=table, deal_number=4, reason="Räuber?")
    client.force_login(organiser)
    tournament = table.round.tournament
    desk = client.get(reverse("tournaments:desk_round", args=[tournament.pk, 1])).content.decode()
    banner_url = reverse("tournaments:referee_calls_banner", args=[tournament.pk])
    assert f'data-calls-url="{banner_url}?next=' in desk
    banner = client.get(banner_url).content.decode()
    assert "Räuber?" in banner and 'class="calls-banner"' in banner
    call = RefereeCall.objects.get()
    close_url = reverse("tournaments:referee_call_close", args=[tournament.pk, call.pk])
    response = client.post(close_url, {"decision": "", "next": "/"})
    call.refresh_from_db()
    assert call.is_open and response.status_code == 302  # no decision: refused
    client.post(close_url, {"decision": "Räuber gilt", "deal": "4", "next": "/"})
    call.refresh_from_db()
    assert not call.is_open and call.note == "Räuber gilt"
    assert "calls-banner" not in client.get(banner_url).content.decode()
    page = client.get(reverse("tournaments:referee_calls", args=[tournament.pk])).content.decode()
    assert "Räuber gilt" in page


def test_a_referee_of_the_tournament_sees_and_closes_calls(client, table, django_user_model):
    referee = django_user_model.objects.create_user("schiri")
    tournament = table.round.tournament
    tournament.referees.add(referee)
    call, _ = hall.call_referee(table=table)
    client.force_login(referee)
    assert (
        client.get(reverse("tournaments:referee_calls_banner", args=[tournament.pk])).status_code
        == 200
    )
    client.post(
        reverse("tournaments:referee_call_close", args=[tournament.pk, call.pk]),
        {"decision": "erledigt"},
    )
    call.refresh_from_db()
    assert call.closed_by == referee
    # announcements are the organisers'
    response = client.post(
        reverse("tournaments:announcement_add", args=[tournament.pk]), {"text": "Pause"}
    )
    assert response.status_code == 403 and not Announcement.objects.exists()


# --- announcements -----------------------------------------------------------------------


def test_an_announcement_bumps_the_revision_and_is_logged(swm_tournament, organiser):
    before = revision(swm_tournament)
    item = hall.announce(tournament=swm_tournament, text="  Pause   bis 15 Uhr ", user=organiser)
    assert item.text == "Pause bis 15 Uhr" and item.shown_until is None
    assert revision(swm_tournament) == before + 1
    hall.remove_announcement(announcement=item, user=organiser)
    item.refresh_from_db()
    assert item.removed_by == organiser
    assert revision(swm_tournament) == before + 2
    actions = set(TournamentChange.objects.values_list("action", flat=True))
    assert {"announced", "announcement_removed"} <= actions


@pytest.mark.parametrize(
    ("text", "minutes", "field"),
    [("", None, "text"), ("x" * 201, None, "text"), ("Pause", 0, "minutes"), ("P", 601, "minutes")],
)
def test_a_bad_announcement_is_refused(swm_tournament, organiser, text, minutes, field):
    before = revision(swm_tournament)
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        hall.announce(tournament=swm_tournament, text=text, minutes=minutes, user=organiser)
    assert field in refused.value.message_dict
    assert not Announcement.objects.exists() and revision(swm_tournament) == before


def test_projector_and_my_seat_show_it_until_removed_or_expired(
    client, swm_tournament, organiser, monkeypatch
):
    table = seat_table(tournament=swm_tournament)
    number = table.seats.get(position=0).entry.number
    projector = reverse("tournaments:projector", args=[swm_tournament.pk])
    mine = reverse("tournaments:my_seat", args=[swm_tournament.pk, number])
    item = hall.announce(tournament=swm_tournament, text="Essen ist fertig", user=organiser)
    assert "Essen ist fertig" in client.get(projector).content.decode()
    assert "Essen ist fertig" in client.get(projector + "?partial=1").content.decode()
    assert "Essen ist fertig" in client.get(mine).content.decode()
    hall.remove_announcement(announcement=item, user=organiser)
    assert "Essen ist fertig" not in client.get(projector + "?partial=1").content.decode()
    assert "Essen ist fertig" not in client.get(mine).content.decode()
    # one with a time: shown with its end for the projector's script, left out once over
    hall.announce(tournament=swm_tournament, text="Runde 2 gleich", minutes=5, user=organiser)
    board = client.get(projector + "?partial=1").content.decode()
    assert "Runde 2 gleich" in board and "data-until=" in board
    assert "Runde 2 gleich" in client.get(mine).content.decode()
    # six minutes on, with no change to the tournament (the cached list still holds it)
    later = timezone.now() + timedelta(minutes=6)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert "Runde 2 gleich" not in client.get(mine).content.decode()


def test_the_desk_page_adds_and_removes_announcements(client, swm_tournament, organiser):
    client.force_login(organiser)
    add = reverse("tournaments:announcement_add", args=[swm_tournament.pk])
    page = client.post(add, {"text": "", "minutes": ""})
    assert page.status_code == 200 and not Announcement.objects.exists()  # the form again
    client.post(add, {"text": "Siegerehrung um 18 Uhr", "minutes": "30"})
    item = Announcement.objects.get()
    assert item.shown_until is not None
    page = client.get(reverse("tournaments:referee_calls", args=[swm_tournament.pk]))
    assert "Siegerehrung um 18 Uhr" in page.content.decode()
    client.post(reverse("tournaments:announcement_remove", args=[swm_tournament.pk, item.pk]))
    item.refresh_from_db()
    assert item.removed_at is not None
    assert Table.objects.count() == 0


def test_the_log_says_the_call_in_words(client, table, organiser):
    call, _ = hall.call_referee(table=table, deal_number=6, reason="Stich strittig")
    close_call(call=call, note="Stich gilt", user=organiser)
    client.force_login(organiser)
    tournament = table.round.tournament
    page = client.get(reverse("tournaments:tournament_log", args=[tournament.pk])).content.decode()
    assert "Schiedsrichter gerufen" in page and "Schiedsrichterruf erledigt" in page
    assert "Spiel: 6" in page and "Stich gilt" in page and "gerufen um:" in page
