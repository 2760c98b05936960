"""A published tournament joins the season server's season, and what cannot be decided is
said, never dropped: the one season holding its date; several or none (a note in the
server's log and in the answer the laptop shows); a club the server does not know."""

import datetime as dt
import uuid

import pytest

from clubs.models import Club, Membership
from publishing.server.services import issue_token
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tests.publishing.test_batches import Laptop, post
from tests.seasons.conftest import play
from tournaments.models import Tournament, TournamentChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def host():
    return Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")


def published(client, host, *, guest_club=None):
    """A laptop's tournament of 28.11.2026 without a season, published: the server's copy
    and the answer."""
    tournament = TournamentFactory(host_club=host, rules_slug="swm", date=dt.date(2026, 11, 28))
    entries = []
    for number in range(1, 5):
        player = PlayerFactory(first_name=f"Anna{number}", last_name="Faller")
        if guest_club is not None and number == 4:
            Membership.objects.create(player=player, club=guest_club)
        entries.append(EntryFactory(tournament=tournament, player=player, number=number))
    play(tournament, entries, [(0, 45)])
    device = Laptop(tournament, uuid.uuid4())
    body, _digests = device.batch()
    body["upserts"]["tournament"]["season"] = None
    if guest_club is not None:  # the laptop's club, which the server does not know
        guest_club.delete()
    _row, token = issue_token(club=host)
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.content
    return Tournament.objects.get(archive_id=device.archive_id), answer.json()


def log_subjects(copy) -> list[str]:
    return list(TournamentChange.objects.filter(tournament=copy).values_list("subject", flat=True))


def test_it_joins_the_one_season_holding_its_date(client, host):
    SeasonFactory(name="Vorsaison", starts_on=dt.date(2025, 9, 1), ends_on=dt.date(2026, 8, 31))
    season = SeasonFactory(
        name="Schwarzwald-Cup 2026/27", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2027, 8, 31)
    )
    copy, answer = published(client, host)
    assert copy.season == season and answer["notes"] == []


def test_with_several_seasons_it_joins_none_and_says_so(client, host):
    SeasonFactory(name="Cup A", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2027, 8, 31))
    SeasonFactory(name="Cup B", starts_on=dt.date(2026, 11, 1), ends_on=dt.date(2027, 4, 30))
    copy, answer = published(client, host)
    assert copy.season is None
    (note,) = answer["notes"]
    assert "28.11.2026" in note and "Cup A" in note and "Cup B" in note
    assert note in log_subjects(copy)


def test_without_a_season_it_says_so(client, host):
    copy, answer = published(client, host)
    assert copy.season is None
    assert any("28.11.2026" in note for note in answer["notes"])
    assert any("28.11.2026" in subject for subject in log_subjects(copy))


def test_a_club_the_server_does_not_know_is_named_not_dropped(client, host):
    SeasonFactory(name="Cup", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2027, 8, 31))
    guest = Club.objects.create(name="Cegofreunde Triberg", short_name="CF Tr", town="Triberg")
    copy, answer = published(client, host, guest_club=guest)
    (note,) = answer["notes"]
    assert "Cegofreunde Triberg" in note
    assert note in log_subjects(copy)
    assert copy.entries.get(number=4).player.memberships.count() == 0
