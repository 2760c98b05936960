"""The laptop's publishing position, item by item: the digest of each item the season server
acknowledged (``sent``) and this laptop's own digest of it at the revision last read
(``local``), one ``PublishedItem`` row per item.

A batch changes a few items of thousands, so a move writes only the rows that changed, and
the sender keeps the position it wrote in memory: the next batch reads no row at all. The
memory is checked against the publication's own columns before use: the server's digests
belong to its state digest (``sent_hash``: the same state is the same digests), this laptop's
to the revision they were read at (``local_revision``), so a merge, a fetch or a restore
written by anyone else is read afresh from the rows.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from publishing.models import Publication, PublishedItem


@dataclass(frozen=True)
class Position:
    """What the rows hold: ``sent``, the server's acknowledged digests (meaningful only
    with a ``sent_hash``: ``known_digests``), ``local``, this laptop's own digests (read at
    ``local_revision``; None: to be read again whole)."""

    sent_hash: str
    local_revision: int | None
    sent: dict[str, str]
    local: dict[str, str]


# A position's dicts are shared with the batch that made them: never changed in place.
_remembered: dict[int, Position] = {}
_lock = threading.Lock()


def position(*, publication: Publication) -> Position:
    """The publication's position as its columns say it is (one query where not in memory)."""
    with _lock:
        known = _remembered.get(publication.pk)
    if (
        known is not None
        and known.sent_hash == publication.sent_hash
        and known.local_revision == publication.local_revision
    ):
        return known
    sent: dict[str, str] = {}
    local: dict[str, str] = {}
    rows = PublishedItem.objects.filter(publication_id=publication.pk).values_list(
        "key", "sent", "local"
    )
    for key, sent_digest, local_digest in rows:
        if sent_digest:
            sent[key] = sent_digest
        if local_digest:
            local[key] = local_digest
    found = Position(
        sent_hash=publication.sent_hash,
        local_revision=publication.local_revision,
        sent=sent,
        local=local,
    )
    _remember(publication.pk, found)
    return found


def known_digests(*, publication: Publication) -> dict[str, str]:
    """The digests of the state the server acknowledged last ({} where none)."""
    return position(publication=publication).sent if publication.sent_hash else {}


@transaction.atomic
def move(
    *,
    publication: Publication,
    sent: dict[str, str] | None = None,
    local: dict[str, str] | None = None,
    only: Iterable[str] | None = None,
    **fields,
) -> None:
    """Write the publication's new position: ``sent`` the server's digests (with the new
    ``sent_hash`` in ``fields``), ``local`` this laptop's (with ``local_revision``), None:
    unchanged; ``fields`` the publication's other columns. Only the rows that differ are
    written; ``only``: the keys that may differ, where the caller knows (a batch of a few
    items among thousands), so that the rest are not compared. ``publication`` is updated
    in memory too."""
    before = position(publication=publication)
    new_sent = before.sent if sent is None else sent
    new_local = before.local if local is None else local
    if only is not None:
        changed = {
            key
            for key in only
            if before.sent.get(key) != new_sent.get(key)
            or before.local.get(key) != new_local.get(key)
        }
    else:
        changed = _keys_that_differ(before.sent, new_sent) | _keys_that_differ(
            before.local, new_local
        )
    rows = [
        PublishedItem(
            publication_id=publication.pk,
            key=key,
            sent=new_sent.get(key, ""),
            local=new_local.get(key, ""),
        )
        for key in changed
    ]
    gone = [row.key for row in rows if not row.sent and not row.local]
    kept = [row for row in rows if row.sent or row.local]
    if gone:
        PublishedItem.objects.filter(publication_id=publication.pk, key__in=gone).delete()
    if kept:
        PublishedItem.objects.bulk_create(
            kept,
            batch_size=500,
            update_conflicts=True,
            unique_fields=["publication", "key"],
            update_fields=["sent", "local"],
        )
    if fields:
        Publication.objects.filter(pk=publication.pk).update(**fields)
        for name, value in fields.items():
            setattr(publication, name, value)
    moved = Position(
        sent_hash=publication.sent_hash,
        local_revision=publication.local_revision,
        sent=new_sent,
        local=new_local,
    )
    # Remembered once the rows are committed; until then (and for good after a rollback)
    # nothing is, and the next read takes the rows.
    transaction.on_commit(lambda: _remember(publication.pk, moved))
    with _lock:
        _remembered.pop(publication.pk, None)


def forget() -> None:
    """Drop what is remembered (a restored data folder, the tests)."""
    with _lock:
        _remembered.clear()


def _remember(publication_id: int, found: Position) -> None:
    with _lock:
        _remembered[publication_id] = found


def _keys_that_differ(old: dict[str, str], new: dict[str, str]) -> set[str]:
    if old is new:
        return set()
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}
