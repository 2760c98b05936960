"""The SQLite backend (cego_club/platform/sqlite/base.py): a process's writers queue in the process, so a
waiting writer begins the moment the other commits instead of sleeping in SQLite's busy handler
(1, 2, 5, … 100 ms between tries); SQLite's own lock still guards the file."""

import threading

import pytest
from django.db import OperationalError, connection, transaction
from django.db.backends.sqlite3 import base as django_sqlite

from clubs.models import Player
from tests.factories import PlayerFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "sqlite", reason="SQLite's writers; the suite runs it on SQLite"
    ),
]


def write_lock():
    from cego_club.platform.sqlite.base import write_lock

    return write_lock(connection.settings_dict["NAME"])


@pytest.fixture
def begins(monkeypatch):
    """Who asked SQLite for its write lock (``BEGIN IMMEDIATE``), in order."""
    order = []
    begin = django_sqlite.DatabaseWrapper._start_transaction_under_autocommit

    def recorded(self):
        order.append(threading.current_thread().name)
        return begin(self)

    monkeypatch.setattr(
        django_sqlite.DatabaseWrapper, "_start_transaction_under_autocommit", recorded
    )
    return order


def in_thread(name, work):
    errors = []

    def run():
        try:
            work()
        except Exception as error:  # noqa: BLE001 - shown by the test
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread, errors


def first_writer(after_commit=lambda: None):
    """A thread named "first" inside a transaction that has written, until the returned event
    is set; then it commits and calls ``after_commit``."""
    inside, may_commit = threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            PlayerFactory(last_name="Erster")
            inside.set()
            may_commit.wait(10)
        after_commit()

    thread, errors = in_thread("first", first)
    assert inside.wait(10)
    return thread, errors, may_commit


def test_a_second_writer_waits_in_the_process_and_begins_after_the_first_commits(begins):
    def second():
        with transaction.atomic():
            PlayerFactory(last_name="Zweiter")

    one, one_errors, first_may_commit = first_writer(lambda: begins.append("first committed"))
    two, two_errors = in_thread("second", second)
    two.join(0.3)
    assert two.is_alive() and write_lock().locked()
    # Before: the second thread was already in SQLite's BEGIN, polling its busy handler.
    assert begins == ["first"]
    first_may_commit.set()
    one.join(10)
    two.join(10)
    assert not one_errors and not two_errors
    assert begins == ["first", "first committed", "second"]
    assert set(Player.objects.values_list("last_name", flat=True)) == {"Erster", "Zweiter"}
    assert not write_lock().locked()


def test_a_rolled_back_or_closed_transaction_lets_the_next_writer_in():
    with pytest.raises(ValueError, match="Eingabefehler"), transaction.atomic():
        PlayerFactory(last_name="Zurückgerollt")
        raise ValueError("Eingabefehler")
    assert not write_lock().locked()
    assert not Player.objects.filter(last_name="Zurückgerollt").exists()

    atomic = transaction.atomic()
    atomic.__enter__()
    PlayerFactory(last_name="Abgebrochen")
    assert write_lock().locked()
    connection.close()  # e.g. the thread's connection dropped mid-transaction
    assert not write_lock().locked()
    atomic.__exit__(None, None, None)  # Django notes the closed connection, commits nothing
    assert not Player.objects.filter(last_name="Abgebrochen").exists()

    second, errors = in_thread("second", lambda: PlayerFactory(last_name="Danach"))
    second.join(10)
    assert not errors and Player.objects.filter(last_name="Danach").exists()


def test_a_writer_waiting_longer_than_the_timeout_gets_sqlite_s_error_and_writes_nothing():
    def impatient():
        connection.settings_dict = {
            **connection.settings_dict,
            "OPTIONS": {**connection.settings_dict["OPTIONS"], "timeout": 0.2},
        }
        with transaction.atomic():
            PlayerFactory(last_name="Ungeduldig")

    one, _errors, first_may_commit = first_writer()
    two, errors = in_thread("impatient", impatient)
    two.join(10)
    first_may_commit.set()
    one.join(10)
    assert len(errors) == 1 and isinstance(errors[0], OperationalError)
    assert "database is locked" in str(errors[0])
    assert not Player.objects.filter(last_name="Ungeduldig").exists()
    assert not write_lock().locked()
