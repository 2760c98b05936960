"""Provisional until final (issue 39, item 8 C): a season tournament's results are
provisional until the season's appeal window closes, while an appeal is open, and after a
decision that corrects them until the season scorer confirms them; then final. Worked out
from stored facts (``tournaments.finality``), shown on the season table ("prov.") and on the
tournament's standings page; the appeals page is the season scorer's."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clubs.models import AssociationRole, ClubRole
from seasons.models import Appeal, ResultConfirmation
from seasons.services import confirm_results, decide_appeal, record_appeal, set_season_rules
from tests.factories import EntryFactory, TournamentFactory
from tests.seasons.conftest import play, tournament_in
from tournaments.finality import FINAL, PROVISIONAL, RUNNING, appeal_in_time, finality
from tournaments.selectors.finality import finality_of, tournament_finality

BERLIN = ZoneInfo("Europe/Berlin")
FINISHED = dt.datetime(2026, 11, 28, 18, 30, tzinfo=BERLIN)


def at(day: int, month: int = 12, hour: int = 12) -> dt.datetime:
    return dt.datetime(2026 if month > 6 else 2027, month, day, hour, tzinfo=BERLIN)


def state(now, **facts):
    base = {
        "finished_at": FINISHED,
        "window_days": 14,
        "confirmed_at": None,
        "open_appeals": 0,
        "last_decided_at": None,
        "correction_due_at": None,
    }
    return finality(**{**base, **facts}, now=now, zone=BERLIN)


# --- the rule -----------------------------------------------------------------------------


def test_not_finished_is_neither():
    assert state(at(20), finished_at=None).state == RUNNING


def test_inside_the_window_provisional_until_its_last_day():
    result = state(at(12, hour=23))  # 28.11. + 14 days: the 12th is the last day
    assert result.state == PROVISIONAL
    assert result.until == dt.date(2026, 12, 12)
    assert result.since is None


def test_after_the_window_final_since_midnight():
    result = state(at(13, hour=0))
    assert result.state == FINAL
    assert result.since == dt.datetime(2026, 12, 13, tzinfo=BERLIN)


def test_the_window_is_the_seasons():
    assert state(at(1), window_days=3).until == dt.date(2026, 12, 1)
    assert state(at(2, hour=0), window_days=3).since == dt.datetime(2026, 12, 2, tzinfo=BERLIN)
    assert state(at(28, month=11, hour=23), window_days=0).state == PROVISIONAL
    assert state(at(29, month=11, hour=0), window_days=0).state == FINAL


def test_an_open_appeal_keeps_them_provisional_after_the_window():
    result = state(at(20, month=1), open_appeals=1)
    assert result.state == PROVISIONAL
    assert result.until is None and result.open_appeals == 1


def test_a_decision_after_the_window_makes_them_final_then():
    decided = at(20)
    assert state(at(19), last_decided_at=decided).state == PROVISIONAL
    result = state(at(21), last_decided_at=decided)
    assert result.state == FINAL and result.since == decided


def test_a_decision_inside_the_window_changes_nothing():
    result = state(at(14), last_decided_at=at(1))
    assert result.state == FINAL and result.since == dt.datetime(2026, 12, 13, tzinfo=BERLIN)


def test_early_confirmation_makes_them_final_at_once():
    result = state(at(1, hour=15), confirmed_at=at(1, hour=14))
    assert result.state == FINAL and result.since == at(1, hour=14)


def test_a_confirmation_before_the_latest_finish_does_not_count():
    # confirmed on the 1st, then reopened and finished again on the 2nd: the results changed
    result = state(at(3), finished_at=at(2), confirmed_at=at(1))
    assert result.state == PROVISIONAL and result.until == dt.date(2026, 12, 16)


def test_a_correction_due_keeps_them_provisional_until_confirmed_after_it():
    due = at(20)
    assert state(at(21, month=1), correction_due_at=due, last_decided_at=due).correction_due
    assert state(at(21, month=1), correction_due_at=due, confirmed_at=at(19)).provisional
    after = state(at(23), correction_due_at=due, last_decided_at=due, confirmed_at=at(22))
    assert after.state == FINAL and after.since == at(22)


def test_an_appeal_is_in_time_up_to_the_day_they_became_final():
    final = state(at(14))
    assert appeal_in_time(final, dt.date(2026, 12, 12), BERLIN)
    assert not appeal_in_time(final, dt.date(2026, 12, 13), BERLIN)
    confirmed = state(at(2), confirmed_at=at(1, hour=14))
    assert appeal_in_time(confirmed, dt.date(2026, 12, 1), BERLIN)
    assert not appeal_in_time(confirmed, dt.date(2026, 12, 2), BERLIN)
    assert appeal_in_time(state(at(1)), dt.date(2026, 12, 1), BERLIN)


# --- stored facts, services ---------------------------------------------------------------


@pytest.fixture
def scorer(django_user_model):
    user = django_user_model.objects.create_user("sportwart", password="pw")
    AssociationRole.objects.create(user=user)
    return user


@pytest.fixture
def finished(season):
    """A season tournament with a result, finished on 28.11.2026 at 18:30."""
    tournament = tournament_in(season, "Herbstturnier", 28)
    entries = [EntryFactory(tournament=tournament) for _ in range(4)]
    play(tournament, entries, [(0, 45)])
    type(tournament).objects.filter(pk=tournament.pk).update(finished_at=FINISHED)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.django_db
def test_the_selector_reads_the_facts(finished, scorer):
    assert tournament_finality(tournament_id=finished.pk, now=at(12)).until == dt.date(2026, 12, 12)
    assert tournament_finality(tournament_id=finished.pk, now=at(13)).final
    appeal = record_appeal(
        tournament_id=finished.pk,
        appellant="Cegoclub Triberg",
        text="Spiel 7 an Tisch 2 falsch gewertet",
        received_on=dt.date(2026, 12, 10),
        user=scorer,
        now=at(11),
    )
    assert tournament_finality(tournament_id=finished.pk, now=at(20, month=1)).open_appeals == 1
    decide_appeal(
        appeal=appeal, outcome="rejected", reason="Richtig gewertet.", user=scorer, now=at(15)
    )
    result = tournament_finality(tournament_id=finished.pk, now=at(16))
    assert result.final and result.since == at(15)


@pytest.mark.django_db
def test_a_tournament_outside_a_season_has_no_state(finished):
    other = TournamentFactory(finished_at=FINISHED)
    assert finality_of(tournament_ids=[finished.pk, other.pk], now=at(1)).keys() == {finished.pk}


@pytest.mark.django_db
def test_the_venue_laptop_says_nothing(finished, settings):
    settings.VENUE_MODE = True
    assert tournament_finality(tournament_id=finished.pk, now=at(1)) is None


@pytest.mark.django_db
def test_the_window_is_a_season_rule(finished, season):
    set_season_rules(
        season=season, scoring="sum", best_of=None, cup_points=[], min_tournaments=1, appeal_days=3
    )
    assert tournament_finality(tournament_id=finished.pk, now=at(1)).until == dt.date(2026, 12, 1)
    assert tournament_finality(tournament_id=finished.pk, now=at(2)).final


@pytest.mark.django_db
def test_an_appeal_received_too_late_is_refused(finished, scorer):
    with pytest.raises(ValidationError) as refused:
        record_appeal(
            tournament_id=finished.pk,
            appellant="Hans Maier",
            text="Zu spät",
            received_on=dt.date(2026, 12, 13),
            user=scorer,
            now=at(14),
        )
    assert "received_on" in refused.value.error_dict
    assert not Appeal.objects.exists()


@pytest.mark.django_db
def test_an_appeal_received_in_time_counts_though_recorded_later(finished, scorer):
    record_appeal(
        tournament_id=finished.pk,
        appellant="Hans Maier",
        text="Rechtzeitig per Brief",
        received_on=dt.date(2026, 12, 12),
        user=scorer,
        now=at(15),
    )
    assert tournament_finality(tournament_id=finished.pk, now=at(15)).provisional


@pytest.mark.django_db
def test_an_appeal_needs_a_season_tournament_and_sensible_dates(finished, scorer):
    other = TournamentFactory()
    for tournament_id, received in ((other.pk, dt.date(2026, 12, 1)), (finished.pk, None)):
        with pytest.raises(ValidationError):
            record_appeal(
                tournament_id=tournament_id,
                appellant="X",
                text="Y",
                received_on=received or dt.date(2026, 11, 1),  # before the tournament
                user=scorer,
                now=at(1),
            )
    with pytest.raises(ValidationError):
        record_appeal(
            tournament_id=finished.pk,
            appellant="X",
            text="Y",
            received_on=dt.date(2026, 12, 5),  # tomorrow
            user=scorer,
            now=at(4),
        )


@pytest.mark.django_db
def test_a_decision_needs_a_reason_and_is_taken_once(finished, scorer):
    appeal = record_appeal(
        tournament_id=finished.pk,
        appellant="Hans Maier",
        text="Falsch",
        received_on=dt.date(2026, 12, 1),
        user=scorer,
        now=at(1),
    )
    with pytest.raises(ValidationError):
        decide_appeal(appeal=appeal, outcome="upheld", reason="  ", user=scorer)
    with pytest.raises(ValidationError):  # a rejection corrects nothing
        decide_appeal(
            appeal=appeal, outcome="rejected", reason="Nein", needs_correction=True, user=scorer
        )
    decide_appeal(
        appeal=appeal, outcome="upheld", reason="Ja", needs_correction=True, user=scorer, now=at(2)
    )
    with pytest.raises(ValidationError):
        decide_appeal(appeal=appeal, outcome="rejected", reason="Doch nicht", user=scorer)
    appeal.refresh_from_db()
    assert (appeal.outcome, appeal.decided_by) == ("upheld", scorer)


@pytest.mark.django_db
def test_early_confirmation_refused_while_an_appeal_is_open(finished, scorer):
    record_appeal(
        tournament_id=finished.pk,
        appellant="Hans Maier",
        text="Falsch",
        received_on=dt.date(2026, 12, 1),
        user=scorer,
        now=at(1),
    )
    with pytest.raises(ValidationError):
        confirm_results(tournament_id=finished.pk, user=scorer, now=at(2))
    assert not ResultConfirmation.objects.exists()


@pytest.mark.django_db
def test_early_confirmation(finished, scorer):
    confirm_results(tournament_id=finished.pk, user=scorer, now=at(1))
    result = tournament_finality(tournament_id=finished.pk, now=at(1, hour=13))
    assert result.final and result.since == at(1)
    with pytest.raises(ValidationError):  # final already
        confirm_results(tournament_id=finished.pk, user=scorer, now=at(2))


@pytest.mark.django_db
def test_a_running_tournament_cannot_be_confirmed(season, scorer):
    running = tournament_in(season, "Läuft", 28)
    with pytest.raises(ValidationError):
        confirm_results(tournament_id=running.pk, user=scorer, now=at(1))


# --- the pages ----------------------------------------------------------------------------


def season_page(client, season) -> str:
    return client.get(reverse("seasons:season_standings", kwargs={"pk": season.pk})).text


def standings_page(client, tournament) -> str:
    return client.get(reverse("tournaments:standings", kwargs={"pk": tournament.pk})).text


def finish_days_ago(tournament, days: int) -> None:
    """Moved back in time without a new revision (as the calendar moves on)."""
    type(tournament).objects.filter(pk=tournament.pk).update(
        finished_at=timezone.now() - dt.timedelta(days=days)
    )


@pytest.mark.django_db
def test_the_season_table_marks_a_provisional_tournament_until_it_is_final(
    client, season, finished
):
    finish_days_ago(finished, 2)
    page = season_page(client, season)
    assert 'class="number provisional"' in page
    assert "provisional-legend" in page
    finish_days_ago(finished, 30)  # the window closed: no new revision, the mark goes
    page = season_page(client, season)
    assert 'class="number provisional"' not in page
    assert "provisional-legend" not in page


@pytest.mark.django_db
def test_an_early_confirmation_shows_at_once(client, season, finished, scorer):
    finish_days_ago(finished, 2)
    assert 'class="number provisional"' in season_page(client, season)
    confirm_results(tournament_id=finished.pk, user=scorer)
    assert 'class="number provisional"' not in season_page(client, season)


@pytest.mark.django_db
def test_the_standings_page_says_provisional_until_then_final_since(client, finished):
    finish_days_ago(finished, 2)
    until = timezone.localdate() + dt.timedelta(days=12)
    for reader in (client, logged_in(client, finished)):
        page = standings_page(reader, finished)
        assert f"Results provisional until {until:%d %b %Y}" in page.replace("\xa0", " ")
    finish_days_ago(finished, 20)
    page = standings_page(client, finished)
    assert "Results final since" in page
    assert "Results provisional" not in page


def logged_in(client, tournament):
    from django.contrib.auth import get_user_model
    from django.test import Client

    other = Client()
    other.cookies = client.cookies
    user = get_user_model().objects.create_user("orga-a", password="pw")
    ClubRole.objects.create(user=user, club=tournament.host_club)
    other.force_login(user)
    return other


@pytest.mark.django_db
def test_the_public_sees_the_appeal_and_decision_not_the_appellant_or_text(
    client, finished, scorer
):
    finish_days_ago(finished, 2)
    appeal = record_appeal(
        tournament_id=finished.pk,
        appellant="Hans Geheimname",
        text="Geheimer Einspruchstext",
        received_on=timezone.localdate(),
        user=scorer,
    )
    page = standings_page(client, finished)
    assert "Results provisional: an appeal is open." in page
    assert "not decided yet" in page
    assert "Geheimname" not in page and "Einspruchstext" not in page
    decide_appeal(appeal=appeal, outcome="rejected", reason="Öffentliche Begründung", user=scorer)
    page = standings_page(client, finished)
    assert "Öffentliche Begründung" in page and "rejected" in page
    assert "Geheimname" not in page and "Einspruchstext" not in page


@pytest.mark.django_db
def test_the_appeals_page_is_the_season_scorers(client, finished, scorer, django_user_model):
    finish_days_ago(finished, 2)
    record_appeal(
        tournament_id=finished.pk,
        appellant="Hans Geheimname",
        text="Geheimer Einspruchstext",
        received_on=timezone.localdate(),
        user=scorer,
    )
    url = reverse("seasons:appeals")
    assert client.get(url).status_code == 302  # to the login
    organiser = django_user_model.objects.create_user("orga", password="pw")
    ClubRole.objects.create(user=organiser, club=finished.host_club)
    client.force_login(organiser)
    assert client.get(url).status_code == 403
    client.force_login(scorer)
    page = client.get(url).text
    assert "Hans Geheimname" in page and "Geheimer Einspruchstext" in page


@pytest.mark.django_db
def test_the_scorer_records_decides_and_confirms_through_the_page(client, finished, scorer):
    finish_days_ago(finished, 2)
    client.force_login(scorer)
    response = client.post(
        reverse("seasons:appeal_record"),
        {
            "tournament": finished.pk,
            "appellant": "CC Triberg",
            "text": "Tisch 3, Spiel 12",
            "received_on": timezone.localdate().isoformat(),
        },
    )
    assert response.status_code == 302
    appeal = Appeal.objects.get()
    response = client.post(
        reverse("seasons:appeal_decide", kwargs={"pk": appeal.pk}),
        {
            f"appeal-{appeal.pk}-outcome": "partly_upheld",
            f"appeal-{appeal.pk}-reason": "Spiel 12 wird korrigiert.",
            f"appeal-{appeal.pk}-needs_correction": "on",
        },
    )
    assert response.status_code == 302
    assert tournament_finality(tournament_id=finished.pk).correction_due
    response = client.post(reverse("seasons:results_confirm", kwargs={"pk": finished.pk}))
    assert response.status_code == 302
    assert tournament_finality(tournament_id=finished.pk).final


@pytest.mark.django_db
def test_a_decision_without_reason_is_shown_again(client, finished, scorer):
    finish_days_ago(finished, 2)
    appeal = record_appeal(
        tournament_id=finished.pk,
        appellant="CC Triberg",
        text="Tisch 3",
        received_on=timezone.localdate(),
        user=scorer,
    )
    client.force_login(scorer)
    response = client.post(
        reverse("seasons:appeal_decide", kwargs={"pk": appeal.pk}),
        {f"appeal-{appeal.pk}-outcome": "rejected", f"appeal-{appeal.pk}-reason": ""},
    )
    assert response.status_code == 400
    appeal.refresh_from_db()
    assert appeal.is_open
