"""Creating a simultaneous day and adding halls (simultaneous.services): bad input is refused
with a German reason and changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from clubs.models import ClubRole
from simultaneous import services
from simultaneous.models import DayChange, Section, SimultaneousDay
from tests.factories import SeasonFactory
from tests.simultaneous.conftest import DAY, hall_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def german():
    with translation.override("de"):
        yield


def test_a_day_is_created_with_its_log(scorer):
    day = services.create_day(
        name="  Simultan-Cego   2026 ",
        date=DAY,
        rules_slug="swm",
        rounds=2,
        deals_per_round=24,
        by=scorer,
    )
    assert day.name == "Simultan-Cego 2026"
    assert list(day.changes.values_list("action", "by")) == [("created", scorer.pk)]


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"name": " "}, "name", "Namen"),
        ({"rules_slug": "erfunden"}, "rules_slug", "erfunden"),
        ({"rules_slug": "officers_cego"}, "rules_slug", "Übungsspiele"),
        ({"rounds": 0}, "rounds", "1 bis 20"),
        ({"rounds": 21}, "rounds", "1 bis 20"),
        ({"deals_per_round": 0}, "deals_per_round", "1 bis 100"),
        ({"date": None}, "date", "Datum"),
        ({"season": "late"}, "season", "außerhalb"),
    ],
)
def test_bad_input_is_refused_in_german_and_nothing_written(scorer, fields, field, words):
    values = {
        "name": "Simultan",
        "date": DAY,
        "rules_slug": "swm",
        "rounds": 2,
        "deals_per_round": 24,
    }
    if fields.get("season") == "late":
        fields = {
            "season": SeasonFactory(starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2027, 4, 1))
        }
    values.update(fields)
    with pytest.raises(ValidationError) as error:
        services.create_day(**values, by=scorer)
    assert field in error.value.message_dict
    assert words in " ".join(error.value.message_dict[field])
    assert not SimultaneousDay.objects.exists()


def test_only_the_association_creates_days(db):
    organiser = User.objects.create_user("org", password="pw")
    club = hall_tournament("Unadingen").host_club
    ClubRole.objects.create(user=organiser, club=club)
    with pytest.raises(PermissionDenied):
        services.create_day(
            name="X", date=DAY, rules_slug="swm", rounds=2, deals_per_round=24, by=organiser
        )
    assert not SimultaneousDay.objects.exists()


def test_a_fitting_hall_takes_part(simday, scorer):
    tournament = hall_tournament("Bräunlingen")
    section = services.add_hall(day=simday, tournament=tournament, by=scorer)
    assert section.tournament == tournament
    simday.refresh_from_db()
    assert simday.revision == 1
    assert simday.changes.last().action == DayChange.Action.HALL_ADDED


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"rules_slug": "bb2013"}, "Regelwerk „Baumann & Blümle: Das Cegospiel (2013)“"),
        ({"rounds": 3}, "3 Runden, der Tag 2"),
        ({"deals_per_round": 20}, "20 Spiele je Runde, der Tag 24"),
        ({"date": dt.date(2026, 11, 29)}, "29.11.2026"),
    ],
)
def test_a_hall_that_does_not_fit_is_refused_with_the_reason(simday, scorer, fields, words):
    tournament = hall_tournament("Hüfingen", **fields)
    with pytest.raises(ValidationError) as error:
        services.add_hall(day=simday, tournament=tournament, by=scorer)
    message = " ".join(error.value.message_dict["tournament"])
    assert "kann nicht teilnehmen" in message
    assert words in message
    assert not Section.objects.exists()
    simday.refresh_from_db()
    assert simday.revision == 0
    assert simday.changes.count() == 1


def test_a_tournament_takes_part_in_one_day_only(simday, scorer):
    tournament = hall_tournament("Löffingen")
    services.add_hall(day=simday, tournament=tournament, by=scorer)
    other = services.create_day(
        name="Zweiter", date=DAY, rules_slug="swm", rounds=2, deals_per_round=24, by=scorer
    )
    with pytest.raises(ValidationError) as error:
        services.add_hall(day=other, tournament=tournament, by=scorer)
    assert "nimmt schon" in " ".join(error.value.message_dict["tournament"])
    assert Section.objects.count() == 1
    # and the database says so too
    with pytest.raises(IntegrityError), transaction.atomic():
        Section.objects.create(day=other, tournament=tournament, added_by=scorer)


def test_a_finished_tournament_is_refused(simday, scorer):
    from django.utils import timezone

    tournament = hall_tournament("Vöhrenbach", finished_at=timezone.now())
    with pytest.raises(ValidationError):
        services.add_hall(day=simday, tournament=tournament, by=scorer)
    assert not Section.objects.exists()


def test_the_database_refuses_a_day_without_rules(scorer):
    with pytest.raises(IntegrityError), transaction.atomic():
        SimultaneousDay.objects.create(
            name="X", date=DAY, rules_slug="", rounds=2, deals_per_round=24, created_by=scorer
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        SimultaneousDay.objects.create(
            name="X", date=DAY, rules_slug="swm", rounds=0, deals_per_round=24, created_by=scorer
        )


def test_removing_a_hall(simday, scorer):
    section = services.add_hall(day=simday, tournament=hall_tournament("Aasen"), by=scorer)
    with pytest.raises(ValidationError):
        services.remove_hall(day=simday, section_id=section.pk + 99, by=scorer)
    services.remove_hall(day=simday, section_id=section.pk, by=scorer)
    assert not Section.objects.exists()
    assert simday.changes.last().action == DayChange.Action.HALL_REMOVED


def changed(day, by, **fields):
    values = {
        "name": day.name,
        "date": day.date,
        "season": day.season,
        "rules_slug": day.rules_slug,
        "rounds": day.rounds,
        "deals_per_round": day.deals_per_round,
    }
    return services.change_day(day=day, by=by, **{**values, **fields})


def test_a_day_is_changed_with_its_log_and_its_revision(simday, scorer):
    day = changed(simday, scorer, name="Simultan-Cego 2026 (verlegt)", deals_per_round=16)
    stored = SimultaneousDay.objects.get(pk=simday.pk)
    assert (stored.name, stored.deals_per_round) == ("Simultan-Cego 2026 (verlegt)", 16)
    assert stored.revision == simday.revision + 1 == day.revision  # the ranking's cache key
    change = stored.changes.get(action=DayChange.Action.CHANGED)
    assert change.by == scorer and "2×24" in change.text and "2×16" in change.text
    # the same values again: nothing to record
    changed(stored, scorer)
    assert stored.changes.filter(action=DayChange.Action.CHANGED).count() == 1


def test_a_change_a_hall_would_no_longer_fit_is_refused_naming_the_hall(simday, scorer):
    hall = hall_tournament("Unadingen")
    services.add_hall(day=simday, tournament=hall, by=scorer)
    before = list(SimultaneousDay.objects.values())
    with pytest.raises(ValidationError) as refused:
        changed(simday, scorer, deals_per_round=16, date=DAY + dt.timedelta(days=1))
    text = " ".join(refused.value.messages)
    assert "Cego-Tag Unadingen" in text and "24 Spiele je Runde, der Tag 16" in text
    assert "29.11.2026" in text
    assert list(SimultaneousDay.objects.values()) == before
    assert not DayChange.objects.filter(action=DayChange.Action.CHANGED).exists()
    # the name may change all the same
    changed(simday, scorer, name="Simultan-Cego im Advent")
    assert SimultaneousDay.objects.get().name == "Simultan-Cego im Advent"


def test_bad_values_are_refused_as_at_creation(simday, scorer):
    with pytest.raises(ValidationError) as refused:
        changed(simday, scorer, rounds=0, name=" ")
    assert set(refused.value.message_dict) == {"rounds", "name"}
    assert SimultaneousDay.objects.get().rounds == 2


def test_a_day_is_deleted_only_once_no_hall_takes_part(simday, scorer):
    hall = hall_tournament("Unadingen")
    section = services.add_hall(day=simday, tournament=hall, by=scorer)
    with pytest.raises(ValidationError) as refused:
        services.delete_day(day=simday, by=scorer)
    assert "1 Halle nimmt teil" in " ".join(refused.value.messages)
    assert SimultaneousDay.objects.exists()
    services.remove_hall(day=simday, section_id=section.pk, by=scorer)
    services.delete_day(day=simday, by=scorer)
    assert not SimultaneousDay.objects.exists() and not DayChange.objects.exists()
    hall.refresh_from_db()  # the hall's tournament is untouched
    assert hall.name == "Cego-Tag Unadingen"


def test_only_the_association_changes_or_deletes_a_day(simday):
    organiser = User.objects.create_user("orga", password="pw")
    with pytest.raises(PermissionDenied):
        changed(simday, organiser, name="Meins")
    with pytest.raises(PermissionDenied):
        services.delete_day(day=simday, by=organiser)
    assert SimultaneousDay.objects.get().name == "Simultan-Cego 2026"
