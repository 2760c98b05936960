"""The season server's batch endpoint (``POST /api/publish/changes/``), in one process: a
laptop's tournament is played here as another tournament (its own archive id and name), and
its batches are made as the laptop's outbox makes them (item digests against what the server
acknowledged)."""

import gzip
import json
import uuid

import pytest
from django.urls import reverse

from clubs.models import Club
from publishing.server.services import issue_token
from tests.tournaments.standings.conftest import cego
from tournaments.archive_format import BATCH_FORMAT, BATCH_VERSION, item_digests, state_digest
from tournaments.models import Deal, DealChange, Round, Tournament
from tournaments.selectors.archive import tournament_items
from tournaments.services.phone_entry import enter_deal, revise_deal
from tournaments.services.revision import bump_revision

pytestmark = pytest.mark.django_db


class Laptop:
    """What the laptop's outbox does: items, digests, the acknowledged position."""

    def __init__(self, tournament, archive_id):
        self.tournament, self.archive_id = tournament, archive_id
        self.acked: dict[str, str] = {}
        self.state: str | None = None

    def items(self):
        items = json.loads(json.dumps(tournament_items(tournament=self.tournament)))
        items["tournament"]["name"] = "Vom Laptop"
        return items

    def batch(self, *, base=None, known=None, revision=None):
        items = self.items()
        digests = item_digests(items)
        known = self.acked if known is None else known
        self.tournament.refresh_from_db()
        return {
            "format": BATCH_FORMAT,
            "version": BATCH_VERSION,
            "archive_id": str(self.archive_id),
            "revision": self.tournament.revision if revision is None else revision,
            "base": self.state if base is None else base,
            "state": state_digest(digests),
            "upserts": {k: items[k] for k, d in digests.items() if known.get(k) != d},
            "deletes": sorted(k for k in known if k not in digests),
        }, digests

    def acknowledge(self, body, digests):
        self.state, self.acked = body["state"], digests


def post(client, body, token, *, compress=True):
    raw = json.dumps(body).encode() if not isinstance(body, bytes) else body
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    if compress:
        raw = gzip.compress(raw)
        headers["HTTP_CONTENT_ENCODING"] = "gzip"
    return client.post(
        reverse("publishing:publish_changes"), raw, content_type="application/json", **headers
    )


def copy_on_server():
    return Tournament.objects.get(name="Vom Laptop")


def test_a_snapshot_then_only_the_changed_deal_and_the_same_batch_twice_changes_nothing(
    client, host, laptop, django_user_model
):
    organiser = django_user_model.objects.create_superuser("orga", "", "pw")
    tournament, table = laptop
    _row, token = issue_token(club=host)
    device = Laptop(tournament, uuid.uuid4())
    body, digests = device.batch()
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "created" and answer.json()["state"] == body["state"]
    device.acknowledge(body, digests)
    copy = copy_on_server()
    assert Deal.objects.filter(table__round__tournament=copy).count() == 3
    first_deal = Deal.objects.get(table__round__tournament=copy, number=1)

    # Deal 4 entered and deal 2 corrected at the laptop: the batch holds just those two.
    enter_deal(table=table, number=4, inputs=cego(3, 45))
    deal = Deal.objects.get(table=table, number=2)
    revise_deal(
        deal=deal, inputs=cego(1, 46), expected_version=deal.version, user=organiser, reason="x"
    )
    body, digests = device.batch()
    assert set(body["upserts"]) == {"deal:r1-t1-d2", "deal:r1-t1-d4"}, sorted(body["upserts"])
    assert len(gzip.compress(json.dumps(body).encode())) < 5 * 1024
    answer = post(client, body, token)
    assert answer.json()["status"] == "applied" and answer.json()["state"] == body["state"]
    device.acknowledge(body, digests)
    again = post(client, body, token)  # the answer was lost; the laptop sends it again
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    server_deals = Deal.objects.filter(table__round__tournament=copy)
    assert server_deals.count() == 4
    assert Deal.objects.get(pk=first_deal.pk).version == first_deal.version  # untouched
    created = DealChange.objects.filter(deal__table__round__tournament=copy, action="created")
    assert created.count() == 4  # each deal once
    assert list(server_deals.get(number=2).scores) == list(
        Deal.objects.get(table=table, number=2).scores
    )
    assert Tournament.objects.filter(archive_id=device.archive_id).count() == 1


def test_a_server_that_lost_track_names_what_it_holds_and_gets_the_difference(client, host, laptop):
    tournament, table = laptop
    _row, token = issue_token(club=host)
    device = Laptop(tournament, uuid.uuid4())
    body, digests = device.batch()
    post(client, body, token)
    device.acknowledge(body, digests)
    held = dict(digests)
    # The laptop believes the server has more than it does (the server restored a backup).
    enter_deal(table=table, number=4, inputs=cego(3, 45))
    body, digests = device.batch()
    device.acknowledge(body, digests)
    enter_deal(table=table, number=5, inputs=cego(0, 45))
    body, digests = device.batch()
    answer = post(client, body, token)
    assert answer.status_code == 409 and answer.json()["code"] == "lost_track"
    assert answer.json()["digests"] == held
    assert Deal.objects.filter(table__round__tournament=copy_on_server()).count() == 3
    device.state, device.acked = answer.json()["state"], answer.json()["digests"]
    body, digests = device.batch()
    assert {"deal:r1-t1-d4", "deal:r1-t1-d5"} <= set(body["upserts"])
    answer = post(client, body, token)
    assert answer.status_code == 200 and answer.json()["state"] == body["state"]
    assert Deal.objects.filter(table__round__tournament=copy_on_server()).count() == 5


def test_a_forged_revision_jump_does_not_lock_the_real_laptop_out(client, host, laptop):
    """The revision a batch declares orders nothing: a batch sent with the club's token at
    the largest revision is taken like any other, and the real laptop, back at revision 3,
    is not refused as older (it meets the new state and merges)."""
    tournament, table = laptop
    _row, token = issue_token(club=host)
    device = Laptop(tournament, uuid.uuid4())
    body, digests = device.batch()
    post(client, body, token)
    device.acknowledge(body, digests)
    enter_deal(table=table, number=4, inputs=cego(3, 45))
    forged, forged_digests = device.batch(revision=2**31 - 1)
    assert post(client, forged, token).status_code == 200
    copy = copy_on_server()
    copy.refresh_from_db()
    assert copy.archive_revision == 2**31 - 1  # stored as declared, trusted for nothing
    device.acknowledge(forged, forged_digests)  # the real laptop, having merged
    enter_deal(table=table, number=5, inputs=cego(0, 45))
    body, _digests = device.batch(revision=3)
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.json()
    assert Deal.objects.filter(table__round__tournament=copy).count() == 5


def test_only_the_host_clubs_token_and_no_other(client, host, laptop):
    tournament, _table = laptop
    other = Club.objects.create(name="Cegoclub Dürrheim", short_name="CC D", town="D")
    _row, other_token = issue_token(club=other)
    device = Laptop(tournament, uuid.uuid4())
    body, _digests = device.batch()
    assert post(client, body, "wrong").status_code == 401
    refused = post(client, body, other_token)
    assert refused.status_code == 403 and "Cegoclub Dürrheim" in refused.json()["error"]
    assert not Tournament.objects.filter(archive_id=device.archive_id).exists()


@pytest.mark.parametrize("megabytes", [3, 30])
def test_a_large_body_gets_a_json_answer_not_djangos_html_400(client, host, megabytes):
    _row, token = issue_token(club=host)
    junk = b'{"format": "cego-club/changes", "x": "' + b"a" * (megabytes * 2**20) + b'"}'
    answer = post(client, junk, token, compress=False)
    assert answer.status_code == 400 and answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "invalid"


def test_a_gzip_bomb_is_refused_unpacked_only_to_the_cap(client, host):
    _row, token = issue_token(club=host)
    bomb = gzip.compress(b"{" + b" " * (100 * 2**20) + b"}")  # 100 MB of spaces, ~100 KB
    answer = client.post(
        reverse("publishing:publish_changes"),
        bomb,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_CONTENT_ENCODING="gzip",
    )
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"


def test_a_draw_awaiting_release_in_the_hall_stays_hidden_on_the_server(client, host, laptop):
    tournament, table = laptop
    _row, token = issue_token(club=host)
    round_ = table.round
    round_.awaiting_release = True
    round_.save()
    device = Laptop(tournament, uuid.uuid4())
    body, digests = device.batch()
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.json()
    device.acknowledge(body, digests)
    copy_round = Round.objects.get(tournament=copy_on_server(), number=1)
    assert copy_round.awaiting_release
    round_.awaiting_release = False  # released (the service bumps the revision)
    round_.save()
    bump_revision(tournament_id=tournament.pk)
    body, _digests = device.batch()
    assert set(body["upserts"]) == {"round:1"}
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.json()
    copy_round.refresh_from_db()
    assert not copy_round.awaiting_release
