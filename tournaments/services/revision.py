"""The tournament's revision: the number public pages and printouts are cached under.

Every service that changes something a public page or a printout shows calls
:func:`bump_revision` inside its own transaction, so the new number becomes visible together
with the change (and not at all if the transaction rolls back). Cached output is keyed on the
revision it was built from (``tournaments.caching``): nothing is invalidated by hand and a
reader never gets output older than the data it would read itself.

A service that changed only some tables (a deal, its confirmation, a correction, a void)
names them (``tables``): the new revision's scope (``RevisionScope``) is written in the same
transaction, so the laptop's publishing reads only those tables since its last batch. A bump
naming nothing may have changed anything, and is read in full.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import F, Q

from tournaments.caching import revisions_moved
from tournaments.models import RevisionScope, Tournament
from tournaments.signals import revision_committed


def _announce(tournament_id: int | None) -> None:
    revisions_moved()  # the venue's front reads the revision again
    # After the commit: a listener (the publishing sender) must see the change when it reads.
    transaction.on_commit(
        lambda: revision_committed.send(sender=Tournament, tournament_id=tournament_id)
    )


def bump_revision(*, tournament_id: int, tables: Iterable[int] = ()) -> None:
    """Count one more change of the tournament (an F() update: concurrent bumps all count).
    ``tables``: the primary keys of the only tables the change touched (their deals, seats
    and their rounds' items), where the service knows; nothing named: it may be anything.

    Called last in a service, so that on PostgreSQL the tournament row stays locked for as
    short a time as possible (deal entries at different tables only meet here)."""
    table_ids = sorted(set(tables))
    with connection.cursor() as cursor:
        bump, read_back = _bump_sql()
        cursor.execute(bump, [tournament_id])
        row = None
        if not read_back:
            row = cursor.fetchone()  # UPDATE … RETURNING gives the new number
        elif table_ids:
            cursor.execute(read_back, [tournament_id])
            row = cursor.fetchone()
        if table_ids and row is not None:  # None: no such tournament, nothing was bumped
            revision = row[0]
            cursor.executemany(
                _scope_sql(), [(tournament_id, revision, table_id) for table_id in table_ids]
            )
    _announce(tournament_id)


def _returning() -> bool:
    # UPDATE … RETURNING: PostgreSQL, and SQLite from 3.35 (Python's own builds have it;
    # an older system library reads the number back in the same transaction instead).
    return connection.vendor == "postgresql" or (
        connection.vendor == "sqlite" and sqlite3.sqlite_version_info >= (3, 35)
    )


@functools.cache
def _bump_sql() -> tuple[str, str]:
    # ``Tournament.objects.filter(pk=…).update(revision=F("revision") + 1)`` written out once:
    # every deal bumps, and building the ORM's update cost more than running it. The second
    # statement reads the new number back where RETURNING is missing ("" where it is not).
    q = connection.ops.quote_name
    meta = Tournament._meta
    revision = q(str(meta.get_field("revision").column))
    table, pk = q(meta.db_table), q(str(meta.get_field("id").column))
    update = f"UPDATE {table} SET {revision} = {revision} + 1 WHERE {pk} = %s"  # noqa: S608
    if _returning():
        return f"{update} RETURNING {revision}", ""
    return update, f"SELECT {revision} FROM {table} WHERE {pk} = %s"  # noqa: S608


@functools.cache
def _scope_sql() -> str:
    q = connection.ops.quote_name
    meta = RevisionScope._meta
    columns = ", ".join(
        q(str(getattr(meta.get_field(name), "column")))  # noqa: B009 (mypy: a field, not a relation)
        for name in ("tournament", "revision", "table")
    )
    return f"INSERT INTO {q(meta.db_table)} ({columns}) VALUES (%s, %s, %s)"  # noqa: S608


def bump_revisions_showing(*, player_id: int | None = None, club_id: int | None = None) -> int:
    """Bump every tournament that shows this player (an entry) or this club (host club, a
    team's club, or the club of a player entered, a guest's without membership too): one
    UPDATE, for a rename in the registry or the club list, inside the caller's transaction.
    Returns the number bumped."""
    shows = Q(pk__in=[])
    if player_id is not None:
        shows |= Q(entries__player_id=player_id)
    if club_id is not None:
        shows |= (
            Q(host_club_id=club_id)
            | Q(teams__club_id=club_id)
            | Q(entries__player__memberships__club_id=club_id)
            | Q(entries__player__guest_club_id=club_id)
        )
    showing = Tournament.objects.filter(shows).values("pk")
    bumped = Tournament.objects.filter(pk__in=showing).update(revision=F("revision") + 1)
    if bumped:
        _announce(None)
    return bumped
