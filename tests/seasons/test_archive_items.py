"""Archives item by item (issue 26, items 1 and 7): the format cut into items and put
together again, digests, batches of changes applied only where they change something."""

import copy
import io
import json
import uuid

import pytest
from django.urls import reverse

from clubs.models import Club
from tests.seasons.archive_factory import LOST, big_archive, deal_data
from tests.seasons.test_archive import played  # noqa: F401 (the fixture)
from tournaments.archive_format import (
    UNHASHED_KEYS,
    ArchiveError,
    archive_from_items,
    archive_items,
    item_digest,
    item_digests,
    parse_archive,
    parse_batch,
    state_digest,
)
from tournaments.models import (
    ArchiveItem,
    Deal,
    DealChange,
    Entry,
    RoundChange,
    Seat,
    Table,
    Tournament,
    TournamentChange,
)
from tournaments.selectors.archive import tournament_archive, tournament_items
from tournaments.services.archive_diff import REPLACE, STALE, UNCHANGED
from tournaments.services.archive_plan import plan_archive, plan_batch
from tournaments.services.archive_write import (
    apply_batch,
    import_tournament_archive,
    tournament_state,
)

pytestmark = pytest.mark.django_db


def as_json(value):
    return json.loads(json.dumps(value))


def batch_of(tournament_or_items, *, upserts, deletes=(), revision, archive_id):
    """A batch of changes on the state the server holds."""
    before = tournament_or_items
    after = {**before}
    for key, item in upserts.items():
        after[key] = item_digest(item)
    for key in deletes:
        after.pop(key)
    return parse_batch(
        json.dumps(
            {
                "format": "cego-club/changes",
                "version": 1,
                "archive_id": str(archive_id),
                "revision": revision,
                "base": state_digest(before),
                "state": state_digest(after),
                "upserts": upserts,
                "deletes": list(deletes),
            }
        )
    )


def stored(tournament):
    return dict(ArchiveItem.objects.filter(tournament=tournament).values_list("key", "digest"))


def counts(tournament):
    deals = Deal.objects.filter(table__round__tournament=tournament)
    return {
        "deals": deals.count(),
        "history": DealChange.objects.filter(deal__table__round__tournament=tournament).count(),
        "round_history": RoundChange.objects.filter(round__tournament=tournament).count(),
        "seats": Seat.objects.filter(round__tournament=tournament).count(),
        "entries": Entry.objects.filter(tournament=tournament).count(),
        "tables": Table.objects.filter(round__tournament=tournament).count(),
        "log": TournamentChange.objects.filter(tournament=tournament).count(),
    }


def test_items_put_together_again_give_the_archive(played):  # noqa: F811
    archive = as_json(tournament_archive(tournament=played))
    items = archive_items(archive)
    assert {"tournament", "entry:1", "team:Asse", "round:1", "table:r1-t1"} <= items.keys()
    assert "deal:r1-t1-d3" in items and items["deal:r1-t1-d3"]["status"] == "annulled"
    assert items["entry:1"]["player"]["member_number"] == "M0"
    assert archive_from_items(items) == {
        key: value for key, value in archive.items() if key not in UNHASHED_KEYS
    }
    assert archive["content_hash"] == state_digest(item_digests(items))
    assert tournament_items(tournament=played) == archive_items(
        tournament_archive(tournament=played)
    )
    big = big_archive(tables=3, rounds=2, deals=4)
    assert archive_from_items(archive_items(big)) == {
        key: value for key, value in big.items() if key not in UNHASHED_KEYS
    }


def test_digests_are_canonical():
    item = {"b": [1, 2], "a": "Müller"}
    assert item_digest(item) == item_digest({"a": "Müller", "b": [1, 2]})
    assert item_digest(item) != item_digest({"a": "Mueller", "b": [1, 2]})
    assert len(item_digest(item)) == 32
    assert state_digest({"x": "1", "y": "2"}) == state_digest({"y": "2", "x": "1"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda a: a["rounds"][0]["tables"][0].update(number="eins"),
            r"\$\.rounds\[0\]\.tables\[0\]\.number",
        ),
        (lambda a: a["rounds"][0]["tables"][0]["deals"][1].pop("kind"), "lacks kind"),
        (lambda a: a["players"][0].update(first_name=None), r"\$\.players\[0\]\.first_name"),
    ],
)
def test_a_bad_key_is_named_with_its_path(played, change, message):  # noqa: F811
    archive = as_json(tournament_archive(tournament=played))
    change(archive)
    with pytest.raises(ArchiveError, match=message):
        parse_archive(json.dumps(archive))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{", "not a JSON file"),
        (b'{"format": "cego-club/tournament-archive"}', "not a Cego Club batch"),
        (b'{"format": "cego-club/changes", "version": 3}', "version 3"),
        (
            b'{"format": "cego-club/changes", "version": 1, "archive_id": "x", "revision": 1}',
            "lacks state",
        ),
        (
            b'{"format": "cego-club/changes", "version": 1, "archive_id": "x", "revision": 1,'
            b' "state": "s", "upserts": {"deal:r1-t1-d1": {"number": 1}}}',
            "deal:r1-t1-d1",
        ),
        (
            b'{"format": "cego-club/changes", "version": 1, "archive_id": "x", "revision": 1,'
            b' "state": "s", "deletes": ["sofa:1"]}',
            "Unknown item sofa:1",
        ),
    ],
)
def test_bad_batches_are_refused_clearly(content, message):
    with pytest.raises(ArchiveError, match=message):
        parse_batch(content)


@pytest.fixture
def imported():
    archive = big_archive(tables=4, rounds=2, deals=6)
    outcome = import_tournament_archive(data=archive, create_clubs=True)
    return archive, outcome.tournament


def test_an_import_keeps_every_items_digest(imported):
    archive, tournament = imported
    assert stored(tournament) == item_digests(archive_items(archive))
    tournament.refresh_from_db()
    assert tournament.archive_hash == tournament_state(tournament=tournament)
    assert tournament.archive_hash == state_digest(item_digests(archive_items(archive)))


def test_the_same_batch_twice_changes_nothing(imported):
    archive, tournament = imported
    new_deal = {"round": 2, "table": 1, **deal_data(2, 1, 7)}
    batch = batch_of(
        stored(tournament),
        upserts={"deal:r2-t1-d7": new_deal},
        revision=101,
        archive_id=archive["archive_id"],
    )
    first = apply_batch(batch=batch, actor="Laptop")
    assert first.replaced and first.changes == {"deal": {"new": 1, "changed": 0, "removed": 0}}
    tournament.refresh_from_db()
    after_first = counts(tournament), tournament.revision, stored(tournament)
    again = apply_batch(batch=batch, actor="Laptop")
    assert not again.created and not again.replaced
    tournament.refresh_from_db()
    assert (counts(tournament), tournament.revision, stored(tournament)) == after_first
    log = TournamentChange.objects.filter(tournament=tournament, action="archive_replaced").get()
    assert "1 deals added" in log.subject and log.after["added"] == ["r2-t1-d7"]


def test_the_writer_applied_twice_to_the_same_rows_changes_nothing(imported):
    """Items the server holds already, written again (their digests forgotten): the rows are
    updated in place, the histories replaced, nothing doubled."""
    archive, tournament = imported
    before = counts(tournament)
    history = list(
        DealChange.objects.filter(deal__table__round__tournament=tournament)
        .order_by("deal__table__round__number", "deal__table__number", "deal__number")
        .values_list("deal__number", "action", "changed_at", "actor")
    )
    ArchiveItem.objects.filter(tournament=tournament).exclude(key="tournament").delete()
    Tournament.objects.filter(pk=tournament.pk).update(archive_hash="lost track")
    newer = dict(archive, revision=archive["revision"] + 1)
    plan = plan_archive(data=newer)
    assert plan.action == REPLACE and len(plan.upserts) == len(archive_items(archive)) - 1
    outcome = import_tournament_archive(data=newer)
    assert outcome.replaced
    after = counts(tournament)
    assert after == {**before, "log": before["log"] + 1}
    assert (
        list(
            DealChange.objects.filter(deal__table__round__tournament=tournament)
            .order_by("deal__table__round__number", "deal__table__number", "deal__number")
            .values_list("deal__number", "action", "changed_at", "actor")
        )
        == history
    )
    assert stored(tournament) == item_digests(archive_items(archive))


def test_a_changed_deal_changes_that_deal_only(imported):
    archive, tournament = imported
    other = Deal.objects.get(
        table__round__tournament=tournament, table__round__number=1, table__number=2, number=1
    )
    changed = {"round": 1, "table": 1, **deal_data(1, 1, 3, won=False)}
    changed["history"].append(
        {
            "action": "corrected",
            "changed_at": "2026-11-14T12:00:00+00:00",
            "changed_by": "",
            "actor": "orga",
            "reason": "verzählt",
            "before": None,
            "after": None,
        }
    )
    batch = batch_of(
        stored(tournament),
        upserts={"deal:r1-t1-d3": changed},
        revision=101,
        archive_id=archive["archive_id"],
    )
    apply_batch(batch=batch, actor="Laptop")
    deal = Deal.objects.get(
        table__round__tournament=tournament, table__round__number=1, table__number=1, number=3
    )
    assert deal.scores[:4] == [LOST[1], LOST[1], LOST[1], LOST[0]]
    assert list(deal.changes.values_list("action", flat=True)) == ["created", "corrected"]
    assert Deal.objects.get(pk=other.pk).updated_at == other.updated_at  # not written
    tournament.refresh_from_db()
    assert tournament.archive_revision == 101 and tournament.archive_hash == batch.state


def test_deleted_table_and_deal_items_are_removed(imported):
    archive, tournament = imported
    digests = stored(tournament)
    doomed = ["deal:r2-t4-d6", *[f"deal:r2-t3-d{d}" for d in range(1, 7)], "table:r2-t3"]
    batch = batch_of(
        digests, upserts={}, deletes=doomed, revision=101, archive_id=archive["archive_id"]
    )
    outcome = apply_batch(batch=batch, actor="Laptop")
    assert outcome.changes["deal"]["removed"] == 7 and outcome.changes["table"]["removed"] == 1
    assert not Table.objects.filter(round__tournament=tournament, round__number=2, number=3)
    assert not Deal.objects.filter(
        table__round__tournament=tournament, table__round__number=2, table__number=4, number=6
    )
    assert Deal.objects.filter(table__round__tournament=tournament).count() == 48 - 7
    assert not set(doomed) & stored(tournament).keys()


def test_a_deal_whose_scores_disagree_is_refused_and_nothing_written(imported):
    archive, tournament = imported
    tournament.refresh_from_db()
    before = counts(tournament), tournament.revision, stored(tournament)
    wrong = {"round": 1, "table": 1, **deal_data(1, 1, 7)}
    wrong["scores"] = [40, -10, -20, -10]
    good = {"round": 1, "table": 2, **deal_data(1, 2, 7)}
    batch = batch_of(
        stored(tournament),
        upserts={"deal:r1-t2-d7": good, "deal:r1-t1-d7": wrong},
        revision=101,
        archive_id=archive["archive_id"],
    )
    with pytest.raises(ArchiveError, match="Round 1, table 1, deal 7"):
        apply_batch(batch=batch, actor="Laptop")
    tournament.refresh_from_db()
    assert (counts(tournament), tournament.revision, stored(tournament)) == before


def test_a_batch_on_another_state_is_refused_and_the_revision_orders_nothing(imported):
    archive, tournament = imported
    digests = stored(tournament)
    new_deal = {"round": 2, "table": 1, **deal_data(2, 1, 7)}
    wrong_base = dict(digests, **{"deal:r1-t1-d1": "0" * 32})
    stale = batch_of(
        wrong_base,
        upserts={"deal:r2-t1-d7": new_deal},
        revision=101,
        archive_id=archive["archive_id"],
    )
    assert plan_batch(batch=stale).action == STALE
    with pytest.raises(ArchiveError, match="Send the whole tournament"):
        apply_batch(batch=stale, actor="Laptop")
    assert not Deal.objects.filter(table__round__tournament=tournament, number=7).exists()
    # On the state held here, a lower revision than the stored one is applied: the base
    # orders batches; a revision a laptop declares could be forged.
    lower = batch_of(
        digests, upserts={"deal:r2-t1-d7": new_deal}, revision=99, archive_id=archive["archive_id"]
    )
    apply_batch(batch=lower, actor="Laptop")
    assert Deal.objects.filter(table__round__tournament=tournament, number=7).exists()


def test_a_snapshot_creates_and_then_says_unchanged():
    archive = big_archive(tables=2, rounds=1, deals=3, seed=7)
    Club.objects.create(name="Cegofreunde Testhausen", short_name="CF Test", town="Testhausen")
    items = archive_items(archive)
    raw = {
        "format": "cego-club/changes",
        "version": 1,
        "archive_id": archive["archive_id"],
        "revision": 5,
        "base": None,
        "state": state_digest(item_digests(items)),
        "upserts": items,
        "deletes": [],
    }
    outcome = apply_batch(batch=parse_batch(json.dumps(raw)), actor="Laptop")
    assert (
        outcome.created
        and Deal.objects.filter(table__round__tournament=outcome.tournament).count() == 6
    )
    assert plan_batch(batch=parse_batch(json.dumps(raw))).action == UNCHANGED
    # A snapshot without one deal: it is deleted here.
    del items["deal:r1-t2-d3"]
    smaller = dict(raw, revision=6, upserts=items, state=state_digest(item_digests(items)))
    outcome = apply_batch(batch=parse_batch(json.dumps(smaller)), actor="Laptop")
    assert outcome.changes == {"deal": {"new": 0, "changed": 0, "removed": 1}}
    assert Deal.objects.filter(table__round__tournament=outcome.tournament).count() == 5


def test_one_new_deal_into_a_big_tournament_takes_a_few_queries(django_assert_max_num_queries):
    archive = big_archive(tables=28, rounds=3, deals=24)  # 2,016 deals
    tournament = import_tournament_archive(data=archive, create_clubs=True).tournament
    new_deal = {"round": 3, "table": 5, **deal_data(3, 5, 25)}
    batch = batch_of(
        stored(tournament),
        upserts={"deal:r3-t5-d25": new_deal},
        revision=101,
        archive_id=archive["archive_id"],
    )
    with django_assert_max_num_queries(22):
        apply_batch(batch=batch, actor="Laptop")
    assert Deal.objects.filter(table__round__tournament=tournament).count() == 2017


def test_the_upload_preview_shows_the_item_diff(client, organiser, played):  # noqa: F811
    archive = as_json(tournament_archive(tournament=played))
    archive["archive_id"] = str(uuid.uuid4())
    archive["tournament"]["name"] = "Vom Laptop"
    import_tournament_archive(data=archive)
    newer = copy.deepcopy(archive)
    newer["revision"] += 3
    table = newer["rounds"][0]["tables"][0]
    table["deals"][3]["status"] = "annulled"
    table["deals"].append(dict(table["deals"][0], number=5, history=[]))
    table["deals"][-1]["record"] = dict(table["deals"][0]["record"], id="r1-t1-d5")
    client.force_login(organiser)
    file = io.BytesIO(json.dumps(newer).encode())
    file.name = "a.json"
    page = client.post(reverse("tournaments:archive_upload"), {"file": file}).content.decode()
    assert "Deals: 1 new, 1 changed" in page


def test_a_copy_stored_before_the_items_is_taken_over(imported):
    """A copy imported before this server kept items (its hash made the old way, no
    digests): the same archive changes nothing; a newer one is diffed against the copy's rows
    and every digest is stored."""
    from tournaments.archive_format import legacy_archive_hash

    archive, tournament = imported
    ArchiveItem.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).update(archive_hash=legacy_archive_hash(archive))
    again = import_tournament_archive(data=archive)
    assert not again.created and not again.replaced
    newer = copy.deepcopy(archive)
    newer["revision"] += 1
    del newer["rounds"][0]["tables"][0]["deals"][5]
    outcome = import_tournament_archive(data=newer)
    assert outcome.replaced and outcome.changes["deal"]["removed"] == 1
    assert stored(tournament) == item_digests(archive_items(newer))
    assert Deal.objects.filter(table__round__tournament=tournament).count() == 47


def test_the_errors_are_german_by_default():
    from django.utils import translation

    raw = (
        b'{"format": "cego-club/changes", "version": 1, "archive_id": "x",'
        b' "revision": "eins", "state": "s"}'
    )
    with translation.override("de"), pytest.raises(ArchiveError) as raised:
        parse_batch(raw)
    assert raised.value.message == "die Änderungen: $.revision müsste int sein, ist aber str."
    with translation.override("de"), pytest.raises(ArchiveError, match="Unbekannter Eintrag"):
        parse_batch(raw.replace(b'"eins"', b"1")[:-1] + b', "deletes": ["x:1"]}')


def test_a_batch_can_seat_players_anew_and_add_a_late_entry_with_a_team(imported):
    """Two tables of a round swap a player (their old seats go before the new are written),
    a late entry arrives with a new team and a keep-apart pair, and round 2 is reopened."""
    archive, tournament = imported
    items = archive_items(archive)
    first, second = copy.deepcopy(items["table:r2-t1"]), copy.deepcopy(items["table:r2-t2"])
    first["seats"][0], second["seats"][0] = second["seats"][0], first["seats"][0]
    late = copy.deepcopy(items["entry:16"])
    late.update(number=17, team="Spätzünder")
    late["player"].update(
        key="p17", uuid=str(uuid.uuid4()), first_name="Lena", last_name="Spät", member_number=""
    )
    round_2 = dict(items["round:2"], state="playing")
    round_2["history"] = [
        *round_2["history"],
        {
            "round": 2,
            "table": 1,
            "action": "table_voided",
            "reason": "Streit",
            "changed_at": "2026-11-14T15:00:00+00:00",
            "changed_by": "orga",
        },
    ]
    upserts = {
        "table:r2-t1": first,
        "table:r2-t2": second,
        "entry:17": late,
        "team:Spätzünder": {"name": "Spätzünder", "club": "CF Test"},
        "keep_apart:16-17": {"first": 16, "second": 17, "reason": "Ehepaar"},
        "round:2": round_2,
    }
    batch = batch_of(
        stored(tournament), upserts=upserts, revision=101, archive_id=archive["archive_id"]
    )
    outcome = apply_batch(batch=batch, actor="Laptop")
    assert outcome.players_created == 1
    seated = dict(
        Seat.objects.filter(round__tournament=tournament, round__number=2, position=0).values_list(
            "table__number", "entry__number"
        )
    )
    assert seated[1] == first["seats"][0] and seated[2] == second["seats"][0]
    assert first["seats"][0] == items["table:r2-t2"]["seats"][0]  # swapped
    entry = Entry.objects.get(tournament=tournament, number=17)
    assert entry.team.name == "Spätzünder" and entry.player.last_name == "Spät"
    assert tournament.keep_apart_pairs.get().reason == "Ehepaar"
    assert (
        RoundChange.objects.filter(
            round__tournament=tournament, round__number=2, action="table_voided"
        )
        .get()
        .table.number
        == 1
    )
    # What the server holds is what the laptop holds.
    here = tournament_items(tournament=tournament)
    assert here["table:r2-t1"]["seats"] == first["seats"]
    assert tournament_state(tournament=tournament) == batch.state
    assert apply_batch(batch=batch, actor="Laptop").replaced is False  # the same batch again
