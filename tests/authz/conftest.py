"""Personas and one small tournament day for the authorisation tests.

The world: club A hosts tournament ``day`` (8 players at two tables in round 1, a ninth
registered but not checked in, one confirmed deal and one waiting for confirmation at table
1, a keep-apart pair) in a season; club B hosts ``elsewhere``. The personas:

- ``anonymous``: nobody signed in (also the table token holder: the token is the key);
- ``norole``: signed in, no role at all;
- ``organiser``: organiser of club A (the host);
- ``gast``: organiser of club B;
- ``referee``: referee of ``day``;
- ``other_referee``: referee of ``elsewhere`` only;
- ``scorer``: the association's season scorer (``AssociationRole``), of no club;
- ``superuser``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from clubs.models import AssociationRole, Club, ClubRole, Membership, Player
from seasons.models import Season
from tests.conftest import rows_for_the_module
from tournaments.models import Deal, Entry, KeepApart, Table, Team, Tournament
from tournaments.services import checkin, draws, phone_entry, setup
from tournaments.services.results_common import Device

PERSONAS = (
    "anonymous",
    "norole",
    "organiser",
    "gast",
    "referee",
    "other_referee",
    "scorer",
    "superuser",
)
EINE_WON = {"contract": "eine", "declarer": 1, "declarer_points": 41}
PHONE = Device(id="a" * 32, ip_address="192.0.2.7")


@dataclass
class World:
    club_a: Club
    club_b: Club
    season: Season
    day: Tournament
    elsewhere: Tournament
    table: Table
    other_table: Table
    confirmed: Deal
    pending: Deal
    spare: Entry
    pair: KeepApart
    users: dict
    membership: Membership
    team: Team


def make_world() -> World:
    users = {}
    model = get_user_model()
    for name in PERSONAS[1:]:
        if name == "superuser":
            users[name] = model.objects.create_superuser(name, "", "pw")
        else:
            users[name] = model.objects.create_user(name, "", "pw")
    club_a = Club.objects.create(name="Cegofreunde A", short_name="CF A", town="A-Dorf")
    club_b = Club.objects.create(name="Cegoclub B", short_name="CC B", town="B-Stadt")
    ClubRole.objects.create(user=users["organiser"], club=club_a)
    ClubRole.objects.create(user=users["gast"], club=club_b)
    AssociationRole.objects.create(user=users["scorer"])
    season = Season.objects.create(
        name="Saison", starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30)
    )
    day = setup.create_tournament(
        name="Turnier A",
        host_club=club_a,
        season=season,
        date=dt.date(2026, 11, 28),
        rules_slug="swm",
        deals_per_round=4,
    )
    elsewhere = setup.create_tournament(
        name="Turnier B", host_club=club_b, date=dt.date(2026, 11, 29), rules_slug="swm"
    )
    setup.set_referees(tournament=day, referees=[users["referee"]])
    setup.set_referees(tournament=elsewhere, referees=[users["other_referee"]])
    entries = []
    for index in range(9):
        player = Player.objects.create(first_name=f"Vor{index}", last_name=f"Nach{index}")
        entries.append(setup.register_player(tournament=day, player=player, checked_in=index < 8))
    round_1 = draws.draw_next_round(tournament=day, number=1, seed=7)
    draws.release_draw(round=round_1, user=users["organiser"])  # checked and shown
    table, other_table = round_1.tables.order_by("number")
    confirmed = phone_entry.enter_deal(table=table, number=1, inputs=EINE_WON)
    pending = phone_entry.enter_deal(
        table=table,
        number=2,
        inputs=EINE_WON,
        via="table",
        entered_by_position=0,
        device=PHONE,
    )
    pair = checkin.add_keep_apart(tournament=day, first=entries[0], second=entries[5])
    membership = Membership.objects.create(player=entries[0].player, club=club_a)
    team = Team.objects.create(tournament=day, name="Team A", club=club_a)
    return World(
        club_a=club_a,
        club_b=club_b,
        season=season,
        day=day,
        elsewhere=elsewhere,
        table=table,
        other_table=other_table,
        confirmed=confirmed,
        pending=pending,
        spare=entries[8],
        pair=pair,
        users=users,
        membership=membership,
        team=team,
    )


@pytest.fixture(scope="module")
def module_world(request, django_db_setup, django_db_blocker) -> World:
    with rows_for_the_module(request, django_db_blocker):
        yield make_world()


@pytest.fixture
def world(module_world, db) -> World:
    """The world, made once a module; each test's changes are rolled back after it."""
    return module_world


def client_for(world: World, persona: str) -> Client:
    client = Client()
    if persona != "anonymous":
        client.force_login(world.users[persona])
    return client


@pytest.fixture
def clients(world):
    return {persona: client_for(world, persona) for persona in PERSONAS}
