"""A consistent read of several queries that takes no write lock.

Django's ``transaction.atomic()`` on this project's SQLite begins ``BEGIN IMMEDIATE`` (and
queues behind this process's writers, ``cego_club.platform.sqlite.base``): right for a change, wrong
for a pure read that runs beside forty phones, such as the sender reading a tournament to
publish it. ``read_snapshot`` begins ``BEGIN DEFERRED`` instead: in the venue's WAL mode the
read sees one snapshot from its first query and neither waits for a writer nor holds one up.
Elsewhere (PostgreSQL: MVCC; inside a caller's transaction) it is ``atomic()``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction


@contextmanager
def read_snapshot(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    connection = connections[using]
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic(using=using):
            yield
        return
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        # A read changed nothing: its end releases the snapshot (never left open: a
        # snapshot held keeps the WAL file from being checkpointed).
        with connection.cursor() as cursor:
            cursor.execute("ROLLBACK")
