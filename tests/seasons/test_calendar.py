"""The tournament calendar: the public page of coming tournaments and the iCalendar feeds
(all, per season, per club), parsed back with icalendar."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from seasons.ical import FeedEvent, calendar_bytes
from tests.factories import ClubFactory, SeasonFactory, TournamentFactory

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


@pytest.fixture
def plan():
    host = ClubFactory(name="Cegoclub Bräunlingen", town="Bräunlingen")
    other = ClubFactory(name="Cegofreunde Triberg", town="Triberg")
    season = SeasonFactory(
        name="Saison Kalender",
        starts_on=TODAY - dt.timedelta(days=100),
        ends_on=TODAY + dt.timedelta(days=200),
    )
    return {
        "host": host,
        "other": other,
        "season": season,
        "past": TournamentFactory(
            name="Herbstturnier", date=TODAY - dt.timedelta(days=20), host_club=host, season=season
        ),
        "soon": TournamentFactory(
            name="Adventsturnier",
            date=TODAY + dt.timedelta(days=10),
            host_club=host,
            season=season,
            venue="Stadthalle",
        ),
        "later": TournamentFactory(
            name="Frühjahrsturnier", date=TODAY + dt.timedelta(days=60), host_club=other
        ),
    }


def events_of(response):
    calendar = Calendar.from_ical(response.content)
    return {str(event["SUMMARY"]): event for event in calendar.walk("VEVENT")}


def test_page_lists_the_coming_tournaments_with_host_place_and_season(client, plan):
    html = client.get(reverse("seasons:calendar")).content.decode()
    assert "Adventsturnier" in html and "Frühjahrsturnier" in html
    assert "Herbstturnier" not in html  # over
    assert "Stadthalle" in html  # the hall
    assert "Triberg" in html  # no hall given: the host's town
    assert reverse("tournaments:standings", args=[plan["soon"].pk]) in html
    assert reverse("seasons:season_standings", args=[plan["season"].pk]) in html
    assert reverse("seasons:calendar_season_feed", args=[plan["season"].pk]) in html
    assert reverse("seasons:calendar_club_feed", args=[plan["other"].pk]) in html
    assert "http://testserver/calendar.ics" in html


def test_the_home_page_links_the_calendar_and_the_roll_of_honour(client, plan):
    html = client.get(reverse("tournaments:home")).content.decode()
    assert reverse("seasons:calendar") in html and reverse("seasons:roll_of_honour") in html


def test_the_feed_of_all_tournaments(client, plan):
    response = client.get("/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["VERSION"]) == "2.0" and "Cego Club" in str(calendar["PRODID"])
    events = events_of(response)
    assert set(events) == {"Herbstturnier", "Adventsturnier", "Frühjahrsturnier"}
    soon = events["Adventsturnier"]
    assert str(soon["UID"]) == f"tournament-{plan['soon'].archive_id}@cego-club"
    # all day: a date, ending the next day
    assert soon.decoded("DTSTART") == plan["soon"].date
    assert soon.decoded("DTEND") == plan["soon"].date + dt.timedelta(days=1)
    assert isinstance(soon.decoded("DTSTAMP"), dt.datetime)
    assert str(soon["LOCATION"]) == "Stadthalle, Bräunlingen"
    assert "Cegoclub Bräunlingen" in str(soon["DESCRIPTION"])
    assert "Saison Kalender" in str(soon["DESCRIPTION"])
    assert str(soon["URL"]) == "http://testserver" + reverse(
        "tournaments:standings", args=[plan["soon"].pk]
    )


def test_a_changed_tournament_keeps_its_uid_and_changes_the_etag(client, plan):
    first = client.get("/calendar.ics")
    etag = first["ETag"]
    assert client.get("/calendar.ics", HTTP_IF_NONE_MATCH=etag).status_code == 304
    uid = str(events_of(first)["Adventsturnier"]["UID"])
    plan["soon"].name = "Adventsturnier (verlegt)"
    plan["soon"].date = plan["soon"].date + dt.timedelta(days=1)
    plan["soon"].save()
    again = client.get("/calendar.ics", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    moved = events_of(again)["Adventsturnier (verlegt)"]
    assert str(moved["UID"]) == uid
    assert moved.decoded("DTSTART") == plan["soon"].date
    assert "Adventsturnier" not in events_of(again)


def test_the_season_and_club_feeds(client, plan):
    season = events_of(client.get(f"/calendar/seasons/{plan['season'].pk}.ics"))
    assert set(season) == {"Herbstturnier", "Adventsturnier"}
    club = events_of(client.get(f"/calendar/clubs/{plan['other'].pk}.ics"))
    assert set(club) == {"Frühjahrsturnier"}
    calendar = Calendar.from_ical(client.get(f"/calendar/clubs/{plan['other'].pk}.ics").content)
    assert "Cegofreunde Triberg" in str(calendar["X-WR-CALNAME"])


@pytest.mark.parametrize(
    "path",
    [
        "/calendar/seasons/999999.ics",
        "/calendar/seasons/abc.ics",
        "/calendar/seasons/12345678901234567890.ics",
        "/calendar/seasons/-1.ics",
        "/calendar/clubs/999999.ics",
        "/calendar/clubs/x1.ics",
        "/calendar/clubs/١٢.ics",  # digits, but not ASCII ones
    ],
)
def test_unknown_or_malformed_ids_are_a_clear_404(client, plan, path, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.get(path)
    assert response.status_code == 404
    text = response.content.decode()
    assert "gibt es nicht" in text
    assert ("Saison" in text) == ("seasons" in path)


def test_a_post_is_refused(client, plan):
    assert client.post("/calendar.ics").status_code == 405


def test_the_feed_takes_a_constant_number_of_queries(client, plan):
    client.get("/calendar.ics")
    with CaptureQueriesContext(connection) as few:
        client.get("/calendar.ics")
    for day in range(5):
        TournamentFactory(date=TODAY + dt.timedelta(days=day + 1))
    with CaptureQueriesContext(connection) as many:
        client.get("/calendar.ics")
    assert len(many) == len(few) <= 2


def test_a_timed_event_carries_its_time_zone():
    day = dt.date(2027, 1, 16)
    body = calendar_bytes(
        [
            FeedEvent(uid="a@x", summary="Mit Zeit", day=day, start=dt.time(14, 0)),
            FeedEvent(uid="b@x", summary="Ganztägig", day=day),
        ],
        name="Test",
        stamp=dt.datetime(2027, 1, 1, 12, 0, tzinfo=dt.UTC),
    )
    calendar = Calendar.from_ical(body)
    assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["Europe/Berlin"]
    timed, whole = calendar.walk("VEVENT")
    start = timed.decoded("DTSTART")
    assert start.utcoffset() == dt.timedelta(hours=1) and start.hour == 14
    assert timed["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert whole.decoded("DTSTART") == day
    assert timed.decoded("DTSTAMP") == dt.datetime(2027, 1, 1, 12, 0, tzinfo=dt.UTC)
    # lines folded at 75 octets, CRLF
    assert all(len(line) <= 75 for line in body.split(b"\r\n"))


def test_a_tournament_whose_sign_up_is_open_links_its_form(client, plan):
    from signups.services import signups

    signups.set_sheet(tournament=plan["soon"], user=None, is_open=True, capacity=40, closes_at=None)
    signups.set_sheet(
        tournament=plan["later"], user=None, is_open=False, capacity=40, closes_at=None
    )
    html = client.get(reverse("seasons:calendar")).content.decode()
    assert reverse("signups:form", args=[plan["soon"].pk]) in html
    assert reverse("signups:form", args=[plan["later"].pk]) not in html  # not open
