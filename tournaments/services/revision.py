"""The tournament's revision: the number public pages and printouts are cached under.

Every service that changes something a public page or a printout shows calls
:func:`bump_revision` inside its own transaction, so the new number becomes visible together
with the change (and not at all if the transaction rolls back). Cached output is keyed on the
revision it was built from (``tournaments.caching``): nothing is invalidated by hand and a
reader never gets output older than the data it would read itself.
"""

from __future__ import annotations

import functools

from django.db import connection, transaction
from django.db.models import F, Q

from tournaments.caching import revisions_moved
from tournaments.models import Tournament
from tournaments.signals import revision_committed


def _announce(tournament_id: int | None) -> None:
    revisions_moved()  # the venue's front reads the revision again
    # After the commit: a listener (the publishing sender) must see the change when it reads.
    transaction.on_commit(
        lambda: revision_committed.send(sender=Tournament, tournament_id=tournament_id)
    )


def bump_revision(*, tournament_id: int) -> None:
    """Count one more change of the tournament (an F() update: concurrent bumps all count).

    Called last in a service, so that on PostgreSQL the tournament row stays locked for as
    short a time as possible (deal entries at different tables only meet here)."""
    with connection.cursor() as cursor:
        cursor.execute(_bump_sql(), [tournament_id])
    _announce(tournament_id)


@functools.cache
def _bump_sql() -> str:
    # ``Tournament.objects.filter(pk=…).update(revision=F("revision") + 1)`` written out once:
    # every deal bumps, and building the ORM's update cost more than running it.
    q = connection.ops.quote_name
    meta = Tournament._meta
    revision = q(str(meta.get_field("revision").column))
    return (
        f"UPDATE {q(meta.db_table)} SET {revision} = {revision} + 1 "  # noqa: S608
        f"WHERE {q(str(meta.get_field('id').column))} = %s"
    )


def bump_revisions_showing(*, player_id: int | None = None, club_id: int | None = None) -> int:
    """Bump every tournament that shows this player (an entry) or this club (host club, a
    team's club, or the club of a player entered): one UPDATE, for a rename in the registry
    or the club list, inside the caller's transaction. Returns the number bumped."""
    shows = Q(pk__in=[])
    if player_id is not None:
        shows |= Q(entries__player_id=player_id)
    if club_id is not None:
        shows |= (
            Q(host_club_id=club_id)
            | Q(teams__club_id=club_id)
            | Q(entries__player__memberships__club_id=club_id)
        )
    showing = Tournament.objects.filter(shows).values("pk")
    bumped = Tournament.objects.filter(pk__in=showing).update(revision=F("revision") + 1)
    if bumped:
        _announce(None)
    return bumped
