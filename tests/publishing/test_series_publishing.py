"""The series a tournament also counts for (issue 41) travel with it: in its archive's
tournament item (only where there are any: an archive without them keeps its content hash),
in the laptop's batches to the season server, and on the way back (a tournament set up on
the server, taken by a laptop). An older archive or batch without the key still imports and
leaves the series as they are."""

import copy
import datetime as dt
import uuid

import pytest

from publishing.laptop.fetching import take_over
from publishing.server.services import issue_token
from seasons.models import Season, SeriesMembership
from seasons.services_series import set_series
from tests.factories import EntryFactory, SeasonFactory, TournamentFactory
from tests.publishing.test_batches import Laptop, copy_on_server, post
from tests.publishing.test_way_back import fetch_path
from tests.publishing.test_way_back import post as token_post
from tournaments.archive_format import archive_hash, item_digests, parse_archive, state_digest
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def series():
    return (
        SeasonFactory(name="Unadinger Cego-Winter", scoring=Season.Scoring.CUP, cup_points=[5]),
        SeasonFactory(name="Rangliste Baar", starts_on=dt.date(2026, 9, 1)),
    )


def names(tournament) -> list[str]:
    return sorted(
        SeriesMembership.objects.filter(tournament=tournament).values_list(
            "season__name", flat=True
        )
    )


def test_the_archive_names_the_series_only_where_there_are_any(laptop, series):
    tournament, _table = laptop
    plain = tournament_archive(tournament=tournament)
    assert "series" not in plain["tournament"]
    set_series(tournament=tournament, seasons=series, user=None, check_permissions=False)
    archive = tournament_archive(tournament=tournament)
    assert archive["tournament"]["series"] == [
        {"name": "Rangliste Baar", "starts_on": "2026-09-01", "ends_on": "2027-04-30"},
        {"name": "Unadinger Cego-Winter", "starts_on": "2026-11-01", "ends_on": "2027-04-30"},
    ]
    assert archive["content_hash"] != plain["content_hash"]
    assert parse_archive(archive)["tournament"]["series"] == archive["tournament"]["series"]
    # the archive of before, without the key, reads as before and hashes as before
    assert archive_hash(parse_archive(plain)) == plain["content_hash"]


def test_a_laptops_batches_carry_the_series_and_an_older_batch_leaves_them(
    client, host, laptop, series
):
    tournament, _table = laptop
    village, ranking = series
    set_series(tournament=tournament, seasons=[village], user=None, check_permissions=False)
    _row, token = issue_token(club=host)
    device = Laptop(tournament, uuid.uuid4())
    body, digests = device.batch()
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.content
    device.acknowledge(body, digests)
    copy_ = copy_on_server()
    assert names(copy_) == ["Unadinger Cego-Winter"]

    # the desk ticks a second series: only the tournament item travels, with both
    set_series(
        tournament=tournament, seasons=[village, ranking], user=None, check_permissions=False
    )
    body, digests = device.batch()
    assert set(body["upserts"]) == {"tournament"}
    assert post(client, body, token).json()["status"] == "applied"
    device.acknowledge(body, digests)
    assert names(copy_) == ["Rangliste Baar", "Unadinger Cego-Winter"]

    # an older laptop's tournament item (no such key, another venue typed): imported, the
    # series on the server left as they are
    older = copy.deepcopy(device.items())
    older["tournament"].pop("series")
    older["tournament"]["venue"] = "Gasthaus Hirschen"
    new_digests = {**device.acked, "tournament": item_digests(older)["tournament"]}
    body = {
        **body,
        "revision": body["revision"] + 1,
        "base": device.state,
        "state": state_digest(new_digests),
        "upserts": {"tournament": older["tournament"]},
        "deletes": [],
    }
    assert post(client, body, token).json()["status"] == "applied"
    assert Tournament.objects.get(pk=copy_.pk).venue == "Gasthaus Hirschen"
    assert names(copy_) == ["Rangliste Baar", "Unadinger Cego-Winter"]


def test_removing_the_last_series_on_the_laptop_travels_to_the_server(client, host, laptop, series):
    tournament, _table = laptop
    village, _ranking = series
    set_series(tournament=tournament, seasons=[village], user=None, check_permissions=False)
    _row, token = issue_token(club=host)
    device = Laptop(tournament, uuid.uuid4())
    body, digests = device.batch()
    assert post(client, body, token).status_code == 200
    device.acknowledge(body, digests)
    copy_ = copy_on_server()
    assert names(copy_) == ["Unadinger Cego-Winter"]

    # the desk unticks it: the tournament item says "none any more", and the server hears it
    set_series(tournament=tournament, seasons=[], user=None, check_permissions=False)
    body, digests = device.batch()
    assert set(body["upserts"]) == {"tournament"}
    assert body["upserts"]["tournament"]["series"] == []
    assert post(client, body, token).json()["status"] == "applied"
    device.acknowledge(body, digests)
    assert names(copy_) == []
    # the server's copy says the same in its own archive, as the laptop's does
    assert tournament_archive(tournament=copy_)["tournament"]["series"] == []
    assert tournament_archive(tournament=tournament)["tournament"]["series"] == []


def test_the_way_back_brings_the_series_to_the_laptop(client, host, series):
    """Set up on the server in two series, handed to the hall, taken by a laptop (in this
    one database: the server's tournament and the series are gone first, as if the answer
    had travelled to another machine): the laptop's tournament counts for both again, the
    series made with the server's dates."""
    home = SeasonFactory(name="Schwarzwaldmeisterschaft")
    prepared = TournamentFactory(host_club=host, season=home, name="Herbstturnier")
    for number in range(1, 5):
        EntryFactory(tournament=prepared, number=number)
    set_series(tournament=prepared, seasons=series, user=None, check_permissions=False)
    _row, token = issue_token(club=host)
    answer = token_post(client, fetch_path(prepared.archive_id), token).json()
    assert [s["name"] for s in answer["archive"]["tournament"]["series"]] == [
        "Rangliste Baar",
        "Unadinger Cego-Winter",
    ]
    Tournament.objects.filter(pk=prepared.pk).delete()
    Season.objects.filter(pk__in=[s.pk for s in series]).delete()

    fetched = take_over(url="http://127.0.0.1:9", token=token, answer=answer)
    here = fetched.tournament
    assert here.season == home and names(here) == ["Rangliste Baar", "Unadinger Cego-Winter"]
    made = Season.objects.get(name="Rangliste Baar")
    assert (made.starts_on, made.ends_on) == (dt.date(2026, 9, 1), dt.date(2027, 4, 30))


def test_an_archive_naming_its_home_season_as_a_series_counts_it_once(client, host, series):
    home = SeasonFactory(name="Schwarzwaldmeisterschaft")
    prepared = TournamentFactory(host_club=host, season=home)
    EntryFactory(tournament=prepared, number=1)
    _row, token = issue_token(club=host)
    answer = token_post(client, fetch_path(prepared.archive_id), token).json()
    answer["archive"]["tournament"]["series"] = [
        {"name": "Schwarzwaldmeisterschaft", "starts_on": "2026-11-01", "ends_on": "2027-04-30"}
    ]
    Tournament.objects.filter(pk=prepared.pk).delete()
    here = take_over(url="http://127.0.0.1:9", token=token, answer=answer).tournament
    assert here.season == home and names(here) == []
