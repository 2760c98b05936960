"""No two people take the last seat: sign-ups at the same moment, each in its own
connection. On PostgreSQL the sign-up sheet's row lock serialises them, and the seats test
fails without it (each sign-up waits a moment between counting the seats and taking one, so
that without the lock all of them count before any takes: 8 held of 3 seats); the same name
at the same moment is decided by the unique constraint even then (each waits after looking
for the name, so the constraint's path is the one taken). On SQLite every transaction begins
IMMEDIATE, holding the database's one write lock (cego_club/sqlite), which serialises them
with or without the row lock: there the tests hold the write lock to its promise. CI runs
them on both databases."""

import datetime as dt
import threading
import time

import pytest
from django.db import connection
from django.utils import timezone

from clubs.models import Club
from signups.models import Signup
from signups.services import signups as services
from tests.factories import TournamentFactory


@pytest.fixture
def counting_takes_a_moment(monkeypatch):
    """A sign-up waits 50 ms after counting the seats taken: without the sheet's lock every
    sign-up of the moment counts the same seats free."""
    count = services._seats_taken

    def slowly(tournament):
        taken = count(tournament)
        time.sleep(0.05)
        return taken

    monkeypatch.setattr(services, "_seats_taken", slowly)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("counting_takes_a_moment")
def test_concurrent_sign_ups_never_overfill_the_seats():
    host = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    tournament = TournamentFactory(host_club=host, date=timezone.localdate() + dt.timedelta(days=7))
    services.set_sheet(tournament=tournament, user=None, is_open=True, capacity=3, closes_at=None)
    people = 8
    barrier = threading.Barrier(people)
    failures: list[Exception] = []

    def sign_up(number: int) -> None:
        from django.db import connection as thread_connection

        try:
            barrier.wait()
            services.sign_up(
                tournament=tournament,
                first_name="Person",
                last_name=f"Nummer{number}",
                consent=True,
            )
        except Exception as error:  # pragma: no cover - reported below
            failures.append(error)
        finally:
            thread_connection.close()

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(people)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    statuses = sorted(Signup.objects.values_list("status", flat=True))
    assert statuses.count("held") == 3 and statuses.count("waiting") == 5
    queues = list(
        Signup.objects.filter(status="waiting").order_by("queue").values_list("queue", flat=True)
    )
    assert len(set(queues)) == len(queues)  # a distinct place each
    assert connection.vendor in ("postgresql", "sqlite")


@pytest.fixture
def looking_for_the_name_takes_a_moment(monkeypatch):
    """A sign-up waits 50 ms after looking for its name: without the sheet's lock every
    sign-up of the moment finds the name free, and the unique constraint refuses the rest."""
    look = services._duplicate

    def slowly(tournament, key, **kwargs):
        found = look(tournament, key, **kwargs)
        time.sleep(0.05)
        return found

    monkeypatch.setattr(services, "_duplicate", slowly)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("looking_for_the_name_takes_a_moment")
def test_the_same_name_at_the_same_moment_is_signed_up_once():
    host = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    tournament = TournamentFactory(host_club=host, date=timezone.localdate() + dt.timedelta(days=7))
    services.set_sheet(
        tournament=tournament, user=None, is_open=True, capacity=None, closes_at=None
    )
    tries = 4
    barrier = threading.Barrier(tries)
    refused: list[Exception] = []

    def sign_up() -> None:
        from django.db import connection as thread_connection

        try:
            barrier.wait()
            services.sign_up(
                tournament=tournament, first_name="Hans", last_name="Müller", consent=True
            )
        except services.SignupError as error:
            refused.append(error)
        finally:
            thread_connection.close()

    threads = [threading.Thread(target=sign_up) for _ in range(tries)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Signup.objects.count() == 1 and len(refused) == tries - 1
