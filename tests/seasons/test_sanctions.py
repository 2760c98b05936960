"""Sanctions (issue 39, item 8 D): the register the association's season scorer keeps on the
season server; online sign-up refuses a banned player politely; the venue laptop gets the
terms (never the reasons) with the registry; registration and check-in warn, the organisers
decide. A ban "for N tournaments" counts the championship tournaments (of a season) dated
from its first day on."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from clubs.models import AssociationRole, ClubRole, Membership, Sanction
from clubs.services.sanctions import lift_sanction, record_sanction
from publishing.laptop.registry_answer import RegistryError, parse_registry
from publishing.laptop.services import load_registry
from publishing.server.selectors import registry
from signups.services import signups
from signups.services.signups import SignupError
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory
from tournaments.selectors.sanctions import banned_signing_up, in_force, still_to_come

pytestmark = pytest.mark.django_db

REASON = "Hat das Turnier in Runde 2 verlassen (geheim)"
DECIDER = "Vorstand, Beschluss vom 3.12."
TODAY = dt.date(2026, 12, 1)


@pytest.fixture
def scorer(django_user_model):
    user = django_user_model.objects.create_user("sportwart", password="pw")
    AssociationRole.objects.create(user=user)
    return user


@pytest.fixture
def club():
    return ClubFactory(name="Cegoclub Triberg", short_name="CC Triberg")


@pytest.fixture
def hans(club):
    player = PlayerFactory(first_name="Hans", last_name="Maier")
    Membership.objects.create(player=player, club=club)
    return player


def ban(player, user=None, *, starts_on=TODAY, ends_on=None, tournaments=None) -> Sanction:
    return record_sanction(
        player_id=player.pk,
        reason=REASON,
        starts_on=starts_on,
        ends_on=ends_on,
        tournaments=tournaments,
        decided_by=DECIDER,
        user=user,
    )


def championship(season, day: dt.date, **kwargs):
    return TournamentFactory(season=season, date=day, **kwargs)


# --- when a ban is in force -----------------------------------------------------------------


def test_a_ban_until_a_date_holds_up_to_and_including_that_day(hans):
    ban(hans, ends_on=dt.date(2026, 12, 31))
    assert hans.pk not in in_force(player_ids=[hans.pk], on=dt.date(2026, 11, 30))
    assert hans.pk in in_force(player_ids=[hans.pk], on=TODAY)
    assert hans.pk in in_force(player_ids=[hans.pk], on=dt.date(2026, 12, 31))
    assert hans.pk not in in_force(player_ids=[hans.pk], on=dt.date(2027, 1, 1))


def test_a_ban_for_n_tournaments_counts_the_championship_tournaments_from_its_start(hans, season):
    championship(season, dt.date(2026, 11, 28))  # before the start: not counted
    first = championship(season, TODAY)  # the first day counts
    TournamentFactory(date=dt.date(2026, 12, 5))  # a club's own tournament: not counted
    second = championship(season, dt.date(2026, 12, 12))
    third = championship(season, dt.date(2027, 1, 9))
    championship(season, dt.date(2027, 1, 23))
    ban(hans, tournaments=3)
    terms = in_force(player_ids=[hans.pk], on=first.date)[hans.pk]
    assert terms.last_day == third.date
    for tournament in (first, second, third):
        assert hans.pk in in_force(player_ids=[hans.pk], on=tournament.date)
    assert hans.pk not in in_force(player_ids=[hans.pk], on=dt.date(2027, 1, 23))
    start, end = (date_format(d, "SHORT_DATE_FORMAT") for d in (TODAY, third.date))
    assert terms.words() == f"from {start} for 3 tournaments (until {end})"


def test_a_ban_for_more_tournaments_than_the_calendar_holds_has_no_end_yet(hans, season):
    championship(season, dt.date(2026, 12, 12))
    ban(hans, tournaments=2)
    assert in_force(player_ids=[hans.pk], on=dt.date(2027, 6, 1))[hans.pk].last_day is None


def test_a_lifted_ban_holds_no_more(hans, scorer):
    sanction = ban(hans, ends_on=dt.date(2026, 12, 31))
    with pytest.raises(ValidationError):
        lift_sanction(sanction=sanction, reason=" ", user=scorer)
    lift_sanction(sanction=sanction, reason="Einspruch stattgegeben", user=scorer)
    assert not in_force(player_ids=[hans.pk], on=dt.date(2026, 12, 10))
    with pytest.raises(ValidationError):
        lift_sanction(sanction=sanction, reason="nochmal", user=scorer)


def test_a_ban_has_an_end_and_one_kind_of_end(hans):
    for ends_on, tournaments in ((None, None), (dt.date(2026, 12, 31), 3)):
        with pytest.raises(ValidationError) as refused:
            ban(hans, ends_on=ends_on, tournaments=tournaments)
        assert "ends_on" in refused.value.error_dict
    with pytest.raises(ValidationError):
        ban(hans, ends_on=dt.date(2026, 11, 1))  # before its start
    with pytest.raises(ValidationError) as refused:
        record_sanction(
            player_id=hans.pk,
            reason="",
            starts_on=TODAY,
            ends_on=None,
            tournaments=2,
            decided_by="",
            user=None,
        )
    assert {"reason", "decided_by"} <= set(refused.value.error_dict)
    assert not Sanction.objects.exists()


# --- online sign-up -------------------------------------------------------------------------


@pytest.fixture
def upcoming(club):
    tournament = TournamentFactory(date=timezone.localdate() + dt.timedelta(days=10))
    signups.set_sheet(tournament=tournament, user=None, is_open=True, capacity=None, closes_at=None)
    return tournament


def sign_up(tournament, club=None, first="Hans", last="Maier", **kwargs):
    return signups.sign_up(
        tournament=tournament, first_name=first, last_name=last, club=club, consent=True, **kwargs
    )


def test_a_banned_player_signing_up_is_refused_politely(upcoming, hans, club):
    ban(hans, starts_on=timezone.localdate(), ends_on=upcoming.date)
    with pytest.raises(SignupError) as refused:
        sign_up(upcoming, club)
    message = " ".join(refused.value.messages)
    assert "not possible" in message and "organisers" in message
    assert "Runde 2" not in message and "ban" not in message.lower()
    assert not upcoming.signups.exists()


def test_a_ban_that_has_run_out_lets_them_sign_up(upcoming, hans, club):
    ban(
        hans,
        starts_on=timezone.localdate() - dt.timedelta(days=30),
        ends_on=upcoming.date - dt.timedelta(days=1),
    )
    assert sign_up(upcoming, club).signup.pk


def test_a_ban_that_starts_after_the_tournament_lets_them_sign_up(upcoming, hans, club):
    ban(
        hans,
        starts_on=upcoming.date + dt.timedelta(days=1),
        ends_on=upcoming.date + dt.timedelta(days=30),
    )
    assert sign_up(upcoming, club).signup.pk


def test_a_namesake_in_another_club_is_not_refused(upcoming, hans):
    ban(hans, starts_on=timezone.localdate(), tournaments=2)
    other_club = ClubFactory()
    namesake = PlayerFactory(first_name="Hans", last_name="Maier")
    Membership.objects.create(player=namesake, club=other_club)
    assert sign_up(upcoming, other_club).signup.pk


def test_where_the_sign_up_does_not_resolve_the_name_decides(upcoming, hans):
    ban(hans, starts_on=timezone.localdate(), tournaments=2)
    # no club of this registry named ("Gast"): Hans Maier cannot be told from the banned one
    with pytest.raises(SignupError):
        sign_up(upcoming, club_text="Gast")
    # the same written otherwise: one name
    with pytest.raises(SignupError):
        sign_up(upcoming, club_text="Gast", first="HANS", last="MAIER")
    assert banned_signing_up(name_key=hans.search_key, club_id=None, on=upcoming.date)


# --- the registry to the laptop -------------------------------------------------------------


def test_the_registry_carries_the_terms_never_the_reasons(hans, club, season):
    ban(hans, starts_on=timezone.localdate(), tournaments=2)
    ran_out = PlayerFactory(first_name="Alt", last_name="Gesperrt")
    ban(ran_out, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2020, 2, 1))
    lifted = PlayerFactory(first_name="Auf", last_name="Gehoben")
    lifted_ban = ban(lifted, starts_on=timezone.localdate(), tournaments=1)
    lift_sanction(sanction=lifted_ban, reason="Irrtum", user=None)
    data = registry(club=club)
    text = json.dumps(data, ensure_ascii=False)
    assert REASON not in text and DECIDER not in text and "Irrtum" not in text
    assert data["sanctions"] == [
        {
            "player": str(hans.uuid),
            "from": timezone.localdate().isoformat(),
            "until": None,
            "tournaments": 2,
        }
    ]


def test_the_laptop_takes_the_terms_and_warns_by_them(hans, club):
    today = timezone.localdate()
    last = today + dt.timedelta(days=30)
    ban(hans, starts_on=today, ends_on=last)
    answer = registry(club=club)
    Sanction.objects.all().delete()  # the laptop: its own database
    load_registry(registry=parse_registry(answer, categories=["open"]))
    copy = Sanction.objects.get()
    assert copy.from_registry and copy.reason == "" and copy.decided_by == ""
    assert (copy.starts_on, copy.ends_on) == (today, last)
    assert hans.pk in in_force(player_ids=[hans.pk], on=last)
    assert hans.pk not in in_force(player_ids=[hans.pk], on=last + dt.timedelta(days=1))
    # fetched again: replaced, not added to; an answer without a list keeps what is there
    load_registry(registry=parse_registry(answer, categories=["open"]))
    assert Sanction.objects.count() == 1
    load_registry(registry=parse_registry({**answer, "sanctions": None}, categories=["open"]))
    assert Sanction.objects.count() == 1
    load_registry(registry=parse_registry({**answer, "sanctions": []}, categories=["open"]))
    assert not Sanction.objects.exists()


def test_a_laptop_copy_of_a_ban_for_n_tournaments_keeps_the_servers_last_day(hans, club, season):
    today = timezone.localdate()
    championship(season, today + dt.timedelta(days=10))
    second = championship(season, today + dt.timedelta(days=20))
    ban(hans, starts_on=today, tournaments=2)
    answer = registry(club=club)
    assert answer["sanctions"][0]["until"] == second.date.isoformat()
    assert answer["sanctions"][0]["tournaments"] == 2
    Sanction.objects.all().delete()
    season.tournaments.all().delete()  # the laptop holds none of the season's tournaments
    load_registry(registry=parse_registry(answer, categories=["open"]))
    assert in_force(player_ids=[hans.pk], on=second.date)[hans.pk].last_day == second.date
    assert not in_force(player_ids=[hans.pk], on=second.date + dt.timedelta(days=1))


def test_a_malformed_sanction_is_refused_whole(hans, club):
    ban(hans, starts_on=TODAY, tournaments=1)
    answer = registry(club=club)
    for bad in (
        {"player": "no-id", "from": "2026-12-01", "tournaments": 1},
        {"player": str(PlayerFactory.build().uuid), "from": "2026-12-01", "tournaments": 1},
        {"player": str(hans.uuid), "from": "1.12.2026", "tournaments": 1},
        {"player": str(hans.uuid), "from": "2026-12-01", "until": None, "tournaments": None},
        {"player": str(hans.uuid), "from": "2026-12-01", "tournaments": 0},
        {"player": str(hans.uuid), "from": "2026-12-01", "until": "2026-11-01"},
    ):
        with pytest.raises(RegistryError):
            parse_registry({**answer, "sanctions": [bad]}, categories=["open"])


def test_still_to_come_leaves_out_what_ran_out(hans):
    ban(hans, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2020, 2, 1))
    assert still_to_come(today=TODAY) == []


# --- the desk: warned, not refused ----------------------------------------------------------


@pytest.fixture
def organiser(django_user_model, club):
    user = django_user_model.objects.create_user("orga", password="pw")
    ClubRole.objects.create(user=user, club=club)
    return user


def warnings(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]


def test_registration_warns_and_marks_a_banned_player(client, organiser, club, hans):
    tournament = TournamentFactory(host_club=club, date=dt.date(2026, 12, 12))
    ban(hans, ends_on=dt.date(2026, 12, 31))
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:register_many", kwargs={"pk": tournament.pk}),
        {"source": "ticked", "player": [hans.pk]},
    )
    assert tournament.entries.filter(player=hans).exists()  # registered all the same
    [warning] = warnings(response)
    assert "Hans Maier" in warning
    assert date_format(dt.date(2026, 12, 31), "SHORT_DATE_FORMAT") in warning
    assert REASON not in warning and DECIDER not in warning
    page = client.get(reverse("tournaments:registration", kwargs={"pk": tournament.pk})).text
    assert "badge-banned" in page and REASON not in page


def test_check_in_warns_and_marks_a_banned_player(client, organiser, club, hans):
    tournament = TournamentFactory(host_club=club, date=dt.date(2026, 12, 12))
    entry = EntryFactory(tournament=tournament, player=hans)
    ban(hans, tournaments=1)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:checkin", kwargs={"pk": tournament.pk})).text
    assert "badge-banned" in page and REASON not in page
    response = client.post(
        reverse(
            "tournaments:checkin_entry_action", kwargs={"pk": tournament.pk, "entry_pk": entry.pk}
        ),
        {"action": "check_in"},
    )
    entry.refresh_from_db()
    assert entry.checked_in
    [warning] = warnings(response)
    assert "Hans Maier" in warning and "for 1 tournament" in warning


def test_no_warning_for_a_player_not_banned_that_day(client, organiser, club, hans):
    tournament = TournamentFactory(host_club=club, date=dt.date(2026, 11, 28))
    ban(hans, ends_on=dt.date(2026, 12, 31))  # starts after the tournament
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:register_many", kwargs={"pk": tournament.pk}),
        {"source": "ticked", "player": [hans.pk]},
    )
    assert warnings(response) == []


# --- the register: the association's ---------------------------------------------------------


def test_the_register_and_its_reasons_are_the_season_scorers(client, organiser, scorer, hans):
    ban(hans, ends_on=dt.date(2026, 12, 31))
    url = reverse("seasons:sanctions")
    assert client.get(url).status_code == 302  # to the login
    client.force_login(organiser)
    assert client.get(url).status_code == 403
    client.force_login(scorer)
    page = client.get(url).text
    assert REASON in page and DECIDER in page and "Hans Maier" in page


def test_the_scorer_records_and_lifts_through_the_page(client, scorer, hans):
    client.force_login(scorer)
    page = client.get(reverse("seasons:sanctions"), {"q": "maier"}).text
    assert f'value="{hans.pk}"' in page
    response = client.post(
        reverse("seasons:sanction_record"),
        {
            "player": hans.pk,
            "starts_on": "2026-12-01",
            "tournaments": "3",
            "reason": REASON,
            "decided_by": DECIDER,
        },
    )
    assert response.status_code == 302
    sanction = Sanction.objects.get()
    assert (sanction.tournaments, sanction.recorded_by) == (3, scorer)
    response = client.post(
        reverse("seasons:sanction_lift", kwargs={"pk": sanction.pk}),
        {f"lift-{sanction.pk}-lift_reason": "Irrtum"},
    )
    assert response.status_code == 302
    sanction.refresh_from_db()
    assert sanction.lifted_by == scorer


def test_no_public_page_names_a_sanction(client, hans, club, season):
    tournament = championship(season, dt.date(2026, 12, 12), host_club=club)
    EntryFactory(tournament=tournament, player=hans)
    ban(hans, ends_on=dt.date(2026, 12, 31))
    for url in (
        reverse("tournaments:standings", kwargs={"pk": tournament.pk}),
        reverse("seasons:season_standings", kwargs={"pk": season.pk}),
        reverse("tournaments:home"),
    ):
        page = client.get(url).text
        assert REASON not in page and "badge-banned" not in page and "banned" not in page
