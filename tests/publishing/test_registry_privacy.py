"""Each club's registry its own: ``GET /api/registry/`` gives a token's club its own members in
full and everybody else only as the public pages show them, and a laptop that fetched it
holds no more than that.

The world and its marker records are the authorisation tests' (``tests/authz``): club A's
Anna Markeraa (owner's member), club B's Berta Markerbb and B's Anna Markeraa (outsiders),
Dora Markerdd (a member of both clubs: A's number is A's business, B's number B's). The
personas here are tokens: club A's (the owner of its members' data), club B's, a revoked one,
none.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership, Player
from clubs.permissions import club_registry_memberships, club_registry_players
from clubs.services.sanctions import record_sanction
from publishing.laptop.registry_answer import read_registry
from publishing.laptop.services import load_registry
from publishing.server.selectors import registry
from publishing.server.services import issue_token, revoke_token
from tests.authz.conftest import make_world
from tests.authz.test_contents import MARKS, plant, shows

pytestmark = pytest.mark.django_db

A_PRIVATE = {"a_born", "a_no", "a_mail", "d_a_no"}
B_PRIVATE = {"b_born", "b_no", "b_mail", "t_born", "t_no", "t_mail", "d_b_no"}
PUBLIC = {"b_name", "club_a", "club_b"}


@pytest.fixture
def world():
    world = make_world()
    planted = plant(world)
    # B's members: one passive (a status that is B's business), one without a club at all.
    Membership.objects.filter(player=planted.b).update(status="passive", since="2001-02-03")
    # Its id holds A's birth year among its hex digits (CI once drew such an id at random, and
    # B's answer seemed to show Anna's birth year).
    Player.objects.create(
        first_name="Ohne",
        last_name="Verein",
        birth_year=1947,
        email="o@x.de",
        uuid=uuid.UUID("a1931f00-0000-4000-8000-000000000000"),
    )
    return world, planted


def fetch(client, raw):
    return client.get(reverse("publishing:registry"), HTTP_AUTHORIZATION=f"Bearer {raw}")


def markers_in(text: str) -> set[str]:
    return {name for name, value in MARKS.items() if shows(text, value)}


def row_of(data, player):
    return next(row for row in data["players"] if row["uuid"] == str(player.uuid))


def test_a_clubs_token_gets_its_own_members_in_full_and_the_rest_as_the_public_sees_them(
    client, world
):
    world, planted = world
    a_row, a_token = issue_token(club=world.club_a)
    _row, b_token = issue_token(club=world.club_b)
    answer = fetch(client, a_token)
    assert answer.status_code == 200
    a_row.refresh_from_db()
    assert a_row.last_used_at is not None  # the token page shows the laptop's last call
    text = answer.content.decode()
    assert markers_in(text) & (A_PRIVATE | B_PRIVATE | PUBLIC) == A_PRIVATE | PUBLIC
    data = answer.json()
    assert data["club"] == str(world.club_a.uuid)
    # The owner's member: birth year, e-mail, number, status as A's organisers see them.
    anna = row_of(data, planted.a)
    assert (anna["birth_year"], anna["email"]) == (1931, MARKS["a_mail"])
    assert anna["named_for_age"] is False  # with the birth year: the consent to name the age
    assert anna["memberships"] == [
        {
            "club": str(world.club_a.uuid),
            "member_number": MARKS["a_no"],
            "status": "active",
            "since": None,
            "left_on": None,
        }
    ]
    # The outsider: name, category, club, registry id; nothing else, not even its status.
    berta = row_of(data, planted.b)
    assert berta == {
        "uuid": str(planted.b.uuid),
        "first_name": "Berta",
        "last_name": MARKS["b_name"],
        "category": "open",
        "guest_club": None,
        "guest_club_name": "",
        "memberships": [{"club": str(world.club_b.uuid)}],
    }
    assert "passive" not in text and "2001-02-03" not in text
    # A member of both: A's membership in full, B's as the public sees it.
    dora = row_of(data, planted.dora)
    assert "birth_year" in dora  # A's member: A's business
    assert sorted(dora["memberships"], key=len) == [
        {"club": str(world.club_b.uuid)},
        {
            "club": str(world.club_a.uuid),
            "member_number": MARKS["d_a_no"],
            "status": "active",
            "since": None,
            "left_on": None,
        },
    ]
    # A player of no club is nobody's own: as the public sees them.
    nobody = next(row for row in data["players"] if row["last_name"] == "Verein")
    assert "birth_year" not in nobody and "email" not in nobody and not shows(text, "1947")
    assert "named_for_age" not in nobody

    # Club B's token: the mirror image.
    other = fetch(client, b_token).content.decode()
    found = markers_in(other) & (A_PRIVATE | B_PRIVATE)
    assert found == B_PRIVATE
    assert "passive" in other and "2001-02-03" in other


def test_without_a_live_token_nothing(client, world):
    world, _planted = world
    row, raw = issue_token(club=world.club_a)
    assert client.get(reverse("publishing:registry")).status_code == 401
    revoke_token(token=row)
    refused = fetch(client, raw)
    assert refused.status_code == 401 and refused["Content-Type"] == "application/json"
    assert "widerrufen" in refused.json()["error"]  # German
    assert markers_in(refused.content.decode()) == set()


def test_the_permission_module_decides_for_a_club_as_for_its_organisers(world):
    world, planted = world
    own = set(club_registry_players(world.club_a, Player.objects.all()))
    assert own == {planted.a, planted.dora, world.membership.player}  # A's members, no others
    assert not club_registry_players(None, Player.objects.all()).exists()
    numbers = set(
        club_registry_memberships(world.club_a, Membership.objects.all()).values_list(
            "member_number", flat=True
        )
    )
    assert MARKS["a_no"] in numbers and MARKS["d_a_no"] in numbers
    assert not numbers & {MARKS["b_no"], MARKS["t_no"], MARKS["d_b_no"]}


def test_the_registry_is_read_in_seven_queries_whatever_its_size(world, django_assert_num_queries):
    world, _planted = world
    with django_assert_num_queries(6):  # the sanctions: one more
        registry(club=world.club_a)
    # a ban for N tournaments: the championship tournaments' dates, once. Starting tomorrow, so
    # that none has run out by today whatever the day the test runs (the world's tournaments
    # are on fixed dates: from a day after them, a ban for one of them would be over).
    starts_on = timezone.localdate() + dt.timedelta(days=1)
    record_sanction(
        player_id=Player.objects.first().pk,
        reason="r",
        starts_on=starts_on,
        ends_on=None,
        tournaments=2,
        decided_by="Vorstand",
        user=None,
    )
    with django_assert_num_queries(7):
        small = registry(club=world.club_a)
    for index in range(30):
        player = Player.objects.create(first_name="Neu", last_name=f"Spieler{index}")
        Membership.objects.create(player=player, club=world.club_b, member_number=f"N{index}")
        record_sanction(
            player_id=player.pk,
            reason="r",
            starts_on=starts_on,
            ends_on=None,
            tournaments=1 + index % 3,
            decided_by="Vorstand",
            user=None,
        )
    with django_assert_num_queries(7):
        large = registry(club=world.club_a)
    assert len(large["players"]) == len(small["players"]) + 30
    assert len(large["sanctions"]) == len(small["sanctions"]) + 30


def test_a_laptop_that_fetched_club_as_registry_holds_no_private_data_of_club_b(client, world):
    world, planted = world
    _row, a_token = issue_token(club=world.club_a)
    data = fetch(client, a_token).json()
    # A fresh laptop: every record new to it (other registry ids, other club names).
    new_id = {}
    text = json.dumps(data)
    for found in {c["uuid"] for c in data["clubs"]} | {p["uuid"] for p in data["players"]}:
        new_id[found] = str(uuid.uuid4())
        text = text.replace(found, new_id[found])
    fresh = json.loads(text)
    for club in fresh["clubs"]:
        club["name"], club["short_name"] = club["name"] + " (L)", club["short_name"] + "L"
    before = set(Player.objects.values_list("pk", flat=True))
    counts = load_registry(registry=read_registry(json.dumps(fresh).encode(), categories=["open"]))
    assert counts["players_new"] == len(fresh["players"]) and counts["players_updated"] == 0
    laptop = Player.objects.exclude(pk__in=before)

    def there(player):
        return laptop.get(uuid=new_id[str(player.uuid)])

    anna = there(planted.a)
    assert (anna.birth_year, anna.email) == (1931, MARKS["a_mail"])
    assert anna.memberships.get().member_number == MARKS["a_no"]
    for outsider in (planted.b, planted.twin):
        copy = there(outsider)
        assert (copy.birth_year, copy.email) == (None, "")
        membership = copy.memberships.get()
        assert membership.club.short_name == "CC BL" and membership.member_number == ""
    assert dict(
        there(planted.dora).memberships.values_list("club__short_name", "member_number")
    ) == {
        "CF AL": MARKS["d_a_no"],
        "CC BL": "",
    }
    stored = json.dumps(
        [
            list(laptop.values()),
            list(Membership.objects.filter(player__in=laptop).values()),
        ],
        default=str,
    )
    assert markers_in(stored) & B_PRIVATE == set()
    assert markers_in(stored) & A_PRIVATE == A_PRIVATE
