"""The way back, in one process: a tournament set up on the season server is listed for a
club's token, handed to the hall (``POST /api/publish/tournaments/<id>/fetch/``), read-only
on the server's pages from then on, and taken by a laptop (``publishing.laptop.fetching``) whose
first batch is only what differs. Registrations made on the server after the hand-over wait
for the laptop and are marked delivered when they come back as entries."""

import gzip
import json
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Membership, Player
from clubs.permissions import HeldInHall, check_not_in_hall, held_in_hall
from publishing.laptop import outbox
from publishing.laptop.fetching import (
    FetchError,
    take_all_registrations,
    take_over,
    take_registrations,
)
from publishing.models import Publication
from publishing.server.services import issue_token
from tests.factories import EntryFactory, TournamentFactory
from tournaments.archive_format import BATCH_FORMAT, BATCH_VERSION, state_digest
from tournaments.models import (
    ArchiveItem,
    Entry,
    HallRegistration,
    KeepApart,
    Round,
    Team,
    Tournament,
    TournamentChange,
)
from tournaments.services.registration import register_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    host = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    other = Club.objects.create(name="Cego-Club Triberg", short_name="CC Tr", town="Triberg")
    return host, other


@pytest.fixture
def tokens(clubs):
    host, other = clubs
    return issue_token(club=host, label="Laptop")[1], issue_token(club=other, label="Tr")[1]


@pytest.fixture
def prepared(clubs):
    """Set up on the server: four registrations (three members of the host with birth year
    and member number, a guest of Triberg), a team and a keep-apart pair."""
    host, other = clubs
    tournament = TournamentFactory(host_club=host, name="Herbstturnier", deals_per_round=12)
    team = Team.objects.create(tournament=tournament, name="Bräunlingen 1", club=host)
    entries = []
    for number in range(1, 5):
        player = Player.objects.create(
            first_name=f"Vor{number}", last_name=f"Nach{number}", birth_year=1960 + number
        )
        club = other if number == 4 else host
        Membership.objects.create(player=player, club=club, member_number=f"M{number}")
        entries.append(
            EntryFactory(
                tournament=tournament,
                player=player,
                number=number,
                team=team if number <= 2 else None,
            )
        )
    KeepApart.objects.create(tournament=tournament, first=entries[0], second=entries[2])
    return tournament


def get(client, path, token):
    return client.get(path, HTTP_AUTHORIZATION=f"Bearer {token}")


def post(client, path, token, body=b""):
    return client.post(
        path, data=body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def fetch_path(archive_id):
    return reverse("publishing:hall_fetch", args=[str(archive_id)])


def test_the_list_names_the_clubs_tournaments_set_up_here(client, prepared, tokens, clubs):
    host, _other = clubs
    finished = TournamentFactory(host_club=host, finished_at=timezone.now())
    copy = TournamentFactory(host_club=host, archive_revision=3, archive_hash="x" * 64)
    TournamentFactory(host_club=clubs[1])
    answer = get(client, reverse("publishing:hall_tournaments"), tokens[0]).json()
    rows = {row["archive_id"]: row for row in answer["tournaments"]}
    assert set(rows) == {str(prepared.archive_id)}  # not finished, not a laptop's copy
    row = rows[str(prepared.archive_id)]
    assert row["name"] == "Herbstturnier" and row["registrations"] == 4
    assert row["date"] == "2026-11-28" and row["in_hall_since"] is None
    assert str(finished.archive_id) not in rows and str(copy.archive_id) not in rows
    assert get(client, reverse("publishing:hall_tournaments"), "nonsense").status_code == 401


def test_fetching_hands_the_tournament_to_the_hall(client, prepared, tokens):
    response = post(client, fetch_path(prepared.archive_id), tokens[0])
    assert response.status_code == 200, response.content
    answer = response.json()
    archive = answer["archive"]
    assert [e["number"] for e in archive["entries"]] == [1, 2, 3, 4]
    assert archive["teams"] == [{"name": "Bräunlingen 1", "club": "CF Br"}]
    assert [(p["first"], p["second"]) for p in archive["keep_apart"]] == [(1, 3)]
    players = {p["last_name"]: p for p in archive["players"]}
    # Personal data as the registry gives the token's club: its own members only.
    assert players["Nach1"]["birth_year"] == 1961 and players["Nach1"]["member_number"] == "M1"
    assert players["Nach4"]["birth_year"] is None and players["Nach4"]["member_number"] == ""
    assert answer["state"] == state_digest(answer["digests"]) and answer["warning"] == ""
    prepared.refresh_from_db()
    assert held_in_hall(prepared) and prepared.archive_revision == 0
    assert prepared.archive_hash == answer["state"]
    stored = dict(ArchiveItem.objects.filter(tournament=prepared).values_list("key", "digest"))
    assert stored == answer["digests"]
    log = TournamentChange.objects.get(tournament=prepared, action="handed_to_hall")
    assert "Laptop" in log.actor


def test_fetched_again_it_warns_and_answers_where_the_server_stands(client, prepared, tokens):
    first = post(client, fetch_path(prepared.archive_id), tokens[0]).json()
    again = post(client, fetch_path(prepared.archive_id), tokens[0]).json()
    assert again["state"] == first["state"] and again["digests"] == first["digests"]
    assert "before" in again["warning"] or "schon einmal" in again["warning"]
    assert (
        TournamentChange.objects.filter(tournament=prepared, action="handed_to_hall").count() == 2
    )


@pytest.mark.parametrize("case", ["unknown", "not_an_id", "other_club", "finished", "copy"])
def test_bad_fetches_say_why_and_write_nothing(client, prepared, tokens, clubs, case):
    token, archive_id, status = tokens[0], prepared.archive_id, 404
    if case == "unknown":
        archive_id = uuid.uuid4()
    elif case == "not_an_id":
        archive_id = "nicht-eine-id"
    elif case == "other_club":
        token, status = tokens[1], 403
    elif case == "finished":
        Tournament.objects.filter(pk=prepared.pk).update(finished_at=timezone.now())
        status = 409
    else:
        Tournament.objects.filter(pk=prepared.pk).update(archive_revision=2, archive_hash="y")
        status = 409
    client.cookies["django_language"] = "de"
    response = post(client, fetch_path(archive_id), token)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert "Nichts wurde geholt" in response.json()["error"], response.json()
    prepared.refresh_from_db()
    assert prepared.in_hall_since is None
    assert not ArchiveItem.objects.filter(tournament=prepared).exists()
    assert not TournamentChange.objects.filter(action="handed_to_hall").exists()


def test_the_servers_pages_refuse_changes_once_the_hall_holds_it(client, prepared, tokens):
    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.create_superuser("orga", "", "pw")
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    draw = reverse("tournaments:round_draw", args=[prepared.pk, 1])
    post(client, fetch_path(prepared.archive_id), tokens[0])
    prepared.refresh_from_db()
    with pytest.raises(HeldInHall):
        check_not_in_hall(prepared)
    response = client.post(draw, {"draw": "1"})
    assert response.status_code == 403
    assert "in der Halle geführt" in response.content.decode()
    assert not Round.objects.filter(tournament=prepared).exists()
    entry = prepared.entries.get(number=4)
    response = client.post(reverse("tournaments:unregister", args=[prepared.pk, entry.pk]))
    assert response.status_code == 403 and Entry.objects.filter(pk=entry.pk).exists()
    assert client.get(reverse("tournaments:registration", args=[prepared.pk])).status_code == 200


def test_a_registration_after_the_hand_over_waits_for_the_hall(client, prepared, tokens):
    post(client, fetch_path(prepared.archive_id), tokens[0])
    prepared.refresh_from_db()
    late = Player.objects.create(first_name="Lena", last_name="Spät", birth_year=2001)
    result = register_players(tournament=prepared, players=[late])
    assert result.for_the_hall == 1 and result.registered == []
    assert not Entry.objects.filter(tournament=prepared, player=late).exists()
    again = register_players(tournament=prepared, players=[late])
    assert again.for_the_hall == 0 and again.already == 1
    path = reverse("publishing:hall_registrations", args=[str(prepared.archive_id)])
    answer = get(client, path + "?after=0", tokens[0]).json()
    (row,) = answer["registrations"]
    assert row["player"]["last_name"] == "Spät" and row["player"]["birth_year"] is None
    assert answer["closed"] is False
    assert get(client, f"{path}?after={row['id']}", tokens[0]).json()["registrations"] == []
    assert get(client, path, tokens[1]).status_code == 403
    Round.objects.create(tournament=prepared, number=1, draw_seed=1)
    with pytest.raises(ValidationError):
        register_players(tournament=prepared, players=[Player.objects.create(last_name="Z")])


def _batch(base, digests, upserts, revision=5):
    after = {**digests, **{key: outbox_digest(item) for key, item in upserts.items()}}
    return {
        "format": BATCH_FORMAT,
        "version": BATCH_VERSION,
        "archive_id": None,
        "revision": revision,
        "base": base,
        "state": state_digest(after),
        "upserts": upserts,
        "deletes": [],
    }


def outbox_digest(item):
    from tournaments.archive_format import item_digest

    return item_digest(item)


def test_the_laptops_batches_apply_onto_the_handed_over_state(client, prepared, tokens):
    answer = post(client, fetch_path(prepared.archive_id), tokens[0]).json()
    late = Player.objects.create(first_name="Lena", last_name="Spät")
    Membership.objects.create(player=late, club=prepared.host_club)
    prepared.refresh_from_db()
    register_players(tournament=prepared, players=[late])
    from tournaments.archive_format import archive_items

    items = archive_items(answer["archive"])
    checked_in = {**items["entry:1"], "checked_in": True}
    new_entry = {
        "number": 5,
        "player": {
            "key": "p5",
            "uuid": str(late.uuid),
            "first_name": "Lena",
            "last_name": "Spät",
            "birth_year": None,
            "category": "open",
            "club": "CF Br",
            "member_number": "",
        },
        "category": "open",
        "fee_paid": False,
        "checked_in": False,
        "withdrawn_after_round": None,
        "paper_total": None,
        "fill_in": False,
        "team": None,
    }
    batch = _batch(
        answer["state"], answer["digests"], {"entry:1": checked_in, "entry:5": new_entry}
    )
    batch["archive_id"] = str(prepared.archive_id)
    body = gzip.compress(json.dumps(batch).encode())
    response = client.post(
        reverse("publishing:publish_changes"),
        data=body,
        content_type="application/json",
        HTTP_CONTENT_ENCODING="gzip",
        HTTP_AUTHORIZATION=f"Bearer {tokens[0]}",
    )
    assert response.status_code == 200, response.content
    assert response.json()["state"] == batch["state"]
    assert Tournament.objects.filter(archive_id=prepared.archive_id).count() == 1
    assert prepared.entries.get(number=1).checked_in
    assert prepared.entries.get(number=5).player == late
    assert HallRegistration.objects.get(player=late).delivered_at is not None


def test_the_laptop_takes_it_over_and_sends_only_the_difference(client, prepared, tokens):
    """The laptop's side (in this one database: the server's tournament is gone first, as
    if the answer had travelled to another machine)."""
    answer = post(client, fetch_path(prepared.archive_id), tokens[0]).json()
    assert answer["revision"] == 0
    answer["revision"] = 40  # as if another laptop had sent revision 40 before
    Tournament.objects.filter(pk=prepared.pk).delete()
    url = "http://127.0.0.1:9"
    fetched = take_over(url=url, token=tokens[0], answer=answer)
    here = fetched.tournament
    assert here.archive_id == prepared.archive_id and fetched.entries == 4
    assert here.archive_revision is None and here.archive_hash == ""  # like one created here
    assert here.revision > 40  # its batches are newer than what the server holds
    assert Entry.objects.filter(tournament=here, team__name="Bräunlingen 1").count() == 2
    assert KeepApart.objects.filter(tournament=here).count() == 1
    publication = Publication.objects.get(tournament=here, url=url)
    assert publication.sent_hash == answer["state"] and publication.registrations_after == 0
    batch = outbox.next_batch(publication=publication)
    # Only what differs: here (one database for both sides) the Triberg guest's birth year
    # and member number, which the server held back from this club's laptop, are in the
    # laptop's registry too; on a real laptop they are not, and nothing differs at all.
    assert batch.body is not None and set(batch.body["upserts"]) == {"entry:4"}
    assert batch.body["base"] == answer["state"] and batch.body["deletes"] == []
    with pytest.raises(FetchError):
        take_over(url=url, token=tokens[0], answer={"archive": answer["archive"]})


def test_registrations_are_taken_once(prepared, tokens, monkeypatch):
    publication = Publication.objects.create(
        tournament=prepared, url="http://127.0.0.1:9", token="t", registrations_after=0
    )
    late = Player.objects.create(first_name="Lena", last_name="Spät")
    rows = [
        {
            "id": 7,
            "player": {
                "uuid": str(late.uuid),
                "first_name": "Lena",
                "last_name": "Spät",
                "clubs": [{"uuid": str(prepared.host_club.uuid)}],
            },
        },
        {
            "id": 8,
            "player": {"uuid": str(uuid.uuid4()), "first_name": "Neu", "last_name": "Ling"},
        },
    ]
    monkeypatch.setattr(
        "publishing.laptop.fetching.request",
        lambda *a, **k: {"registrations": rows, "closed": False},
    )
    assert take_all_registrations() == 2  # the sender's pass
    assert take_registrations(publication=publication) == 0  # the same answer again
    publication.refresh_from_db()
    assert publication.registrations_after == 8
    assert prepared.entries.count() == 6
    assert Membership.objects.filter(player=late, club=prepared.host_club).exists()
    Round.objects.create(tournament=prepared, number=1, draw_seed=1)
    rows.append(
        {"id": 9, "player": {"uuid": str(uuid.uuid4()), "first_name": "A", "last_name": "B"}}
    )
    assert take_registrations(publication=publication) == 0  # a round is drawn: closed
    assert take_all_registrations() == 0


def test_the_venue_home_page_leads_to_fetching_one_with_one_click(
    client, prepared, settings, monkeypatch
):
    """The button on the venue's home page, the address of ``--publish-to`` offered, the
    running venue's token used, the list, one click."""
    from django.contrib.auth import get_user_model

    from publishing.laptop import sender, views
    from publishing.laptop.fetching import Fetched

    settings.VENUE_MODE = True
    get_user_model().objects.create_superuser("orga", "", "pw")
    client.post(reverse("login"), {"username": "orga", "password": "pw"})  # held to this device
    page = reverse("publishing:fetch_from_server")
    assert page in client.get(reverse("tournaments:home")).content.decode()
    monkeypatch.setitem(sender._configured, "url", "https://saison.example")
    monkeypatch.setitem(sender._configured, "token", "started-with")
    assert 'value="https://saison.example"' in client.get(page).content.decode()
    asked = {}

    def listing(*, url, token):
        asked.update(url=url, token=token)
        return [
            {
                "archive_id": str(prepared.archive_id),
                "name": "Herbstturnier",
                "date": "2026-11-28",
                "registrations": 4,
                "in_hall_since": None,
            }
        ]

    monkeypatch.setattr(views, "fetchable", listing)
    shown = client.post(page, {"url": "https://saison.example", "token": ""})
    assert asked == {"url": "https://saison.example", "token": "started-with"}
    assert str(prepared.archive_id) in shown.content.decode()

    def fetching(*, url, token, archive_id):
        asked.update(fetched=(url, token, archive_id))
        publication = Publication.objects.create(tournament=prepared, url=url, token=token)
        return Fetched(tournament=prepared, publication=publication, entries=4)

    monkeypatch.setattr(views, "fetch_tournament", fetching)
    done = client.post(page, {"archive_id": str(prepared.archive_id)})
    assert done.status_code == 302
    assert done["Location"] == reverse("tournaments:tournament_detail", args=[prepared.pk])
    assert asked["fetched"] == ("https://saison.example", "started-with", str(prepared.archive_id))
