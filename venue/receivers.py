"""What the venue area does when Django tells it something: once ``migrate`` has brought the
database up to date (or ``flush`` emptied it), the record of the program version that wrote
it (``venue.versions.record``): a flushed database, too, says which version made it."""

from __future__ import annotations

from django.db import connections

from venue.versions import record


def record_version(sender, using: str = "default", **kwargs) -> None:
    record(connections[using])
