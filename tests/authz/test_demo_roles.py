"""The demo as a new user would try it: ``gast`` (organiser of the second club) gets 403 or
404 on every non-public page of the host club's tournaments; ``schiri`` (referee of the
upcoming tournament) can correct a deal of it but cannot create a tournament; ``organisator``
runs the host club without the staff flag."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import get_resolver, reverse

from clubs import permissions
from clubs.models import Club
from tests.authz.test_matrix import EVERYONE, MATRIX
from tests.conftest import rows_for_the_module
from tournaments.models import Deal, Tournament
from tournaments.services import checkin, draws, phone_entry

pytestmark = pytest.mark.django_db
PASSWORD = "cego-demo"


@pytest.fixture(scope="module")
def module_demo(request, django_db_setup, django_db_blocker):
    with rows_for_the_module(request, django_db_blocker):
        call_command("load_demo", stdout=io.StringIO())
        finished = Tournament.objects.get(name__startswith="1. Turnier")
        upcoming = Tournament.objects.get(name__startswith="2. Turnier")
        yield finished, upcoming


@pytest.fixture
def demo(module_demo, db):
    """The demo, loaded once for the module; each test's changes are rolled back after it."""
    return module_demo


def signed_in(username: str) -> Client:
    """Through the login page, as a person would (and as django-axes sees it)."""
    client = Client()
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302, username
    return client


def kwargs_for(name: str, tournament: Tournament) -> dict | None:
    """The URL's arguments pointing into ``tournament`` (None: it has nothing to point at)."""
    deal = Deal.objects.filter(table__round__tournament=tournament).order_by("pk").first()
    table = deal.table if deal else None
    entry = tournament.entries.order_by("number").first()
    values = {
        "pk": tournament.pk,
        "round": 1,
        "round_number": 1,
        "table_number": 1,
        "table_pk": table.pk if table else None,
        "deal_pk": deal.pk if deal else None,
        "entry_pk": entry.pk,
        "pair_pk": tournament.keep_apart_pairs.values_list("pk", flat=True).first(),
    }
    resolver = get_resolver()
    *namespaces, short_name = name.split(":")
    for namespace in namespaces:
        resolver = resolver.namespace_dict[namespace][1]
    route = resolver.reverse_dict.getlist(short_name)
    wanted = set()
    for possibility, _pattern, _defaults, _converters in route:
        for _text, params in possibility:
            wanted |= set(params)
    if "token" in wanted or "slug" in wanted:
        return None
    if not wanted <= set(values) or any(values[k] is None for k in wanted):
        return None
    return {k: values[k] for k in wanted}


def test_gast_is_refused_everywhere_in_the_host_clubs_tournaments(demo):
    finished, upcoming = demo
    checkin.add_keep_apart(
        tournament=finished,
        first=finished.entries.get(number=1),
        second=finished.entries.get(number=2),
    )
    gast = signed_in("gast")
    tried = 0
    for tournament in (finished, upcoming):
        for name, spec in MATRIX.items():
            if spec.allowed == EVERYONE or name == "exports:season_standings_xlsx":
                continue
            if name in ("tournaments:tournament_create", "tournaments:archive_upload"):
                continue  # gast creates (or imports) tournaments for their own club
            kwargs = kwargs_for(name, tournament)
            if kwargs is None:
                continue
            url = reverse(name, kwargs=kwargs)
            if not url.startswith(("/tournaments/", "/deals/", "/tables/")):
                continue  # a club's, player's or season's page: its pk is not a tournament's
            for method in (gast.get, gast.post):
                status = method(url).status_code
                # 405: a GET of a POST-only address, refused before any object is looked at
                wanted = (403, 404, 405) if spec.post_only and method == gast.get else (403, 404)
                assert status in wanted, (url, method.__name__, status)
                tried += 1
    assert tried > 60
    # The refusal is a page in the app's look and in German, not a bare "403 Forbidden".
    refusal = gast.get(reverse("tournaments:checkin", args=[upcoming.pk])).content.decode()
    assert "Kein Zugriff" in refusal and "css/app.css" in refusal
    # The season the host club runs: not gast's either.
    url = reverse("exports:season_standings_xlsx", args=[finished.season_id])
    assert gast.get(url).status_code == 403
    # gast creates tournaments, but only for their own club.
    page = gast.get(reverse("tournaments:tournament_create"))
    assert page.status_code == 200
    choices = list(page.context["form"].fields["host_club"].queryset)
    assert choices == [Club.objects.get(short_name="CC Furtwangen")]


def test_schiri_corrects_a_deal_of_the_upcoming_tournament_but_creates_nothing(demo):
    _finished, upcoming = demo
    organisator = get_user_model().objects.get(username="organisator")
    for entry in upcoming.entries.all():
        checkin.set_checked_in(entry=entry, checked_in=True, user=organisator)
    round_1 = draws.draw_next_round(tournament=upcoming, number=1, user=organisator)
    table = round_1.tables.get(number=1)
    deal = phone_entry.enter_deal(
        table=table,
        number=1,
        inputs={"contract": "eine", "declarer": 1, "declarer_points": 41},
        user=organisator,
    )
    schiri = signed_in("schiri")
    url = reverse("tournaments:deal_correct", args=[deal.pk])
    assert schiri.get(url).status_code == 200
    response = schiri.post(
        url,
        {
            "number": 1,
            "contract": "eine",
            "declarer": 1,
            "declarer_points": 35,
            "expected_version": deal.version,
            "reason": "Augen falsch gezählt",
        },
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.declarer_points == 35
    assert deal.changes.latest("pk").changed_by.username == "schiri"
    # … but no tournament of their own, and nothing of the organisers' work.
    assert schiri.get(reverse("tournaments:tournament_create")).status_code == 403
    assert schiri.get(reverse("tournaments:checkin", args=[upcoming.pk])).status_code == 403
    assert schiri.get(reverse("tournaments:tournament_edit", args=[upcoming.pk])).status_code == 403
    # Nor anything in the finished tournament, which they do not referee.
    finished_deal = Deal.objects.filter(table__round__tournament=_finished).first()
    assert (
        schiri.get(reverse("tournaments:deal_correct", args=[finished_deal.pk])).status_code == 403
    )


def test_organisator_runs_the_host_club_without_the_staff_flag(demo):
    finished, upcoming = demo
    organisator = get_user_model().objects.get(username="organisator")
    assert not organisator.is_staff and not organisator.is_superuser
    client = signed_in("organisator")
    for url in (
        reverse("tournaments:tournament_create"),
        reverse("tournaments:tournament_edit", args=[upcoming.pk]),
        reverse("tournaments:checkin", args=[upcoming.pk]),
        reverse("tournaments:tournament_log", args=[finished.pk]),
        reverse("tournaments:desk_round", args=[finished.pk, 1]),
    ):
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("admin:index")).status_code == 403  # the admin is not theirs (28)
    home = client.get("/").content.decode()
    assert "Neues Turnier" in home and "/admin/" not in home


def test_the_permissions_module_answers_for_objects_of_a_tournament(demo):
    finished, upcoming = demo
    users = {u.username: u for u in get_user_model().objects.all()}
    deal = Deal.objects.filter(table__round__tournament=finished).first()
    for obj in (finished, deal, deal.table, deal.table.round, finished.entries.first()):
        assert permissions.has_perm(users["organisator"], permissions.MANAGE_TOURNAMENT, obj)
        assert not permissions.has_perm(users["gast"], permissions.MANAGE_TOURNAMENT, obj)
        assert not permissions.has_perm(users["schiri"], permissions.REFEREE_TOURNAMENT, obj)
    assert permissions.has_perm(users["schiri"], permissions.REFEREE_TOURNAMENT, upcoming)
    assert not permissions.has_perm(users["schiri"], permissions.MANAGE_TOURNAMENT, upcoming)
    host = finished.host_club
    assert permissions.has_perm(users["organisator"], permissions.MANAGE_CLUB, host)
    assert not permissions.has_perm(users["gast"], permissions.MANAGE_CLUB, host)
    player = host.players.first()
    assert permissions.has_perm(users["organisator"], permissions.MANAGE_CLUB, player)
    assert not permissions.has_perm(users["gast"], permissions.MANAGE_CLUB, player)
    assert permissions.has_perm(users["organisator"], permissions.MANAGE_SEASON, finished.season)
    assert not permissions.has_perm(users["gast"], permissions.MANAGE_SEASON, finished.season)
    users["organisator"].is_active = False
    assert not permissions.has_perm(users["organisator"], permissions.MANAGE_CLUB, host)
    with pytest.raises(ValueError):
        permissions.has_perm(users["schiri"], "fly", upcoming)


def test_objects_of_a_club_or_a_season_belong_to_their_clubs(demo):
    """What other areas pass in: something with a ``club`` (a fee), or a ``season`` (a team)."""
    finished, _upcoming = demo
    users = {u.username: u for u in get_user_model().objects.all()}
    host = finished.host_club

    class Fee:
        club_id = host.pk

    class Team:
        season = finished.season

    for obj in (Fee(), Team()):
        assert permissions.has_perm(users["organisator"], permissions.MANAGE_CLUB, obj)
        assert not permissions.has_perm(users["gast"], permissions.MANAGE_CLUB, obj)
        assert not permissions.has_perm(users["organisator"], permissions.MANAGE_TOURNAMENT, obj)
    assert not permissions.has_perm(users["organisator"], permissions.MANAGE_CLUB, object())


def test_the_demo_has_public_player_pages_linked_from_the_standings(demo):
    """A visitor of the demo finds the players' pages of the club that shows them (issue 30),
    and the season's statistics."""
    finished, _upcoming = demo
    public = Club.objects.filter(public_player_pages=True)
    assert public.exists()
    player = finished.entries.filter(player__memberships__club__in=public).first().player
    link = reverse("seasons:player_detail", args=[player.pk])
    visitor = Client()
    for page in (
        reverse("tournaments:standings", args=[finished.pk]),
        reverse("seasons:season_standings", args=[finished.season_id]),
    ):
        assert f'href="{link}"' in visitor.get(page).content.decode(), page
    html = visitor.get(link).content.decode()
    assert player.last_name in html and "Spiele nach Spielart" in html
    statistics = visitor.get(reverse("seasons:season_statistics", args=[finished.season_id]))
    assert statistics.status_code == 200 and "Verschiedene Spieler" in statistics.content.decode()
