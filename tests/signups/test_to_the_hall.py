"""From the public form to the hall's check-in list, at the service level and in one
database (as ``tests/publishing/test_way_back.py``: the server's tournament is gone before the
laptop imports, as if the answer had travelled): confirmed sign-ups are the tournament's
registrations on the server and travel with the hand-over; the waiting list and unconfirmed
seats do not; after the hand-over a confirmation arrives as a registration for the hall and a
cancellation removes the laptop's entry."""

import json

import pytest

from clubs.models import Membership, Player
from publishing.laptop.fetching import take_over, take_registrations
from publishing.models import Publication
from publishing.server.handover import hand_over, registrations_for_the_hall
from publishing.server.services import issue_token
from signups.models import Signup
from signups.services import signups as services
from tests.signups.conftest import sign
from tournaments.models import Entry, HallRegistration, Tournament

pytestmark = pytest.mark.django_db


def wire(value):
    return json.loads(json.dumps(value))


def test_sign_ups_reach_the_hall(tournament, open_sheet, organiser, host, monkeypatch):
    services.set_sheet(
        tournament=tournament, user=organiser, is_open=True, capacity=4, closes_at=None
    )
    known = Player.objects.create(first_name="Anna", last_name="Arnold", birth_year=1970)
    Membership.objects.create(player=known, club=host)
    anna = sign(tournament, "Anna", "Arnold", club=host)
    bernd = sign(tournament, "Bernd", "Baum", club_text="vereinslos")
    carla = sign(tournament, "Carla", "Conrad", club=host)
    dora = sign(tournament, "Dora", "Dold")  # holds a seat, not confirmed before the day
    emil = sign(tournament, "Emil", "Eck")  # waiting list
    assert emil.signup.status == "waiting"
    for done in (anna, bernd, carla):
        services.confirm(signup=done.signup, user=organiser)
    # On the server: the confirmed ones are the tournament's registrations.
    names = set(tournament.entries.values_list("player__last_name", flat=True))
    assert names == {"Arnold", "Baum", "Conrad"}
    assert Entry.objects.get(tournament=tournament, player__last_name="Arnold").player == known
    assert not Entry.objects.filter(checked_in=True).exists()

    # The hand-over carries them (and only them).
    server_token, publish_token = issue_token(club=host, label="Laptop")
    handed = hand_over(token=server_token, archive_id=tournament.archive_id)
    answer = wire(
        {
            "archive": handed.archive,
            "state": handed.state,
            "digests": handed.digests,
            "revision": handed.revision,
            "warning": handed.warning,
        }
    )
    carried = {p["last_name"] for p in answer["archive"]["players"]}
    assert carried == {"Arnold", "Baum", "Conrad"}

    # After the hand-over: Dora is confirmed (kept for the hall), Carla cancels by her link
    # (her entry went with the tournament), Emil moves up into her seat.
    services.confirm(signup=dora.signup, user=organiser)
    outcome = services.cancel(signup=carla.signup, by_link=True)
    assert [s.last_name for s in outcome.moved_up] == ["Eck"]
    assert not Entry.objects.filter(tournament=tournament, player__last_name="Dold").exists()
    rows = {
        row.player.last_name: row for row in HallRegistration.objects.filter(tournament=tournament)
    }
    assert rows["Dold"].withdrawn_at is None and rows["Conrad"].withdrawn_at is not None
    later = wire(registrations_for_the_hall(token=server_token, archive_id=tournament.archive_id))
    assert [r["player"]["last_name"] for r in later["registrations"]] == ["Dold"]
    assert len(later["withdrawn"]) == 1 and later["closed"] is False

    # The laptop: the server's tournament gone (another machine), the answer imported.
    Tournament.objects.filter(pk=tournament.pk).delete()
    url = "http://127.0.0.1:9"
    fetched = take_over(url=url, token=publish_token, answer=answer)
    here = fetched.tournament
    assert set(here.entries.values_list("player__last_name", flat=True)) == {
        "Arnold",
        "Baum",
        "Conrad",
    }
    publication = Publication.objects.get(tournament=here)
    monkeypatch.setattr("publishing.laptop.fetching.request", lambda *a, **k: later)
    assert take_registrations(publication=publication) == 1
    check_in_list = set(here.entries.values_list("player__last_name", flat=True))
    assert check_in_list == {"Arnold", "Baum", "Dold"}  # Conrad withdrawn, Dora arrived
    assert not here.entries.filter(checked_in=True).exists()
    # Asked again: nothing more changes.
    assert take_registrations(publication=publication) == 0
    assert set(here.entries.values_list("player__last_name", flat=True)) == check_in_list


def test_a_withdrawal_leaves_a_player_who_has_checked_in(
    tournament, open_sheet, organiser, host, monkeypatch
):
    anna = sign(tournament, "Anna", "Arnold", club=host)
    services.confirm(signup=anna.signup, user=organiser)
    server_token = issue_token(club=host, label="Laptop")[0]
    handed = hand_over(token=server_token, archive_id=tournament.archive_id)
    answer = wire({"archive": handed.archive, "state": handed.state, "digests": handed.digests})
    services.cancel(signup=anna.signup, user=organiser)
    later = wire(registrations_for_the_hall(token=server_token, archive_id=tournament.archive_id))
    Tournament.objects.filter(pk=tournament.pk).delete()
    here = take_over(url="http://127.0.0.1:9", token="t", answer=answer).tournament
    here.entries.update(checked_in=True)  # she came anyway
    monkeypatch.setattr("publishing.laptop.fetching.request", lambda *a, **k: later)
    take_registrations(publication=Publication.objects.get(tournament=here))
    assert here.entries.count() == 1  # the desk decides


def test_signing_up_again_after_a_withdrawal_reaches_the_hall_again(
    tournament, open_sheet, organiser, host
):
    anna = sign(tournament, "Anna", "Arnold", club=host)
    services.confirm(signup=anna.signup, user=organiser)
    server_token = issue_token(club=host, label="Laptop")[0]
    hand_over(token=server_token, archive_id=tournament.archive_id)
    services.cancel(signup=anna.signup, user=organiser)
    first = registrations_for_the_hall(token=server_token, archive_id=tournament.archive_id)
    after = max([r["id"] for r in first["withdrawn"]])
    again = sign(tournament, "Anna", "Arnold", club=host)
    services.confirm(signup=again.signup, user=organiser)
    later = registrations_for_the_hall(
        token=server_token, archive_id=tournament.archive_id, after=after
    )
    assert [r["player"]["last_name"] for r in later["registrations"]] == ["Arnold"]
    assert later["withdrawn"] == []
    assert Signup.objects.filter(status="confirmed").count() == 1
