"""Publishing reads only what changed: the tables a service names with its revision
(``RevisionScope``), never the whole tournament for one deal, and never less than a full
read would find.

Each step of a tournament day goes through its real service; after each, the batch the
outbox builds from the changed tables alone must equal, item for item, the batch built from
the whole tournament.
"""

import datetime
import logging

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Player
from publishing.laptop import merging, outbox, sender
from publishing.models import Publication, PublishConflict
from tournaments.models import Deal, RevisionScope, Round, Tournament
from tournaments.services import (
    checkin,
    desk_entry,
    draws,
    paper_sheets,
    phone_entry,
    revision,
    round_state,
    setup,
)
from tournaments.services.paper_sheets import WrittenRow

pytestmark = pytest.mark.django_db


def cego(declarer: int, points: int = 50) -> dict:
    return {"contract": "cego", "declarer": declarer, "declarer_points": points}


def _tournament(*, players: int = 12) -> Tournament:
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    tournament = setup.create_tournament(
        name="Wintercego",
        host_club=club,
        date=datetime.date(2026, 12, 5),
        rules_slug="swm",
        rounds=3,
        review_draws=False,
    )
    for n in range(players):
        player = Player.objects.create(first_name=f"Vor{n}", last_name=f"Nach{n}")
        entry = setup.register_player(tournament=tournament, player=player)
        checkin.set_checked_in(entry=entry, checked_in=True)
    return tournament


def _publication(tournament: Tournament) -> Publication:
    publication = Publication.objects.create(
        tournament=tournament, url="http://127.0.0.1:9", token="t"
    )
    outbox.acknowledge(batch=outbox.next_batch(publication=publication))
    return publication


def _publish(publication: Publication) -> outbox.Batch:
    """The next batch, checked against the batch of a full read, then acknowledged."""
    publication.refresh_from_db()
    batch = outbox.next_batch(publication=publication)
    whole = outbox.next_batch(publication=publication, full=True)
    assert batch.local_digests == whole.local_digests
    assert batch.state == whole.state
    assert batch.body == whole.body or (
        batch.body is not None
        and whole.body is not None
        and {**batch.body, "epoch": None} == {**whole.body, "epoch": None}
    )
    outbox.acknowledge(batch=batch)
    return batch


@pytest.fixture
def day(django_user_model):
    tournament = _tournament()
    organiser = django_user_model.objects.create_user("orga", password="x")
    publication = _publication(tournament)
    first = draws.draw_next_round(tournament=tournament, number=1, seed=1)
    return tournament, organiser, publication, first


def test_every_step_of_a_day_publishes_what_a_full_read_finds(day):
    tournament, organiser, publication, first = day
    assert _publish(publication).read_in_full  # the draw named no tables
    one, two, three = first.tables.order_by("number")

    # Deals at the tables and at the desk: only the table is read again.
    deal = phone_entry.enter_deal(
        table=one, number=1, inputs=cego(0), via="table", entered_by_position=1
    )
    batch = _publish(publication)
    assert not batch.read_in_full
    # the first deal started the round: its item travels with the table's
    assert set(batch.body["upserts"]) == {"deal:r1-t1-d1", "round:1"}
    deal = phone_entry.confirm_deal(deal=deal, confirmer_position=2, expected_version=deal.version)
    assert set(_publish(publication).body["upserts"]) == {"deal:r1-t1-d1"}
    phone_entry.enter_deal(table=one, number=2, inputs=cego(1))
    phone_entry.enter_deal(table=two, number=1, inputs=cego(2))
    batch = _publish(publication)
    assert not batch.read_in_full
    assert set(batch.body["upserts"]) == {"deal:r1-t1-d2", "deal:r1-t2-d1"}

    # Corrections, annulment, restoring: the deal with its history.
    deal = phone_entry.revise_deal(
        deal=deal, inputs=cego(3, 60), expected_version=deal.version, user=organiser,
        reason="falsch notiert",
    )  # fmt: skip
    deal = desk_entry.annul_deal(deal=deal, reason="Kartenfehler", user=organiser)
    assert set(_publish(publication).body["upserts"]) == {"deal:r1-t1-d1"}
    desk_entry.restore_deal(deal=deal, reason="doch gültig", user=organiser)
    assert not _publish(publication).read_in_full

    # A paper sheet typed in, round totals, a voided table.
    paper_sheets.enter_written_deals(
        table=three, rows=[WrittenRow(1, "halbe", 1, (None, 60, None, None))], user=organiser
    )
    assert set(_publish(publication).body["upserts"]) == {"deal:r1-t3-d1"}
    round_state.void_table(table=two, reason="Blatt verloren", user=organiser)
    batch = _publish(publication)
    assert set(batch.body["upserts"]) == {"table:r1-t2", "round:1"}  # the void is in its history
    round_state.unvoid_table(table=two, reason="Blatt gefunden", user=organiser)
    assert not _publish(publication).read_in_full

    # Closing the round and drawing the next name no tables: read in full.
    round_state.set_round_state(
        round=first, state=Round.State.CLOSED, user=organiser, close_open=True
    )
    assert _publish(publication).read_in_full
    second = draws.draw_next_round(tournament=tournament, number=2, seed=2)
    assert _publish(publication).read_in_full
    table = second.tables.order_by("number").first()
    paper_sheets.enter_totals(table=table, totals=[30, -10, -10, -10], user=organiser)
    batch = _publish(publication)
    assert not batch.read_in_full
    assert set(batch.body["upserts"]) == {f"deal:r2-t{table.number}-d1", "round:2"}

    # Several changes between two batches (the server was away): all of them, one read.
    for number in range(1, 4):
        phone_entry.enter_deal(
            table=second.tables.order_by("number")[1], number=number, inputs=cego(0)
        )
    batch = _publish(publication)
    assert not batch.read_in_full and len(batch.body["upserts"]) == 3


def test_a_batch_reads_as_many_rows_for_one_deal_whatever_the_tournament_size(day):
    """The queries of a one-deal batch and its acknowledgement do not grow with the deals
    already played: each reads only the changed table's rows and writes only its items."""
    tournament, _organiser, publication, first = day
    _publish(publication)
    tables = list(first.tables.order_by("number"))

    def one_deal_batch(table, number):
        phone_entry.enter_deal(table=table, number=number, inputs=cego(number % 4))
        publication.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            batch = outbox.next_batch(publication=publication)
            outbox.acknowledge(batch=batch)
        assert not batch.read_in_full
        # What was read and written, as SQL with its values: a position kept whole (the
        # digests of every item) would grow with the deals played.
        written = sum(len(query["sql"]) for query in queries)
        return len(queries), len(batch.body["upserts"]), written

    phone_entry.enter_deal(table=tables[2], number=1, inputs=cego(0))  # the round has begun
    _publish(publication)
    early = one_deal_batch(tables[0], 1)
    for number in range(2, 21):
        for table in tables:
            phone_entry.enter_deal(table=table, number=number, inputs=cego(number % 4))
    phone_entry.enter_deal(table=tables[0], number=21, inputs=cego(0))
    _publish(publication)
    late = one_deal_batch(tables[1], 21)
    assert Deal.objects.filter(table__round=first).count() == 21 + 20 + 20
    assert early[:2] == late[:2] and late[1] == 1
    assert abs(early[2] - late[2]) < 300, (early, late)


def test_a_revision_that_names_no_tables_is_read_in_full(day):
    """A change whose service does not say what it touched (here a setting, saved) leaves a
    revision without a scope: the next batch reads everything, and finds it."""
    tournament, _organiser, publication, first = day
    _publish(publication)
    phone_entry.enter_deal(table=first.tables.first(), number=1, inputs=cego(0))
    Tournament.objects.get(pk=tournament.pk).save()  # the admin: a bump naming nothing
    tournament.refresh_from_db()
    assert RevisionScope.objects.filter(tournament=tournament).count() == 1
    batch = _publish(publication)
    assert batch.read_in_full and "deal:r1-t1-d1" in batch.body["upserts"]


def test_a_change_its_service_did_not_name_is_found_by_the_next_full_read(day, caplog):
    """The safety net: a write that named the wrong table is missed by the changed-table
    read, then found and logged by the full read the sender makes every few minutes."""
    tournament, _organiser, publication, first = day
    one, two = first.tables.order_by("number")[:2]
    phone_entry.enter_deal(table=one, number=1, inputs=cego(0))
    _publish(publication)
    Deal.objects.filter(table=one, number=1).update(dealer_position=3)
    revision.bump_revision(tournament_id=tournament.pk, tables=[two.pk])  # wrongly named
    publication.refresh_from_db()
    missed = outbox.next_batch(publication=publication)
    assert missed.body is None  # table 2 holds nothing new
    outbox.acknowledge(batch=missed)
    publication.refresh_from_db()
    sender._full_read_at[publication.pk] = 0.0  # long ago: the sender's next batch is whole
    with caplog.at_level(logging.WARNING, logger="publishing.laptop.outbox"):
        found = outbox.next_batch(publication=publication, full=True)
    assert set(found.body["upserts"]) == {"deal:r1-t1-d1"}
    assert "deal:r1-t1-d1" in caplog.text


def test_the_sender_reads_the_whole_tournament_every_few_minutes(day, monkeypatch):
    tournament, _organiser, publication, first = day
    _publish(publication)
    seen = []
    real = outbox.next_batch

    def spy(*, publication, full=False):
        batch = real(publication=publication, full=full)
        seen.append(batch.read_in_full)
        return batch

    def unreachable(*args, **kwargs):
        raise sender.PublishError("unreachable")

    monkeypatch.setattr(outbox, "next_batch", spy)
    monkeypatch.setattr(sender, "request", unreachable)
    sender._full_read_at.pop(publication.pk, None)
    table = first.tables.first()
    for number, long_ago in ((1, False), (2, False), (3, True)):
        phone_entry.enter_deal(table=table, number=number, inputs=cego(0))
        if long_ago:
            sender._full_read_at[publication.pk] -= outbox.FULL_READ_SECONDS
        publication.refresh_from_db()
        with pytest.raises(sender.PublishError):
            sender.send(publication=publication)
    # the first in this process is whole, then only changes, then whole again
    assert seen == [True, False, True]


def test_the_scope_is_written_where_sqlite_cannot_return_the_revision(day, monkeypatch):
    """SQLite before 3.35 has no UPDATE … RETURNING: the revision is read back instead, in
    the same transaction, and the scope carries the right number."""
    tournament, _organiser, _publication, first = day
    monkeypatch.setattr(revision, "_returning", lambda: False)
    revision._bump_sql.cache_clear()
    try:
        table = first.tables.first()
        phone_entry.enter_deal(table=table, number=1, inputs=cego(0))
    finally:
        revision._bump_sql.cache_clear()
    tournament.refresh_from_db()
    scope = RevisionScope.objects.get(tournament=tournament)
    assert (scope.revision, scope.table_id) == (tournament.revision, table.pk)


def test_a_deleted_table_takes_its_scopes_along_and_is_read_in_full(day):
    """A table deleted (a redraw before play) deletes its scopes: the gap makes the next
    batch read everything, and the table is deleted on the server too."""
    tournament, _organiser, publication, first = day
    _publish(publication)
    table = first.tables.order_by("number").last()
    revision.bump_revision(tournament_id=tournament.pk, tables=[table.pk])
    table.seats.all().delete()
    table.delete()
    publication.refresh_from_db()
    batch = outbox.next_batch(publication=publication)
    assert batch.read_in_full
    assert batch.body["deletes"] == [f"table:r1-t{table.number}"]


def test_a_conflict_alone_is_told_to_the_server_and_so_is_its_settling(day):
    """A laptop whose only difference from the server is a conflict for the desk (its own
    version held back) still tells the server which item waits, so the server's standings
    show that table as provisional; once settled with the server's version (nothing else
    to send), it tells the server that too."""
    tournament, organiser, publication, first = day
    phone_entry.enter_deal(table=first.tables.first(), number=1, inputs=cego(0))
    batch = _publish(publication)
    digest = batch.digests["deal:r1-t1-d1"]
    conflict = PublishConflict.objects.create(
        publication=publication, key="deal:r1-t1-d1", server_digest=digest,
        laptop_digest="0" * 32,
    )  # fmt: skip
    revision.bump_revision(tournament_id=tournament.pk)  # the merge wrote what it took
    publication.refresh_from_db()
    told = outbox.next_batch(publication=publication)
    assert told.body is not None and told.state == publication.sent_hash
    assert told.body["open_conflicts"] == ["deal:r1-t1-d1"] and told.body["upserts"] == {}
    outbox.acknowledge(batch=told)
    publication.refresh_from_db()
    assert publication.conflicts_told == ["deal:r1-t1-d1"]
    assert outbox.next_batch(publication=publication).body is None  # told once

    merging.settle(conflict=conflict, choice="server", user=organiser)
    publication.refresh_from_db()
    settled = outbox.next_batch(publication=publication)
    assert settled.body is not None and settled.body["open_conflicts"] == []
    assert settled.body["upserts"] == {} and settled.state == publication.sent_hash


def test_the_sender_remembers_the_position_it_wrote_and_reads_anothers(
    day, django_capture_on_commit_callbacks
):
    """After its acknowledgement commits, the next batch reads no row of the position; a
    position moved by another process (its columns changed) is read from the rows again."""
    tournament, _organiser, publication, first = day
    _publish(publication)
    table = first.tables.first()
    for number in (1, 2):
        phone_entry.enter_deal(table=table, number=number, inputs=cego(0))
        publication.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            batch = outbox.next_batch(publication=publication)
        with django_capture_on_commit_callbacks(execute=True):
            outbox.acknowledge(batch=batch)
    reads_of_the_position = [q for q in queries if "publishing_publisheditem" in q["sql"]]
    assert not reads_of_the_position  # the second batch: remembered

    # Another process found the server holding nothing: the next batch is a snapshot.
    Publication.objects.filter(pk=publication.pk).update(sent_hash="", sent_revision=None)
    phone_entry.enter_deal(table=table, number=3, inputs=cego(1))
    publication.refresh_from_db()
    snapshot = outbox.next_batch(publication=publication)
    assert snapshot.body["base"] is None and "tournament" in snapshot.body["upserts"]


def test_rulings_and_swaps_publish_once_they_count(day, django_user_model):
    """A swap asked for and a ruling waiting for its second referee stay in the hall; an
    approved swap (its seats and the tournament item) and a final ruling (the tournament
    item) are published (issue 39)."""
    from clubs.models import ClubRole
    from tournaments.models import Seat
    from tournaments.services import fairness, hall

    tournament, organiser, publication, _first = day
    ClubRole.objects.create(user=organiser, club=tournament.host_club)
    referee = django_user_model.objects.create_user("schiri", password="x")
    tournament.referees.add(referee)
    _publish(publication)
    second = draws.draw_next_round(tournament=tournament, number=2, seed=4,
                                   while_previous_open=True)  # fmt: skip
    _publish(publication)
    seats = list(Seat.objects.filter(round=second).order_by("table__number", "position"))
    swap = fairness.request_swap(
        round=second, first=seats[0].entry, second=seats[-1].entry, reason="Licht",
        user=organiser,
    )  # fmt: skip
    publication.refresh_from_db()
    assert outbox.next_batch(publication=publication).body is None  # nothing to send
    fairness.approve_swap(swap=swap, user=referee)
    batch = _publish(publication)
    assert "tournament" in batch.body["upserts"]
    assert batch.body["upserts"]["tournament"]["seat_swaps"][0]["approved_by"] == "schiri"
    assert {key for key in batch.body["upserts"] if key.startswith("table:r2")} == {
        f"table:r2-t{seats[0].table.number}",
        f"table:r2-t{seats[-1].table.number}",
    }
    tournament.two_referee_rulings = True
    tournament.save()
    _publish(publication)
    call, _ = hall.call_referee(table=seats[0].table, deal_number=1)
    ruling = fairness.record_ruling(
        tournament=tournament, call=call, deal_number=1, decision="gilt", user=organiser
    )
    publication.refresh_from_db()
    assert outbox.next_batch(publication=publication).body is None  # pending: the hall's
    fairness.confirm_ruling(ruling=ruling, user=referee)
    batch = _publish(publication)
    assert batch.body["upserts"]["tournament"]["rulings"][0]["referees"] == ["orga", "schiri"]
