"""Guests keep their club, and the category given at sign-up reaches the side rankings.

A sign-up naming another club of the registry becomes a player shown with that club (a
membership only where the confirming organiser runs it, or the registry has them there
already); a club typed as text is kept as typed until the association maps it to a club;
confirming says who the guests are and from where. The standings, the season table, the
season workbook and the public pages show the club; the category fills the side rankings.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from clubs.models import Category, Club, ClubAlias, Membership, Player
from clubs.services.admin import save_club
from clubs.services.players import merge_players, place_named_guests
from exports.season import season_workbook
from seasons.selectors.standings import season_sides, season_standings
from signups.models import Signup, SignupChange
from signups.selectors import guests, organiser_list
from signups.services import signups as services
from signups.services.signups import SignupError
from tests.factories import EntryFactory, SeasonFactory, TournamentFactory
from tests.seasons.conftest import play
from tests.signups.conftest import sign
from tournaments.models import Tournament
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.standings import home_clubs, tournament_standings

pytestmark = pytest.mark.django_db

FREE_TEXT = "Cegofreunde St. Georgen"


@pytest.fixture
def season(db):
    return SeasonFactory(name="Saison 2026/27")


@pytest.fixture
def day(host, season, organiser):
    """An upcoming tournament of the season with its sign-up open (no seat limit)."""
    tournament = TournamentFactory(
        host_club=host,
        season=season,
        name="Frühjahrsturnier",
        date=timezone.localdate() + dt.timedelta(days=14),
        rules_slug="swm",
        deals_per_round=24,
    )
    services.set_sheet(
        tournament=tournament, user=organiser, is_open=True, capacity=None, closes_at=None
    )
    return tournament


@pytest.fixture
def four(day, guest_club):
    """Anna of the host club, Gerd of Triberg (chosen), Frieda of a club typed as text, Jana
    of Triberg typed in another spelling; then all confirmed by the host's organiser."""
    return {
        "anna": sign(day, "Anna", "Arnold", club=day.host_club),
        "gerd": sign(day, "Gerd", "Gast", club=guest_club, category="senior"),
        "frieda": sign(day, "Frieda", "Frei", club_text=FREE_TEXT, category="woman"),
        "jana": sign(day, "Jana", "Jung", club_text="cego-club  TRIBERG", category="youth"),
    }


def player_of(done) -> Player:
    done.signup.refresh_from_db()
    return done.signup.player


def test_confirming_keeps_each_guests_club_and_says_who_they_are(day, four, organiser, guest_club):
    done = services.confirm_all(tournament=day, user=organiser)
    assert done.count == 4
    assert done.guests == (
        "Gerd Gast (CC Tr, ohne Mitgliedschaft)",
        f"Frieda Frei („{FREE_TEXT}“, kein Verein auf diesem Server)",
        "Jana Jung (CC Tr, ohne Mitgliedschaft)",
    )
    anna, gerd, frieda, jana = (player_of(four[k]) for k in ("anna", "gerd", "frieda", "jana"))
    # The host's organiser runs the host club: Anna joins it. Triberg is not hers to fill.
    assert list(anna.memberships.values_list("club", flat=True)) == [day.host_club_id]
    assert not gerd.memberships.exists() and gerd.guest_club == guest_club
    assert not jana.memberships.exists() and jana.guest_club == guest_club
    assert frieda.guest_club is None and frieda.guest_club_name == FREE_TEXT
    # Each in the category they gave (Anna said none: open).
    assert [p.category for p in (anna, gerd, frieda, jana)] == ["open", "senior", "woman", "youth"]
    assert list(day.entries.order_by("player__sort_key").values_list("category", flat=True)) == [
        "open",
        "woman",
        "senior",
        "youth",
    ]
    note = SignupChange.objects.get(signup=four["gerd"].signup, action="confirmed").note
    assert "mit CC Tr gezeigt, ohne Mitgliedschaft" in note


def test_the_standings_the_season_and_the_side_rankings_show_them(
    day, four, organiser, season, client
):
    services.confirm_all(tournament=day, user=organiser)
    entries = list(day.entries.order_by("number"))
    play(day, entries, [(0, 45), (1, 45), (2, 45), (3, 34)])
    clubs = {row.last_name: row.club for row in tournament_standings(tournament=day).rows}
    assert clubs == {"Arnold": "CF Br", "Gast": "CC Tr", "Frei": FREE_TEXT, "Jung": "CC Tr"}
    prizes = prize_groups(tournament_standings(tournament=day))
    assert [row.last_name for row in prizes.best_woman] == ["Frei"]
    assert [row.last_name for row in prizes.best_youth] == ["Jung"]
    table = season_standings(season=season)
    assert {row.last_name: row.club for row in table.rows} == clubs
    sides = {
        side.key: [item.row.last_name for item in side.rows] for side in season_sides(result=table)
    }
    assert (sides["woman"], sides["youth"], sides["senior"]) == (["Frei"], ["Jung"], ["Gast"])
    # The season workbook's standings sheet, and the public pages.
    book = load_workbook(io.BytesIO(season_workbook(season)), read_only=True)
    cells = {
        cell
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for cell in row
    }
    assert FREE_TEXT in cells and "CC Tr" in cells
    for url in (
        reverse("tournaments:standings", args=[day.pk]),
        reverse("seasons:season_standings", args=[season.pk]),
    ):
        page = client.get(url)
        assert page.status_code == 200
        text = page.content.decode()
        assert FREE_TEXT in text and "CC Tr" in text


def test_a_member_of_the_named_club_is_found_and_stays_a_member(day, organiser, guest_club):
    kurt = Player.objects.create(first_name="Kurt", last_name="Klein")
    Membership.objects.create(player=kurt, club=guest_club)
    done = sign(day, "Kurt", "Klein", club=guest_club)
    outcome = services.confirm(signup=done.signup, user=organiser)
    kurt.refresh_from_db()
    assert player_of(done) == kurt and kurt.guest_club is None
    assert outcome.guest == "Kurt Klein (CC Tr)"  # a guest from Triberg, a member there


def test_a_guest_signing_up_again_is_the_same_record(day, organiser, guest_club, host, season):
    first = sign(day, "Gerd", "Gast", club=guest_club)
    services.confirm(signup=first.signup, user=organiser)
    text = sign(day, "Frieda", "Frei", club_text=FREE_TEXT)
    services.confirm(signup=text.signup, user=organiser)
    later = TournamentFactory(
        host_club=host, season=season, date=timezone.localdate() + dt.timedelta(days=30)
    )
    services.set_sheet(
        tournament=later, user=organiser, is_open=True, capacity=None, closes_at=None
    )
    again = sign(later, "Gerd", "Gast", club=guest_club)
    services.confirm(signup=again.signup, user=organiser)
    once_more = sign(later, "Frieda", "Frei", club_text=FREE_TEXT.upper())
    services.confirm(signup=once_more.signup, user=organiser)
    assert player_of(again) == player_of(first)
    assert player_of(once_more) == player_of(text)
    assert Player.objects.filter(last_name__in=["Gast", "Frei"]).count() == 2


def test_another_clubs_organiser_confirming_gives_the_membership_where_she_runs_it(day, guest_club):
    """A superuser runs every club: the guest joins the club they named."""
    boss = get_user_model().objects.create_superuser("boss", "", "pw")
    done = sign(day, "Gerd", "Gast", club=guest_club)
    outcome = services.confirm(signup=done.signup, user=boss)
    gerd = player_of(done)
    assert list(gerd.memberships.values_list("club", flat=True)) == [guest_club.pk]
    assert gerd.guest_club is None and outcome.guest == "Gerd Gast (CC Tr)"


def test_the_association_maps_a_typed_club_and_the_pages_follow(day, organiser):
    done = sign(day, "Frieda", "Frei", club_text=FREE_TEXT)
    services.confirm(signup=done.signup, user=organiser)
    frieda = player_of(done)
    before = Tournament.objects.get(pk=day.pk).revision
    club = save_club(name=FREE_TEXT, short_name="CF StG", town="St. Georgen")
    frieda.refresh_from_db()
    assert frieda.guest_club == club and frieda.guest_club_name == ""
    assert not frieda.memberships.exists()  # still a guest: its organisers add the membership
    assert Tournament.objects.get(pk=day.pk).revision > before  # the cached pages follow
    assert home_clubs(pk=frieda.pk) == {frieda.pk: "CF StG"}


def test_a_remembered_spelling_places_the_guests_who_typed_it(day, organiser, guest_club):
    done = sign(day, "Frieda", "Frei", club_text="CC Tribärg")
    services.confirm(signup=done.signup, user=organiser)
    frieda = player_of(done)
    assert frieda.guest_club_name == "CC Tribärg"
    alias = ClubAlias.objects.create(alias="CC Tribärg", club=guest_club)
    assert place_named_guests(club=guest_club, keys=[alias.key]) == 1
    frieda.refresh_from_db()
    assert frieda.guest_club == guest_club
    # and a sign-up with that spelling now names the club itself
    later = sign(day, "Hans", "Holz", club_text="cc tribärg")
    outcome = services.confirm(signup=later.signup, user=organiser)
    assert player_of(later).guest_club == guest_club
    assert outcome.guest == "Hans Holz (CC Tr, ohne Mitgliedschaft)"


def test_the_admin_mapping_a_spelling_places_the_guests(day, organiser, guest_club, client):
    done = sign(day, "Frieda", "Frei", club_text="Cegofreunde Tribärg")
    services.confirm(signup=done.signup, user=organiser)
    boss = get_user_model().objects.create_superuser("boss", "", "pw")
    client.force_login(boss)
    response = client.post(
        reverse("admin:clubs_clubalias_add"),
        {"alias": "Cegofreunde Tribärg", "club": guest_club.pk},
    )
    assert response.status_code == 302
    assert player_of(done).guest_club == guest_club
    assert ClubAlias.objects.get().added_by == boss


def test_a_registry_category_is_filled_only_where_it_says_open(day, organiser):
    open_one = Player.objects.create(first_name="Olga", last_name="Offen")
    senior = Player.objects.create(first_name="Siegfried", last_name="Senn", category="senior")
    a = sign(day, "Olga", "Offen", category="woman")
    b = sign(day, "Siegfried", "Senn", category="youth")
    services.confirm(signup=a.signup, user=organiser)
    outcome = services.confirm(signup=b.signup, user=organiser)
    open_one.refresh_from_db()
    senior.refresh_from_db()
    assert (open_one.category, senior.category) == ("woman", "senior")
    assert "im Register steht Senior, in der Anmeldung Jugend" in outcome.note
    assert day.entries.get(player=open_one).category == "woman"


def test_the_categories_are_set_in_the_list_and_logged(day, organiser):
    a = sign(day, "Anna", "Arnold")
    b = sign(day, "Bernd", "Baum", category="senior")
    changed = services.set_categories(
        tournament=day,
        user=organiser,
        categories={a.signup.pk: "woman", b.signup.pk: "senior"},
    )
    assert changed == 1
    a.signup.refresh_from_db()
    assert a.signup.category == "woman"
    log = SignupChange.objects.get(signup=a.signup, action="edited")
    assert (log.before, log.after, log.changed_by) == (
        {"category": ""},
        {"category": "woman"},
        organiser,
    )
    with pytest.raises(SignupError):
        services.set_categories(tournament=day, user=organiser, categories={a.signup.pk: "vip"})
    services.confirm(signup=a.signup, user=organiser)
    with pytest.raises(SignupError, match="Kategorie ist jetzt die des Spielers"):
        services.set_categories(tournament=day, user=organiser, categories={a.signup.pk: "youth"})
    with pytest.raises(SignupError):
        services.sign_up(
            tournament=day, first_name="Xaver", last_name="X", category="vip", consent=True
        )
    assert Signup.objects.get(pk=a.signup.pk).category == "woman"


def test_the_organisers_list_names_the_guests_before_confirming(
    day, four, organiser, guest_club, client
):
    rows = organiser_list(tournament=day)
    found = guests(tournament=day, rows=rows, user=organiser)
    by_name = {row.signup.last_name: found.get(row.signup.pk) for row in rows}
    assert by_name["Arnold"] is None
    assert (by_name["Gast"].where, by_name["Gast"].member) == ("CC Tr", False)
    assert (by_name["Frei"].where, by_name["Frei"].on_server) == (FREE_TEXT, False)
    assert by_name["Jung"].where == "CC Tr"
    client.cookies["django_language"] = "de"
    client.force_login(organiser)
    url = reverse("signups:organiser_list", args=[day.pk])
    text = client.get(url).content.decode()
    assert "Darunter 3 Gäste aus anderen Vereinen" in text
    assert "CC Tr, mit diesem Verein gezeigt, ohne Mitgliedschaft" in text
    assert f"„{FREE_TEXT}“, kein Verein auf diesem Server" in text
    # The categories saved from the list, then everyone confirmed: the guests are named.
    anna = four["anna"].signup
    response = client.post(
        url, {"action": "categories", f"category-{anna.pk}": "senior"}, follow=True
    )
    assert "1 Kategorie gespeichert." in response.content.decode()
    response = client.post(url, {"action": "confirm_all"}, follow=True)
    text = response.content.decode()
    assert "4 Anmeldungen bestätigt." in text
    assert "Gäste: Gerd Gast (CC Tr, ohne Mitgliedschaft);" in text
    assert player_of(four["anna"]).category == "senior"


def test_a_merge_keeps_the_guests_club(organiser, guest_club):
    kept = Player.objects.create(first_name="Gerd", last_name="Gast")
    removed = Player.objects.create(first_name="Gerd", last_name="Gast", guest_club=guest_club)
    merge_players(keep=kept, remove=removed, user=organiser)
    kept.refresh_from_db()
    assert kept.guest_club == guest_club


def test_the_shown_club_is_an_active_membership_before_a_passive_one(guest_club, host):
    player = Player.objects.create(first_name="Paula", last_name="Pass", guest_club=guest_club)
    Membership.objects.create(player=player, club=host, status="passive")
    Membership.objects.create(
        player=player, club=Club.objects.create(name="Zollhaus", short_name="ZZ", town="Z")
    )
    nobody = Player.objects.create(first_name="Nils", last_name="Niemand")
    EntryFactory(player=player)
    assert home_clubs(pk__in=[player.pk, nobody.pk]) == {player.pk: "ZZ", nobody.pk: ""}


def test_a_member_list_mapping_the_spelling_places_the_guests(day, organiser, guest_club):
    from clubs.services.imports import MAP, ClubChoice, apply_players
    from clubs.tabular import read_table

    done = sign(day, "Frieda", "Frei", club_text="Cegofreunde Tribärg")
    services.confirm(signup=done.signup, user=organiser)
    table = read_table("Name;Vorname;Verein\nMeier;Max;Cegofreunde Tribärg\n".encode(), "liste.csv")
    choices = {"cegofreunde tribaerg": ClubChoice(MAP, club_id=guest_club.pk)}
    apply_players(table=table, club_choices=choices)
    assert ClubAlias.objects.get().club == guest_club
    assert player_of(done).guest_club == guest_club


# --- to the hall: the laptop shows the guests' clubs too ----------------------------------


def test_the_registry_carries_the_guests_clubs_to_a_laptop(day, four, organiser, guest_club):
    import json
    import uuid

    from publishing.laptop.registry_answer import read_registry
    from publishing.laptop.services import load_registry
    from publishing.server.selectors import registry

    services.confirm_all(tournament=day, user=organiser)
    answer = registry(club=day.host_club)
    rows = {row["last_name"]: row for row in answer["players"]}
    assert rows["Gast"]["guest_club"] == str(guest_club.uuid)
    assert (rows["Frei"]["guest_club"], rows["Frei"]["guest_club_name"]) == (None, FREE_TEXT)
    # A fresh laptop: the same people under registry ids it has never seen.
    for row in answer["players"]:
        row["uuid"] = str(uuid.uuid4())
    load_registry(registry=read_registry(json.dumps(answer).encode(), categories=Category.values))
    copies = Player.objects.filter(uuid__in=[row["uuid"] for row in answer["players"]])
    shown = {p.last_name: (p.guest_club, p.guest_club_name) for p in copies}
    assert shown["Gast"] == (guest_club, "") and shown["Frei"] == (None, FREE_TEXT)
    assert shown["Arnold"] == (None, "")
    # An older server says nothing of guests: what the laptop knows stays.
    for row in answer["players"]:
        del row["guest_club"], row["guest_club_name"]
    load_registry(registry=read_registry(json.dumps(answer).encode(), categories=Category.values))
    assert copies.get(last_name="Frei").guest_club_name == FREE_TEXT


def test_a_registration_for_the_hall_brings_the_guests_club(
    day, organiser, guest_club, monkeypatch
):
    import uuid

    from publishing.laptop.fetching import take_registrations
    from publishing.models import Publication
    from publishing.server.handover import hand_over, registrations_for_the_hall
    from publishing.server.services import issue_token

    token = issue_token(club=day.host_club, label="Laptop")[0]
    hand_over(token=token, archive_id=day.archive_id)
    for first, last, where in (("Gerd", "Gast", {"club": guest_club}), ("Frieda", "Frei", {})):
        done = sign(day, first, last, club_text=FREE_TEXT if not where else "", **where)
        services.confirm(signup=done.signup, user=organiser)
    later = registrations_for_the_hall(token=token, archive_id=day.archive_id)
    guests_sent = {r["player"]["last_name"]: r["player"] for r in later["registrations"]}
    assert guests_sent["Gast"]["guest_club"]["short_name"] == "CC Tr"
    assert guests_sent["Frei"]["guest_club_name"] == FREE_TEXT
    # The laptop has not met these two yet (new registry ids), nor the club of one.
    for row in later["registrations"]:
        row["player"]["uuid"] = str(uuid.uuid4())
    guests_sent["Gast"]["guest_club"]["uuid"] = str(uuid.uuid4())
    publication = Publication.objects.create(
        tournament=day, url="http://127.0.0.1:9", token="t", registrations_after=0
    )
    monkeypatch.setattr("publishing.laptop.fetching.request", lambda *a, **k: later)
    take_registrations(publication=publication)
    uuids = [row["player"]["uuid"] for row in later["registrations"]]
    copies = {p.last_name: p for p in Player.objects.filter(uuid__in=uuids)}
    assert copies["Gast"].guest_club_name == "CC Tr"  # the club unknown here: its short name
    assert copies["Frei"].guest_club_name == FREE_TEXT
