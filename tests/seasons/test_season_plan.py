"""The season's plan (issue 39): how many tournaments the final's column counts as still to
come. The pure rule (``ranking.season_plan``), the standings that use it, the rules form that
sets it, the line under the season table that says it, and the planned dates in the calendar
and its feeds."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st
from icalendar import Calendar

from seasons import ranking
from seasons.models import PlannedTournament
from seasons.selectors.standings import season_standings
from seasons.services import set_season_rules
from seasons.words import plan_text, qualification_text
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tests.seasons.conftest import play

D = dt.date
TODAY = D(2027, 1, 20)
ENDS = D(2027, 8, 31)


def plan(**kwargs):
    return ranking.season_plan(today=kwargs.pop("today", TODAY), ends_on=ENDS, **kwargs)


# --- the pure rule ---------------------------------------------------------------------------


def test_plan_unknown_while_the_season_runs():
    unknown = plan(tournaments=[(D(2027, 1, 16), True)])
    assert unknown == ranking.SeasonPlan(planned=None, played=1, lapsed=0, to_come=None)
    assert not unknown.known
    missing = ranking.qualification(played=1, needed=8, remaining=unknown.to_come)
    assert (missing.missing, missing.reachable) == (7, None)


def test_plan_unknown_after_the_season_ends_has_nothing_to_come():
    over = plan(tournaments=[(D(2027, 1, 16), True)], today=D(2027, 9, 1))
    assert over == ranking.SeasonPlan(planned=None, played=1, lapsed=0, to_come=0)
    assert ranking.qualification(played=1, needed=8, remaining=over.to_come).reachable is False


def test_a_planned_number_leaves_enough_to_come():
    # The issue: a season to August, one tournament entered and played, 13 planned.
    known = plan(tournaments=[(D(2027, 1, 16), True)], planned_count=13)
    assert known == ranking.SeasonPlan(planned=13, played=1, lapsed=0, to_come=12)
    assert ranking.qualification(played=1, needed=8, remaining=known.to_come).reachable is True
    # a second tournament created for later changes nothing: it is one of the 13
    two = plan(tournaments=[(D(2027, 1, 16), True), (D(2027, 2, 13), False)], planned_count=13)
    assert two == known


def test_not_enough_left():
    dates = [D(2027, 1, 16), D(2027, 2, 13), D(2027, 3, 13)]
    known = plan(tournaments=[(D(2027, 1, 16), True)], planned_dates=dates)
    assert known == ranking.SeasonPlan(planned=3, played=1, lapsed=0, to_come=2)
    assert ranking.qualification(played=0, needed=3, remaining=known.to_come).reachable is False
    assert ranking.qualification(played=1, needed=3, remaining=known.to_come).reachable is True


def test_rule_a_past_tournament_without_results_is_not_to_come():
    created = [(D(2027, 1, 16), True), (D(2027, 1, 19), False), (D(2027, 1, 20), False)]
    known = plan(tournaments=created, planned_count=4)
    # the 19th is over without results; today's is still to come, and one more planned
    assert known == ranking.SeasonPlan(planned=4, played=1, lapsed=1, to_come=2)
    # without a plan the past one is not to come either (after the season's end nothing is)
    assert plan(tournaments=created, today=D(2027, 9, 1)).to_come == 0


def test_a_planned_date_past_without_a_tournament_is_not_to_come():
    known = plan(tournaments=[], planned_dates=[D(2027, 1, 10), D(2027, 1, 20), D(2027, 2, 1)])
    assert known == ranking.SeasonPlan(planned=3, played=0, lapsed=1, to_come=2)


def test_rule_a_tournament_on_a_planned_date_is_counted_once():
    dates = [D(2027, 1, 16), D(2027, 2, 13), D(2027, 3, 13)]
    known = plan(tournaments=[(D(2027, 2, 13), False)], planned_dates=dates)
    assert known.planned == 3 and known.to_come == 2 and known.lapsed == 1
    played = plan(
        tournaments=[(D(2027, 1, 16), True), (D(2027, 2, 13), False)], planned_dates=dates
    )
    assert played == ranking.SeasonPlan(planned=3, played=1, lapsed=0, to_come=2)
    # a tournament on a day the plan does not name is one more
    extra = plan(tournaments=[(D(2027, 2, 14), False)], planned_dates=dates)
    assert extra.planned == 4
    # two planned on one day need two tournaments that day
    assert ranking.open_planned_dates([D(2027, 2, 13)] * 2, [D(2027, 2, 13)]) == [D(2027, 2, 13)]


def test_a_planned_number_with_dates():
    dates = [D(2027, 1, 16), D(2027, 2, 13)]
    # 13 in all, two of them dated (one played): eleven more without a date yet
    known = plan(tournaments=[(D(2027, 1, 16), True)], planned_dates=dates, planned_count=13)
    assert known == ranking.SeasonPlan(planned=13, played=1, lapsed=0, to_come=12)
    # a number below the tournaments and dates known is outdated: they count
    assert plan(tournaments=[(D(2027, 1, 16), True)], planned_dates=dates, planned_count=1) == (
        ranking.SeasonPlan(planned=2, played=1, lapsed=0, to_come=1)
    )
    # after the season's end the undated rest never came
    over = plan(
        tournaments=[(D(2027, 1, 16), True)],
        planned_dates=dates,
        planned_count=13,
        today=D(2027, 9, 1),
    )
    assert over == ranking.SeasonPlan(planned=13, played=1, lapsed=12, to_come=0)
    with pytest.raises(ValueError):
        plan(tournaments=[], planned_count=0)


days = st.dates(min_value=D(2026, 11, 1), max_value=D(2027, 10, 31))


@given(
    tournaments=st.lists(st.tuples(days, st.booleans()), max_size=8),
    planned_dates=st.lists(days, max_size=8),
    planned_count=st.one_of(st.none(), st.integers(1, 20)),
    today=days,
)
def test_the_plan_always_adds_up(tournaments, planned_dates, planned_count, today):
    result = plan(
        tournaments=tournaments,
        planned_dates=planned_dates,
        planned_count=planned_count,
        today=today,
    )
    assert result.played == sum(1 for _, scored in tournaments if scored)
    if result.known:
        assert result.planned == result.played + result.lapsed + result.to_come
        assert result.planned >= len(tournaments)
        # a tournament created on a planned day still open changes nothing but its state
        open_days = ranking.open_planned_dates(planned_dates, [d for d, _ in tournaments])
        if open_days:
            more = plan(
                tournaments=[*tournaments, (open_days[0], False)],
                planned_dates=planned_dates,
                planned_count=planned_count,
                today=today,
            )
            assert more.planned == result.planned and more.to_come == result.to_come
    else:
        assert not planned_dates and planned_count is None
        assert (result.to_come is None) == (today <= ENDS)


def test_the_plan_in_german_words():
    with translation.override("de"):
        assert (
            plan_text(ranking.SeasonPlan(planned=13, played=1, lapsed=0, to_come=12))
            == "Angenommen: 13 geplante Turniere, davon 1 gespielt, 12 noch offen."
        )
        assert (
            plan_text(ranking.SeasonPlan(planned=13, played=2, lapsed=1, to_come=10))
            == "Angenommen: 13 geplante Turniere, davon 2 gespielt, 1 ohne Ergebnisse vorbei, "
            "10 noch offen."
        )
        unknown = plan_text(ranking.SeasonPlan(planned=None, played=1, lapsed=0, to_come=None))
        assert unknown.startswith("Planung unbekannt: bisher 1 Turnier gespielt.")
        assert "nicht mehr erreichbar" in unknown
        assert (
            plan_text(ranking.SeasonPlan(planned=None, played=5, lapsed=0, to_come=0))
            == "Die Saison ist zu Ende: 5 Turniere gespielt."
        )
        assert (
            qualification_text(ranking.qualification(played=1, needed=8, remaining=None))
            == "noch 7 Turniere"
        )


# --- the season: standings, service, form, page ----------------------------------------------


@pytest.fixture
def today(monkeypatch):
    """The server's date for the pages and the standings: 20 January 2027."""
    monkeypatch.setattr(timezone, "localdate", lambda *args: TODAY)
    return TODAY


@pytest.fixture
def long_season(db):
    """A season to August with a final of 8 tournaments; one tournament played (16 Jan)."""
    season = SeasonFactory(
        name="Saison bis August",
        starts_on=D(2026, 11, 1),
        ends_on=ENDS,
        final_min_tournaments=8,
    )
    first = TournamentFactory(
        season=season, name="Januarturnier", date=D(2027, 1, 16), deals_per_round=24
    )
    players = [PlayerFactory(last_name=name) for name in ("Anna", "Bert", "Carl", "Dora")]
    play(first, [EntryFactory(tournament=first, player=p) for p in players], [(0, 45)])
    return season


def finals(season, **kwargs):
    season.refresh_from_db()
    result = season_standings(season=season, **kwargs)
    return result, {row.last_name: row.qualification for row in result.rows}


def rules(season, **kwargs):
    base = {
        "season": season,
        "scoring": "sum",
        "best_of": None,
        "cup_points": [],
        "min_tournaments": 1,
        "final_min_tournaments": 8,
    }
    return set_season_rules(**{**base, **kwargs})


def test_one_tournament_played_is_not_out_of_reach_while_the_plan_is_unknown(long_season, today):
    """The issue: one tournament in a season to August was "nicht mehr erreichbar" for
    everybody."""
    result, rows = finals(long_season)
    assert result.plan == ranking.SeasonPlan(planned=None, played=1, lapsed=0, to_come=None)
    assert all(q.missing == 7 and q.reachable is None for q in rows.values())


def test_a_planned_number_says_the_final_is_still_reachable(long_season, today):
    rules(long_season, planned_tournaments=13)
    result, rows = finals(long_season)
    assert result.plan == ranking.SeasonPlan(planned=13, played=1, lapsed=0, to_come=12)
    assert all(q.reachable is True for q in rows.values())
    # late in the season, six planned left: seven missing is out of reach
    rules(long_season, planned_tournaments=7)
    assert all(q.reachable is False for q in finals(long_season)[1].values())


def test_a_past_tournament_without_results_is_not_to_come(long_season, today):
    """Before: the second tournament created (dated in the past, nothing entered) made it
    "noch 1 Turnier" for everyone."""
    TournamentFactory(season=long_season, name="Ausgefallen", date=D(2027, 1, 18))
    result, _rows = finals(long_season)
    assert result.plan.to_come is None and result.plan.lapsed == 1
    rules(long_season, planned_tournaments=8)  # the two and six more
    result, rows = finals(long_season)
    assert result.plan == ranking.SeasonPlan(planned=8, played=1, lapsed=1, to_come=6)
    assert all(q.reachable is False for q in rows.values())  # seven missing, six to come


def test_a_tournament_created_for_a_planned_date_counts_once(long_season, today):
    dates = [(D(2027, 1, 16), "Bräunlingen"), (D(2027, 2, 13), "Triberg"), (D(2027, 3, 13), "")]
    rules(long_season, planned_dates=dates)
    assert finals(long_season)[0].plan == ranking.SeasonPlan(
        planned=3, played=1, lapsed=0, to_come=2
    )
    TournamentFactory(season=long_season, name="Triberger Turnier", date=D(2027, 2, 13))
    assert finals(long_season)[0].plan == ranking.SeasonPlan(
        planned=3, played=1, lapsed=0, to_come=2
    )


def test_the_service_stores_and_refuses_plans(long_season):
    rules(
        long_season,
        planned_tournaments=13,
        planned_dates=[(D(2027, 2, 13), "  Triberg,  Krone "), (D(2027, 1, 16), "")],
    )
    long_season.refresh_from_db()
    assert long_season.planned_tournaments == 13 and long_season.plan_revision == 1
    stored = list(PlannedTournament.objects.filter(season=long_season).values_list("date", "note"))
    assert stored == [(D(2027, 1, 16), ""), (D(2027, 2, 13), "Triberg, Krone")]
    # the same dates again: nothing rewritten, the caches keep theirs
    rules(
        long_season,
        planned_tournaments=13,
        planned_dates=[(D(2027, 2, 13), "Triberg, Krone"), (D(2027, 1, 16), "")],
    )
    long_season.refresh_from_db()
    assert long_season.plan_revision == 1
    # dates left out (None) stay as they are
    rules(long_season, planned_tournaments=None)
    assert PlannedTournament.objects.filter(season=long_season).count() == 2
    refusals = [
        {"planned_dates": [(D(2027, 9, 1), "")]},  # after the season
        {"planned_dates": [(D(2027, 1, 16), "x"), (D(2027, 1, 16), "x")]},  # twice
        {"planned_dates": [(D(2027, 1, 16), "x" * 121)]},
        {"planned_tournaments": 1},  # fewer than the two dates listed
        {"planned_tournaments": 100},
    ]
    for refusal in refusals:
        with pytest.raises(ValidationError):
            rules(long_season, **refusal)
    long_season.refresh_from_db()
    assert long_season.planned_tournaments is None and long_season.plan_revision == 1
    assert PlannedTournament.objects.filter(season=long_season).count() == 2


def test_the_rules_form_edits_the_plan(client, long_season, organiser):
    client.force_login(organiser)
    url = reverse("seasons:season_rules", args=[long_season.pk])
    base = {
        "scoring": "sum",
        "best_of": "",
        "cup_points": "",
        "min_tournaments": "1",
        "final_min_tournaments": "8",
    }
    bad = client.post(
        url, {**base, "planned_tournaments": "13", "planned_dates": "16.01.2027\nTriberg"}
    )
    assert bad.status_code == 200 and "Line 2 does not start with a date" in bad.content.decode()
    outside = client.post(url, {**base, "planned_dates": "01.09.2027 zu spät"})
    assert outside.status_code == 200 and "outside the season" in outside.content.decode()
    long_season.refresh_from_db()
    assert long_season.planned_tournaments is None
    good = client.post(
        url,
        {
            **base,
            "planned_tournaments": "13",
            "planned_dates": "16.01.2027 Bräunlingen\n\n2027-02-13, Triberg\n13.3.27",
        },
    )
    assert good.status_code == 302
    long_season.refresh_from_db()
    assert long_season.planned_tournaments == 13
    page = client.get(url).content.decode()
    assert "16.01.2027 Bräunlingen\n13.02.2027 Triberg\n13.03.2027" in page
    assert 'name="planned_tournaments" value="13"' in page
    assert 'href="/hilfe/#saison"' in page
    # emptied: the plan is unknown again
    assert client.post(url, {**base, "planned_tournaments": "", "planned_dates": ""}).status_code
    assert not PlannedTournament.objects.filter(season=long_season).exists()


def test_the_page_says_what_it_assumes(client, long_season, today, organiser, settings):
    url = reverse("seasons:season_standings", args=[long_season.pk])
    html = client.get(url).content.decode()
    assert "Plan unknown: 1 tournament played so far." in html
    assert "out of reach" not in html.split("Plan unknown")[0]  # no row says it
    assert html.count('class="col-final final-missing">7 more tournaments<') == 4
    assert reverse("seasons:season_rules", args=[long_season.pk]) not in html  # public
    client.force_login(organiser)
    assert "Enter the planned tournaments" in client.get(url).content.decode()
    client.logout()  # (which forgets the language cookie too)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    # the plan changes: the cached page follows at once
    rules(long_season, planned_dates=[(D(2027, 1, 16), ""), (D(2027, 2, 13), "")])
    html = client.get(url).content.decode()
    assert "Assumed: 2 planned tournaments, of which 1 played, 1 still to come." in html
    assert html.count('class="col-final final-out-of-reach">out of reach<') == 4


def test_the_cached_page_follows_the_date(client, long_season, monkeypatch):
    """A tournament still to come today is over without results tomorrow: the cached page
    must not keep counting it."""
    TournamentFactory(season=long_season, name="Heute", date=D(2027, 1, 20))
    rules(long_season, planned_tournaments=8)
    url = reverse("seasons:season_standings", args=[long_season.pk])
    monkeypatch.setattr(timezone, "localdate", lambda *args: D(2027, 1, 20))
    assert "of which 1 played, 7 still to come." in client.get(url).content.decode()
    monkeypatch.setattr(timezone, "localdate", lambda *args: D(2027, 1, 21))
    html = client.get(url).content.decode()
    assert "of which 1 played, 1 over without results, 6 still to come." in html


def test_the_page_in_german(client, long_season, today, settings):
    rules(long_season, planned_tournaments=13)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get(reverse("seasons:season_standings", args=[long_season.pk])).content
    html = html.decode()
    assert "Angenommen: 13 geplante Turniere, davon 1 gespielt, 12 noch offen." in html
    assert ">noch 7 Turniere<" in html and "nicht mehr erreichbar" not in html


def test_the_workbook_says_what_the_final_assumes(long_season, today):
    from exports.season import season_overview_preamble

    rules(long_season, planned_tournaments=13)
    long_season.refresh_from_db()
    preamble = season_overview_preamble(long_season, season_standings(season=long_season).plan)
    assert [
        "Final: tournaments to come",
        ("Assumed: 13 planned tournaments, of which 1 played, 12 still to come."),
    ] in preamble


# --- the calendar ----------------------------------------------------------------------------


@pytest.fixture
def planned_calendar(db):
    day = timezone.localdate()
    season = SeasonFactory(
        name="Saison Plan",
        starts_on=day - dt.timedelta(days=30),
        ends_on=day + dt.timedelta(days=200),
    )
    later = day + dt.timedelta(days=30)
    rules(
        season,
        final_min_tournaments=None,
        planned_dates=[
            (day - dt.timedelta(days=10), "Vorbei"),
            (later, "Bräunlingen, Gasthaus Krone"),
            (later + dt.timedelta(days=28), ""),
        ],
    )
    return {"season": season, "later": later}


def events_of(response):
    calendar = Calendar.from_ical(response.content)
    return {str(event["SUMMARY"]): event for event in calendar.walk("VEVENT")}


def test_the_calendar_shows_planned_dates_until_the_tournament_exists(client, planned_calendar):
    season, later = planned_calendar["season"], planned_calendar["later"]
    html = client.get(reverse("seasons:calendar")).content.decode()
    assert html.count('<li class="planned">') == 2  # the past one is not coming
    assert "Bräunlingen, Gasthaus Krone" in html and "Vorbei" not in html
    assert 'class="badge badge-planned">planned<' in html
    feed = events_of(client.get(f"/calendar/seasons/{season.pk}.ics"))
    assert set(feed) == {
        "Vorbei (planned)",
        "Bräunlingen, Gasthaus Krone (planned)",
        "Saison Plan (planned)",
    }
    event = feed["Bräunlingen, Gasthaus Krone (planned)"]
    assert str(event["STATUS"]) == "TENTATIVE"
    assert str(event["UID"]) == f"planned-{season.pk}-{later:%Y%m%d}-0@cego-club"
    assert event.decoded("DTSTART") == later
    assert "http://testserver" + reverse("seasons:season_standings", args=[season.pk]) in str(
        event["URL"]
    )
    assert "Bräunlingen, Gasthaus Krone (planned)" in events_of(client.get("/calendar.ics"))
    # the host creates the tournament for that date: the plan leaves, the tournament shows
    host = TournamentFactory(season=season, name="Krone-Turnier", date=later)
    html = client.get(reverse("seasons:calendar")).content.decode()
    assert html.count('<li class="planned">') == 1 and "Gasthaus Krone" not in html
    assert "Krone-Turnier" in html
    feed = events_of(client.get(f"/calendar/seasons/{season.pk}.ics"))
    assert "Bräunlingen, Gasthaus Krone (planned)" not in feed
    assert str(feed["Krone-Turnier"]["STATUS"]) == "CONFIRMED"
    # a club's feed holds its tournaments only (a plan names no host club)
    club = events_of(client.get(f"/calendar/clubs/{host.host_club_id}.ics"))
    assert set(club) == {"Krone-Turnier"}


def test_a_tournament_of_another_season_does_not_take_the_plan(client, planned_calendar):
    TournamentFactory(name="Fremd", date=planned_calendar["later"])  # no season
    html = client.get(reverse("seasons:calendar")).content.decode()
    assert html.count('<li class="planned">') == 2 and "Fremd" in html


def test_the_calendar_takes_a_constant_number_of_queries(client, planned_calendar):
    client.get(reverse("seasons:calendar"))
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("seasons:calendar"))
    rules(
        planned_calendar["season"],
        final_min_tournaments=None,
        planned_dates=[
            (timezone.localdate() + dt.timedelta(days=d), f"Ort {d}") for d in range(1, 9)
        ],
    )
    with CaptureQueriesContext(connection) as many:
        client.get(reverse("seasons:calendar"))
    assert len(many) == len(few)
