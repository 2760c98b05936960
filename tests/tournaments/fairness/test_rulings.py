"""Rulings (issue 39, item 8): a referee's call is closed by a ruling (the deal, the decision
in words, a penalty in words, the referee); a referee may rule on conduct without a call;
where the tournament wants two referees a ruling counts only once a second, different
official confirms it. Final rulings are public, without the call's reason."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import TournamentFactory, two_officials
from tests.tournaments.results.conftest import seat_table
from tournaments.models import RefereeCall, Ruling, Tournament, TournamentChange
from tournaments.services import fairness, hall

pytestmark = pytest.mark.django_db


def revision(tournament) -> int:
    return Tournament.objects.values_list("revision", flat=True).get(pk=tournament.pk)


@pytest.fixture
def day():
    swm_tournament = TournamentFactory(rules_slug="swm", deals_per_round=24)
    table = seat_table(tournament=swm_tournament, table_number=3)
    first, second = two_officials(swm_tournament)
    return {"tournament": swm_tournament, "table": table, "first": first, "second": second}


def two_referees(day) -> Tournament:
    tournament = day["tournament"]
    tournament.two_referee_rulings = True
    tournament.save()
    return tournament


def rule(day, call=None, **extra):
    kwargs = {"decision": "Spiel 7 wird wie gespielt gewertet", "user": day["first"], **extra}
    if call is not None:
        kwargs.setdefault("deal_number", call.deal_number)
    return fairness.record_ruling(tournament=day["tournament"], call=call, **kwargs)


def test_a_call_is_closed_by_a_ruling_that_is_public_at_once(day):
    tournament, table = day["tournament"], day["table"]
    call, _ = hall.call_referee(table=table, deal_number=7, reason="Farbe nicht bedient?")
    before = revision(tournament)
    ruling = rule(day, call, penalty="Verwarnung für Tisch 3, Platz 2")
    call.refresh_from_db()
    table.refresh_from_db()
    assert not call.is_open and call.note == ruling.decision and call.closed_by == day["first"]
    assert table.referee_called_at is None
    assert (ruling.round_number, ruling.table_number, ruling.deal_number) == (1, 3, 7)
    assert ruling.is_final and ruling.first_name == "Lea" and not ruling.needs_two
    assert revision(tournament) == before + 1  # the public page lists it
    closed = TournamentChange.objects.get(action=TournamentChange.Action.REFEREE_CALL_CLOSED)
    assert closed.reason == ruling.decision and closed.changed_by == day["first"]
    assert closed.after["penalty"] == "Verwarnung für Tisch 3, Platz 2"
    assert closed.before["reason"] == "Farbe nicht bedient?"


def test_a_ruling_needs_words_an_official_and_an_open_call(day):
    call, _ = hall.call_referee(table=day["table"], deal_number=7)
    outsider = get_user_model().objects.create_user("zuschauer")
    for kwargs in ({"decision": "  "}, {"user": outsider}, {"user": None}, {"penalty": "x" * 201}):
        with translation.override("de"), pytest.raises(ValidationError):
            rule(day, call, **kwargs)
    call.refresh_from_db()
    assert call.is_open and not Ruling.objects.exists()
    rule(day, call)
    with pytest.raises(ValidationError):  # closed already: no second ruling on it
        rule(day, call, user=day["second"])
    assert Ruling.objects.count() == 1


def test_a_conduct_ruling_without_a_call(day):
    tournament = day["tournament"]
    ruling = rule(day, decision="Verwarnung wegen unhöflichen Verhaltens", round_number=1,
                  table_number=3)  # fmt: skip
    assert ruling.conduct and ruling.call is None and ruling.deal_number is None
    assert TournamentChange.objects.filter(action="ruling_recorded").count() == 1
    # a whole-day ruling names no place
    assert rule(day, decision="Ausschluss von der Siegerehrung").round_number is None
    for kwargs in (
        {"table_number": 3},  # a table, but which round?
        {"round_number": 1, "deal_number": 4},  # a deal, but which table?
        {"round_number": 2},  # not drawn
        {"round_number": 1, "table_number": 9},  # no such table
        {"round_number": 1, "table_number": 3, "deal_number": 25},  # no such deal
    ):
        with pytest.raises(ValidationError):
            rule(day, **kwargs)
    assert Ruling.objects.filter(tournament=tournament).count() == 2


def test_two_referees_a_ruling_waits_for_a_second_different_official(day):
    tournament = two_referees(day)
    call, _ = hall.call_referee(table=day["table"], deal_number=2)
    before = revision(tournament)
    ruling = rule(day, call)
    assert not ruling.is_final and ruling.needs_two
    assert revision(tournament) == before  # nothing public yet
    with pytest.raises(ValidationError):  # the same referee twice
        fairness.confirm_ruling(ruling=ruling, user=day["first"])
    outsider = get_user_model().objects.create_user("zuschauer")
    with pytest.raises(ValidationError):  # no official
        fairness.confirm_ruling(ruling=ruling, user=outsider)
    ruling.refresh_from_db()
    assert not ruling.is_final and ruling.second_by is None
    fairness.confirm_ruling(ruling=ruling, user=day["second"])
    ruling.refresh_from_db()
    assert ruling.is_final and ruling.second_name == "Sepp"
    assert revision(tournament) == before + 1
    confirmed = TournamentChange.objects.get(action="ruling_confirmed")
    assert confirmed.changed_by == day["second"] and confirmed.reason == ruling.decision
    third = get_user_model().objects.create_user("dritter")
    tournament.referees.add(third)
    with pytest.raises(ValidationError):  # final already
        fairness.confirm_ruling(ruling=ruling, user=third)


def test_one_referee_rulings_need_no_confirmation(day):
    ruling = rule(day)
    assert ruling.is_final
    with pytest.raises(ValidationError):
        fairness.confirm_ruling(ruling=ruling, user=day["second"])


def test_the_database_keeps_the_two_signatures_apart(day):
    two_referees(day)
    ruling = rule(day)
    with pytest.raises(IntegrityError), transaction.atomic():  # final without the second
        Ruling.objects.filter(pk=ruling.pk).update(decided_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():  # the same one twice
        Ruling.objects.filter(pk=ruling.pk).update(
            second_by=day["first"], second_name="Lea", second_at=timezone.now(),
            decided_at=timezone.now(),
        )  # fmt: skip


# --- the pages ---------------------------------------------------------------------------


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_banner_closes_a_call_with_a_ruling(day):
    tournament = day["tournament"]
    call, _ = hall.call_referee(table=day["table"], deal_number=4, reason="Räuber?")
    desk = logged_in(day["first"])
    banner = desk.get(reverse("tournaments:referee_calls_banner", args=[tournament.pk]))
    assert 'name="decision"' in banner.content.decode() and 'value="4"' in banner.content.decode()
    url = reverse("tournaments:referee_call_close", args=[tournament.pk, call.pk])
    desk.post(url, {"decision": "", "deal": "4"})
    call.refresh_from_db()
    assert call.is_open  # no decision: refused
    desk.post(url, {"decision": "Räuber gilt", "deal": "", "conduct": "1", "penalty": "keine"})
    ruling = Ruling.objects.get()
    assert (ruling.decision, ruling.deal_number, ruling.conduct) == ("Räuber gilt", None, True)
    assert ruling.call == call and ruling.penalty == "keine"


def test_a_conduct_ruling_on_the_referee_page_and_its_confirmation_at_the_same_laptop(day):
    tournament = two_referees(day)
    day["second"].set_password("geheim-2")
    day["second"].save()
    desk = logged_in(day["first"])
    add = reverse("tournaments:ruling_add", args=[tournament.pk])
    bad = desk.post(add, {"decision": "Verwarnung", "table": "3"})
    assert bad.status_code == 400 and not Ruling.objects.exists()
    desk.post(add, {"decision": "Verwarnung wegen Beleidigung", "round": "1", "table": "3"})
    ruling = Ruling.objects.get()
    assert ruling.conduct and not ruling.is_final
    page = desk.get(reverse("tournaments:referee_calls", args=[tournament.pk])).content.decode()
    assert "wartet auf einen zweiten Schiedsrichter" in page
    confirm = reverse("tournaments:ruling_confirm", args=[tournament.pk, ruling.pk])
    prefix = f"r{ruling.pk}"
    wrong = desk.post(
        confirm, {f"{prefix}-username": day["second"].username, f"{prefix}-password": "nein"}
    )
    assert wrong.status_code == 400
    desk.post(confirm, {})  # the signing referee's own login: refused
    ruling.refresh_from_db()
    assert not ruling.is_final
    desk.post(
        confirm, {f"{prefix}-username": day["second"].username, f"{prefix}-password": "geheim-2"}
    )
    ruling.refresh_from_db()
    assert ruling.is_final and ruling.second_by == day["second"]
    log = TournamentChange.objects.get(action="ruling_confirmed")
    assert log.after["signed_at_login_of"] == day["first"].username


def test_the_public_page_lists_final_rulings_without_the_calls_reason(day, client):
    tournament = two_referees(day)
    url = reverse("tournaments:standings", args=[tournament.pk])
    call, _ = hall.call_referee(table=day["table"], deal_number=7, reason="Karl hat geschummelt")
    ruling = rule(day, call, penalty="Strafe nach Regel 12 (als Strafe eingetragen)")
    assert "wie gespielt" not in client.get(url).content.decode()  # pending: not yet
    fairness.confirm_ruling(ruling=ruling, user=day["second"])
    page = client.get(url).content.decode()
    assert "Runde 1, Tisch 3, Spiel 7" in page and "Spiel 7 wird wie gespielt gewertet" in page
    assert "Strafe nach Regel 12" in page and "entschieden von Lea und Sepp" in page
    assert "geschummelt" not in page
    assert "geschummelt" not in logged_in(day["first"]).get(url).content.decode()
    assert RefereeCall.objects.get().reason == "Karl hat geschummelt"  # kept for the desk


def test_the_two_referee_setting_is_on_the_settings_page_and_logged(day):
    from tournaments.forms.setup import TournamentForm
    from tournaments.services import setup

    tournament = day["tournament"]
    form = TournamentForm(initial=TournamentForm.initial_from_tournament(tournament))
    assert "two_referee_rulings" in form.fields
    setup.update_tournament(
        tournament=tournament,
        name=tournament.name,
        host_club=tournament.host_club,
        date=tournament.date,
        rules_slug=tournament.rules_slug,
        deals_per_round=tournament.deals_per_round,
        two_referee_rulings=True,
        user=day["first"],
    )
    tournament.refresh_from_db()
    assert tournament.two_referee_rulings
    edited = TournamentChange.objects.filter(action="edited").latest("pk")
    assert edited.after["two_referee_rulings"] is True
    assert not rule(day).is_final  # the next ruling waits for a second signature
