"""The season server as the hall's second copy, in one process: nothing a laptop declares is
taken on trust, nothing the server acknowledged is deleted by a laptop that never saw it, a
passing clash is tried again, and the laptop's merge takes back what only the server holds.

The server's side is driven through its endpoints with batches made as the laptop makes them
(``test_batches.Laptop``: the copy on the server has its own archive id and name). The
laptop's side runs the real outbox, merge and sender against the server's answers.
"""

import gzip
import json
import uuid

import pytest
from django.urls import reverse

from publishing.laptop import merging, outbox, position, sender
from publishing.laptop.client import PublishError
from publishing.laptop.merge_plan import MergePlan, effective_digests, plan_merge, settle_by_history
from publishing.models import AcknowledgedState, Publication, PublishConflict
from publishing.server.services import issue_token
from tests.publishing.test_batches import Laptop, copy_on_server, post
from tests.tournaments.standings.conftest import cego
from tournaments.archive_format import item_digest, item_digests, state_digest
from tournaments.models import ArchiveItem, Deal, DealChange, Entry, Tournament
from tournaments.selectors.archive import tournament_items
from tournaments.services.archive_write import ArchiveWriteClash
from tournaments.services.desk_entry import annul_deal
from tournaments.services.phone_entry import enter_deal, revise_deal
from tournaments.services.revision import bump_revision

pytestmark = pytest.mark.django_db

EPOCH = str(uuid.uuid4())


def published(client, tournament, token, *, epoch=EPOCH):
    """The laptop's tournament on the server, acknowledged: (device, body)."""
    device = Laptop(tournament, uuid.uuid4())
    body, digests = device.batch()
    body["epoch"] = epoch
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.json()
    device.acknowledge(body, digests)
    return device


def forget_deals(table, numbers):
    """What a laptop restored from an older backup lacks (deals are never deleted in the
    app: only the test takes them away)."""
    DealChange.objects.filter(deal__table=table, deal__number__in=numbers).delete()
    Deal.objects.filter(table=table, number__in=numbers).delete()


def server_deals():
    return Deal.objects.filter(table__round__tournament=copy_on_server())


# Numbers the server checks: a clear JSON refusal, never a 500 or the database's words.


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("archive_id", "not-a-uuid", "UUID"),
        ("revision", 2**31, "2147483647"),
        ("revision", -1, "2147483647"),
        ("base", "'; DROP TABLE x; --", "64"),
        ("epoch", "yesterday", "UUID"),
    ],
)
def test_every_number_a_batch_declares_is_checked(client, host, laptop, field, value, named):
    tournament, _table = laptop
    _row, token = issue_token(club=host)
    device = Laptop(tournament, uuid.uuid4())
    body, _digests = device.batch()
    body[field] = value
    answer = post(client, body, token)
    assert answer.status_code == 400 and answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "invalid" and named in answer.json()["error"]
    assert "constraint" not in answer.json()["error"].lower()
    assert not Tournament.objects.filter(archive_id=device.archive_id).exists()


def test_the_state_of_a_malformed_id_or_base_is_a_json_refusal(client, host):
    _row, token = issue_token(club=host)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert client.get("/api/publish/state/not-a-uuid/", **headers).status_code == 404
    answer = client.get(f"/api/publish/state/{uuid.uuid4()}/?digests=1&base=xyz", **headers)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


# Deletes: never a deal, never what the laptop copy's epoch did not see.


def test_a_batch_that_would_delete_acknowledged_deals_is_a_fork_and_changes_nothing(
    client, host, laptop
):
    """What the laptop before this fix did after a restore: it took the server's digests as
    its base and sent "delete" for every deal it lacked."""
    tournament, table = laptop
    _row, token = issue_token(club=host)
    device = published(client, tournament, token)
    server_state = device.state
    held = dict(device.acked)
    lacking = {k: v for k, v in held.items() if k != "deal:r1-t1-d3"}
    body, _digests = device.batch(known=held, base=server_state)
    body["deletes"] = ["deal:r1-t1-d3"]
    body["state"] = state_digest(lacking)
    body["epoch"] = EPOCH
    answer = post(client, body, token)
    assert answer.status_code == 409 and answer.json()["code"] == "fork"
    assert "Spiele" in answer.json()["error"]
    assert answer.json()["digests"] == held and answer.json()["knows_base"] is True
    assert server_deals().count() == 3
    assert DealChange.objects.filter(deal__table__round__tournament=copy_on_server()).count() == 3


def test_a_snapshot_that_lacks_deals_the_server_holds_deletes_nothing(client, host, laptop):
    tournament, table = laptop
    _row, token = issue_token(club=host)
    device = published(client, tournament, token)
    forget_deals(table, [3])  # the laptop restored without it
    body, _digests = device.batch(known={}, base=None)
    body["base"] = None
    answer = post(client, body, token)
    assert answer.status_code == 409 and answer.json()["code"] == "fork"
    assert server_deals().count() == 3


def test_a_batch_of_another_epoch_deletes_only_after_taking_back(client, host, laptop):
    """An entry nobody played with may be deleted, but only by a laptop copy that has seen
    the state it deletes from: acknowledged to its epoch, or taken back by it."""
    tournament, _table = laptop
    extra = Entry.objects.create(
        tournament=tournament,
        player=Entry.objects.first().player.__class__.objects.create(
            first_name="Dora", last_name="Ist"
        ),
        number=9,
    )
    _row, token = issue_token(club=host)
    device = published(client, tournament, token)
    extra.delete()
    body, digests = device.batch()
    assert body["deletes"] == ["entry:9"]
    stranger = str(uuid.uuid4())
    body["epoch"] = stranger
    answer = post(client, body, token)
    assert answer.status_code == 409 and answer.json()["code"] == "fork"
    assert copy_on_server().entries.filter(number=9).exists()

    taken = client.post(
        reverse("publishing:publish_take", args=[device.archive_id]),
        json.dumps({"epoch": stranger, "state": device.state, "keys": []}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert taken.status_code == 200, taken.json()
    assert AcknowledgedState.objects.filter(
        epoch=stranger, how=AcknowledgedState.How.TAKEN_BACK
    ).exists()
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.json()
    assert not copy_on_server().entries.filter(number=9).exists()


def test_the_take_back_gives_the_items_held_and_refuses_a_moved_state(client, host, laptop):
    tournament, table = laptop
    _row, token = issue_token(club=host)
    device = published(client, tournament, token)
    url = reverse("publishing:publish_take", args=[device.archive_id])
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    wanted = {"epoch": EPOCH, "state": device.state, "keys": ["deal:r1-t1-d2", "deal:r9-t9-d9"]}
    taken = client.post(url, json.dumps(wanted), content_type="application/json", **headers)
    items = taken.json()["items"]
    assert list(items) == ["deal:r1-t1-d2"]  # what it does not hold is not invented
    assert item_digests(items) == {"deal:r1-t1-d2": device.acked["deal:r1-t1-d2"]}
    assert items["deal:r1-t1-d2"]["history"][0]["action"] == "created"
    moved = {**wanted, "state": "0" * 64}
    answer = client.post(url, json.dumps(moved), content_type="application/json", **headers)
    assert answer.status_code == 409 and answer.json()["code"] == "lost_track"
    bad = client.post(url, b"[1, 2]", content_type="application/json", **headers)
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


# A passing failure is tried again; one that repeats is the batch's own.


def test_a_passing_clash_is_tried_again_not_refused(client, host, laptop, monkeypatch):
    tournament, _table = laptop
    _row, token = issue_token(club=host)
    device = Laptop(tournament, uuid.uuid4())
    body, _digests = device.batch()
    from publishing.server import inbox

    real, calls = inbox.apply_batch, []

    def clashing_once(**kwargs):
        calls.append(1)
        if len(calls) == 1:  # another import created the same new player a moment ago
            raise ArchiveWriteClash("duplicate key value violates unique constraint")
        return real(**kwargs)

    monkeypatch.setattr(inbox, "apply_batch", clashing_once)
    monkeypatch.setattr(inbox, "PAUSES", (0, 0))
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.json()
    assert len(calls) == 2 and server_deals().count() == 3


def test_a_clash_that_repeats_is_refused_in_german_without_the_databases_words(
    client, host, laptop, monkeypatch
):
    tournament, _table = laptop
    _row, token = issue_token(club=host)
    body, _digests = Laptop(tournament, uuid.uuid4()).batch()
    from publishing.server import inbox

    def clashing(**kwargs):
        raise ArchiveWriteClash("Das Archiv kollidiert mit dem hier Gespeicherten.")

    monkeypatch.setattr(inbox, "apply_batch", clashing)
    monkeypatch.setattr(inbox, "PAUSES", (0, 0))
    answer = post(client, body, token)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert "constraint" not in answer.json()["error"]


def test_the_servers_own_fault_is_json_with_a_code(client, host, laptop, monkeypatch):
    tournament, _table = laptop
    _row, token = issue_token(club=host)
    body, _digests = Laptop(tournament, uuid.uuid4()).batch()
    from publishing.server import inbox

    def broken(**kwargs):
        raise RuntimeError("a bug of the server's")

    monkeypatch.setattr(inbox, "apply_batch", broken)
    answer = post(client, body, token)
    assert answer.status_code == 500 and answer.json()["code"] == "server"
    assert answer["Content-Type"] == "application/json"


# The merge rules, pure.


def test_the_merge_takes_what_only_the_server_moved_and_asks_where_both_moved():
    ancestor = {"d1": "a", "d2": "a", "d3": "a", "d4": "a"}
    here = {"d1": "a", "d2": "L", "d3": "L", "d5": "L"}  # d4 dropped, d5 new here
    server = {"d1": "S", "d2": "a", "d3": "S", "d4": "a", "d6": "S", "d5": "L"}
    plan = plan_merge(ancestor=ancestor, laptop=here, server=server, server_knows_ancestor=True)
    assert plan.take == ["d1", "d6"] and plan.conflicts == ["d3"]
    # A server restored from an older backup: only what the laptop never had is taken.
    plan = plan_merge(ancestor=ancestor, laptop=here, server=server, server_knows_ancestor=False)
    assert plan.take == ["d6"] and plan.conflicts == ["d1", "d3"]
    # The laptop dropped what the server changed: taken back, never lost.
    plan = plan_merge(
        ancestor={"d4": "a"}, laptop={}, server={"d4": "S"}, server_knows_ancestor=True
    )
    assert plan.take == ["d4"]
    held = effective_digests({"d3": "L", "d7": "L"}, {"d3": "S"}, {"d3", "d7"})
    assert held == {"d3": "S"}


def test_a_version_whose_history_continues_the_other_is_newer_not_a_conflict():
    """A server restored from an older backup holds deal 1 before its correction: the
    laptop's corrected deal continues that history and stands; a deal annulled on the server
    after the laptop's copy is taken; two different first entries stay a conflict."""
    created = {"action": "created", "after": {"scores": [30, -10, -10, -10]}}
    corrected = {"action": "corrected", "after": {"scores": [-30, 10, 10, 10]}}
    annulled = {"action": "annulled", "reason": "Falsch gegeben"}
    laptop = {
        "d1": {"number": 1, "history": [created, corrected]},
        "d2": {"number": 2, "history": [created]},
        "d3": {"number": 3, "history": [created]},
    }
    server = {
        "d1": {"number": 1, "history": [created]},
        "d2": {"number": 2, "history": [created, annulled]},
        "d3": {"number": 3, "history": [{**created, "after": {"scores": [0, 0, 0, 0]}}]},
    }
    plan = settle_by_history(
        MergePlan(take=["d9"], conflicts=["d1", "d2", "d3"]), laptop=laptop, server=server
    )
    assert plan.take == ["d2", "d9"] and plan.conflicts == ["d3"]


# The laptop's side, with the server's answers: the real outbox, merge and sender.


class Transport:
    """The laptop's HTTP requests, answered by the server in this process: the copy on the
    server has its own archive id, so the take-back's address is translated."""

    def __init__(self, client, device, laptop_tournament):
        self.client, self.device, self.tournament = client, device, laptop_tournament
        self.requests: list[str] = []

    def __call__(self, url, *, token, path, payload=None, timeout=None):
        self.requests.append(path)
        path = path.replace(str(self.tournament.archive_id), str(self.device.archive_id))
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        if payload is None:
            answer = self.client.get(path, **headers)
        else:
            answer = self.client.post(
                path, json.dumps(payload), content_type="application/json", **headers
            )
        data = answer.json()
        if answer.status_code >= 400:
            raise PublishError(
                data.get("error", ""),
                refused=answer.status_code < 500,
                status=answer.status_code,
                code=data.get("code", ""),
                answer=data,
            )
        return data


def _lost_track_answer(client, device, token, base):
    answer = client.get(
        f"/api/publish/state/{device.archive_id}/?digests=1&base={base}",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    ).json()
    return answer


def test_a_restored_laptop_takes_back_the_deals_only_the_server_held(
    client, host, laptop, monkeypatch, django_user_model
):
    """Laptop 1 published three deals and then two more (acknowledged); laptop 2 restored
    the backup taken after the first three. Its merge takes deals 4 and 5 back with their
    history, asks the desk about the deal both entered differently, and its next batch
    deletes nothing."""
    tournament, table = laptop
    _row, token = issue_token(club=host)
    device = published(client, tournament, token)
    backup_state, backup_digests = device.state, dict(device.acked)
    for number, declarer in ((4, 3), (5, 0)):
        enter_deal(table=table, number=number, inputs=cego(declarer, 45))
    before_annulment = Deal.objects.get(table=table, number=2)
    annul_deal(deal=before_annulment, reason="Falsch gegeben", user=None)
    body, digests = device.batch()
    assert post(client, body, token).status_code == 200
    device.acknowledge(body, digests)
    server_items = tournament_items(tournament=copy_on_server())

    # Laptop 2: the backup (deals 1-3, deal 2 not annulled), then deal 6 of its own and a
    # deal 4 of its own, entered before it reached the server.
    forget_deals(table, [4, 5])  # what the backup lacks
    Deal.objects.filter(pk=before_annulment.pk).update(
        status=before_annulment.status, version=before_annulment.version
    )
    DealChange.objects.filter(deal=before_annulment, action="annulled").delete()
    enter_deal(table=table, number=4, inputs=cego(1, 34))
    enter_deal(table=table, number=6, inputs=cego(2, 45))
    publication = Publication.objects.create(
        tournament=tournament, url="http://127.0.0.1:9", token=token
    )
    # The server's item for the tournament itself is the copy's (renamed): held as ours.
    mine = item_digests(tournament_items(tournament=tournament))["tournament"]
    answer = _lost_track_answer(client, device, token, backup_state)
    assert answer["knows_base"] is True
    answer["digests"]["tournament"] = mine
    position.move(
        publication=publication,
        sent={**backup_digests, "tournament": mine},
        sent_hash=backup_state,
    )
    monkeypatch.setattr(merging, "request", Transport(client, device, tournament))

    plan = merging.merge(publication=publication, answer=answer)

    assert plan.take == ["deal:r1-t1-d2", "deal:r1-t1-d5"]  # the annulment, deal 5
    assert plan.conflicts == ["deal:r1-t1-d4"]
    here = {d.number: d for d in Deal.objects.filter(table=table)}
    assert sorted(here) == [1, 2, 3, 4, 5, 6]
    assert (
        here[2].status == "annulled"
        and here[5].scores
        == Deal.objects.get(table__round__tournament=copy_on_server(), number=5).scores
    )
    taken_history = [c["action"] for c in server_items["deal:r1-t1-d2"]["history"]]
    assert [c.action for c in here[2].changes.order_by("pk")] == taken_history
    assert list(here[4].scores) != list(
        Deal.objects.get(table__round__tournament=copy_on_server(), number=4).scores
    )  # laptop 2's own deal 4 kept here
    conflict = PublishConflict.objects.get(publication=publication)
    assert conflict.key == "deal:r1-t1-d4" and conflict.server_item["number"] == 4
    publication.refresh_from_db()
    assert publication.sent_hash == answer["state"] and publication.taken_back["items"] == {
        "deal": 2
    }

    batch = outbox.next_batch(publication=publication)
    assert batch.body["deletes"] == []
    assert set(batch.body["upserts"]) == {"deal:r1-t1-d6"}  # deal 4 waits for the desk
    assert batch.body["open_conflicts"] == ["deal:r1-t1-d4"]
    assert batch.body["base"] == answer["state"] and batch.body["epoch"]

    # Meanwhile laptop 1's desk corrects deal 4 on the server: the next merge gives the desk
    # the server's newest version to choose, not the one it first saw.
    on_server = Deal.objects.get(table__round__tournament=copy_on_server(), number=4)
    revise_deal(
        deal=on_server, inputs=cego(2, 61), expected_version=on_server.version,
        user=django_user_model.objects.create_user("orga1"), reason="Augen verzählt",
    )  # fmt: skip
    corrected = tournament_items(tournament=copy_on_server())["deal:r1-t1-d4"]
    ArchiveItem.objects.filter(tournament=copy_on_server(), key="deal:r1-t1-d4").update(
        digest=item_digest(corrected)
    )
    again = _lost_track_answer(client, device, token, publication.sent_hash)
    again["digests"]["tournament"] = mine  # the copy's own name, as above
    merging.merge(publication=publication, answer=again)
    conflict.refresh_from_db()
    assert conflict.server_item == corrected and conflict.settled_at is None
    assert [c["action"] for c in conflict.server_item["history"]] == ["created", "corrected"]

    merging.settle(conflict=conflict, choice="server", user=None)
    on_server.refresh_from_db()
    assert on_server.version == 2  # the corrected one, written here
    assert list(Deal.objects.get(table=table, number=4).scores) == list(on_server.scores)
    batch = outbox.next_batch(publication=publication)
    assert batch.body["open_conflicts"] == []
    # The server's version as written here (its correction's user becomes the history's
    # actor, as in any archive): the same deal, nothing of laptop 2's own deal 4 left.
    four = batch.body["upserts"].get("deal:r1-t1-d4", corrected)
    assert four["scores"] == corrected["scores"] and four["record"] == corrected["record"]


def test_the_position_moves_only_on_the_servers_acknowledgement(host, laptop, monkeypatch):
    """A refusal, a failure, a 'busy' or an answer naming another state leave the position
    where it was (a laptop that moved it on any answer would skip what the server lacks)."""
    tournament, table = laptop
    publication = Publication.objects.create(
        tournament=tournament, url="http://127.0.0.1:9", token="t"
    )
    first = outbox.next_batch(publication=publication)
    outbox.acknowledge(batch=first)
    enter_deal(table=table, number=4, inputs=cego(3, 45))
    publication.refresh_from_db()
    before = (publication.sent_hash, position.known_digests(publication=publication))
    for status, code in ((400, "invalid"), (503, "busy"), (0, ""), (403, "not_your_club")):

        def refusing(url, *, token, path, payload=None, timeout=None, status=status, code=code):
            raise PublishError("nein", refused=400 <= status < 500, status=status, code=code)

        monkeypatch.setattr(sender, "request", refusing)
        with pytest.raises(PublishError):
            sender.send(publication=Publication.objects.get(pk=publication.pk))
        publication.refresh_from_db()
        position.forget()  # read from the rows, as another process would
        assert (publication.sent_hash, position.known_digests(publication=publication)) == before

        Publication.objects.filter(pk=publication.pk).update(
            refused_revision=None, next_attempt_at=None
        )
    refused_for_good = Publication.objects.get(pk=publication.pk)
    assert refused_for_good.last_contact_at is not None  # the server answered
    monkeypatch.setattr(sender, "request", lambda *a, **k: {"state": "f" * 64, "status": "x"})
    monkeypatch.setattr(sender, "_held", lambda publication: {"state": None, "digests": {}})
    with pytest.raises(PublishError):
        sender.send(publication=Publication.objects.get(pk=publication.pk))
    publication.refresh_from_db()
    assert publication.sent_hash != "f" * 64


def test_a_4xx_is_kept_until_the_tournament_changes_a_timeout_is_tried_again(
    host, laptop, monkeypatch
):
    tournament, table = laptop
    publication = Publication.objects.create(
        tournament=tournament, url="http://127.0.0.1:9", token="t"
    )

    def refusing(url, *, token, path, payload=None, timeout=None):
        raise PublishError("Das Archiv ist falsch", refused=True, status=400, code="invalid")

    monkeypatch.setattr(sender, "request", refusing)
    with pytest.raises(PublishError):
        sender.send(publication=publication)
    assert publication.pk not in [p.pk for p in outbox.due_publications()]
    enter_deal(table=table, number=4, inputs=cego(3, 45))
    assert publication.pk in [p.pk for p in outbox.due_publications()]


def test_a_bare_gzip_body_of_a_batch_is_read(client, host, laptop):
    """The laptop's real encoding (gzip) still reaches the server after the checks."""
    tournament, _table = laptop
    _row, token = issue_token(club=host)
    body, _digests = Laptop(tournament, uuid.uuid4()).batch()
    body["epoch"] = EPOCH
    answer = client.post(
        reverse("publishing:publish_changes"),
        gzip.compress(json.dumps(body).encode()),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_CONTENT_ENCODING="gzip",
    )
    assert answer.status_code == 200
    assert AcknowledgedState.objects.filter(epoch=EPOCH).count() == 1


def test_the_outbox_tells_the_server_what_was_deleted(host, laptop):
    """An entry withdrawn before the draw is deleted here: the next batch names it (a
    laptop that never said so would leave the player on the server's list for ever)."""
    tournament, _table = laptop
    player = Entry.objects.first().player.__class__.objects.create(first_name="E", last_name="F")
    late = Entry.objects.create(tournament=tournament, player=player, number=9)
    publication = Publication.objects.create(
        tournament=tournament, url="http://127.0.0.1:9", token="t"
    )
    outbox.acknowledge(batch=outbox.next_batch(publication=publication))
    late.delete()
    bump_revision(tournament_id=tournament.pk)  # as the withdrawal's service does
    publication.refresh_from_db()
    batch = outbox.next_batch(publication=publication)
    assert batch.body["deletes"] == ["entry:9"] and batch.body["upserts"] == {}


def test_a_whole_archive_lacking_deals_the_server_holds_changes_nothing(client, host, laptop):
    """``cego-club publish`` on a laptop restored from a backup sends the whole tournament at
    a higher revision: the deals it lacks are not deleted on the server."""
    from tournaments.selectors.archive import tournament_archive

    tournament, table = laptop
    _row, token = issue_token(club=host)
    archive_id = str(uuid.uuid4())

    def send(revision):
        archive = json.loads(json.dumps(tournament_archive(tournament=tournament)))
        archive.update(archive_id=archive_id, revision=revision)
        archive["tournament"]["name"] = "Vom Laptop"
        return client.post(
            reverse("publishing:publish"),
            json.dumps(archive),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )

    assert send(5).status_code == 200
    forget_deals(table, [2, 3])
    answer = send(50)
    assert answer.status_code == 409 and "Spiele (2)" in answer.json()["error"]
    assert server_deals().count() == 3


def test_a_table_in_conflict_is_provisional_on_the_public_standings_until_settled(
    client, host, laptop
):
    tournament, _table = laptop
    _row, token = issue_token(club=host)
    device = published(client, tournament, token)
    body, _digests = device.batch()
    body.update(epoch=EPOCH, open_conflicts=["deal:r1-t1-d2"])
    assert post(client, body, token).json()["status"] == "unchanged"
    copy = copy_on_server()
    assert copy.provisional_tables == ["r1-t1"]
    page = client.get(reverse("tournaments:standings", args=[copy.pk])).content.decode()
    assert "Vorläufig" in page and "Runde 1, Tisch 1" in page
    body["open_conflicts"] = []  # the desk chose
    assert post(client, body, token).status_code == 200
    copy.refresh_from_db()
    assert copy.provisional_tables == []
    page = client.get(reverse("tournaments:standings", args=[copy.pk])).content.decode()
    assert "Vorläufig" not in page


@pytest.mark.django_db(transaction=True)
def test_the_senders_read_waits_for_no_phone_on_sqlite(laptop):
    """The batch's read runs beside a phone's transaction holding SQLite's write lock:
    before, it began BEGIN IMMEDIATE and queued behind every phone's deal."""
    import threading
    import time

    from django.db import connection, connections, transaction

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's write lock only: PostgreSQL's readers never wait for writers")
    tournament, table = laptop
    publication = Publication.objects.create(
        tournament=tournament, url="http://127.0.0.1:9", token="t", epoch=uuid.uuid4()
    )
    holding, release = threading.Event(), threading.Event()

    def phone():
        try:
            with transaction.atomic():  # BEGIN IMMEDIATE: the write lock, held
                Deal.objects.filter(table=table, number=1).update(as_written=False)
                holding.set()
                release.wait(15)
        finally:
            connections.close_all()

    thread = threading.Thread(target=phone)
    thread.start()
    assert holding.wait(10)
    started = time.monotonic()
    try:
        batch = outbox.next_batch(publication=publication)
        waited = time.monotonic() - started
    finally:
        release.set()
        thread.join()
    assert batch.body is not None and len(batch.body["upserts"]) > 3
    assert waited < 5, f"the read waited {waited:.1f} s for the phone's transaction"


def test_a_season_server_too_old_to_give_back_is_said_plainly(host, laptop, monkeypatch):
    tournament, _table = laptop
    publication = Publication.objects.create(
        tournament=tournament, url="http://127.0.0.1:9", token="t"
    )

    def old_server(url, *, token, path, payload=None, timeout=None):
        raise PublishError("HTTP 404", refused=True, status=404)

    monkeypatch.setattr(merging, "request", old_server)
    answer = {"state": "a" * 64, "digests": {"deal:r1-t1-d9": "x" * 32}, "knows_base": False}
    with pytest.raises(merging.MergeError, match="ältere Version"):
        merging.merge(publication=publication, answer=answer)
    publication.refresh_from_db()
    assert publication.sent_hash == ""  # the position did not move
