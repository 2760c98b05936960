"""On the laptop: where each publication stands, in words a volunteer at the desk reads, and
the items entered differently here and on the season server."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import Count
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from publishing.models import Publication, PublishConflict

# On the laptop: where each publication stands, in words a volunteer at the desk reads.


@dataclass(frozen=True)
class SyncState:
    """One publication's state: ``kind`` (``live``, ``pending``, ``offline``, ``refused``,
    ``waiting``) and its German line; what was taken back from the server, and the open
    conflicts waiting for the desk."""

    publication: Publication
    kind: str
    text: str
    taken_back: str = ""
    conflicts: int = 0


_KIND_WORDS = {
    "deal": gettext_lazy("deals"),
    "table": gettext_lazy("tables"),
    "round": gettext_lazy("rounds"),
    "entry": gettext_lazy("players"),
}


def _taken_back_words(publication: Publication) -> str:
    if publication.taken_back_at is None:
        return ""
    counts = (publication.taken_back or {}).get("items") or {}
    parts = [
        f"{count} {_KIND_WORDS.get(kind, gettext_lazy('other items'))}"
        for kind, count in sorted(counts.items(), key=lambda pair: pair[0] != "deal")
    ]
    conflicts = (publication.taken_back or {}).get("conflicts") or 0
    if conflicts:
        parts.append(gettext("%(count)s for the desk to choose") % {"count": conflicts})
    return gettext("taken back from the season server: %(what)s (%(when)s)") % {
        "what": ", ".join(parts) or gettext("nothing"),
        "when": formats.date_format(
            timezone.localtime(publication.taken_back_at), "SHORT_DATETIME_FORMAT"
        ),
    }


def sync_states(*, tournament_id: int | None = None) -> list[SyncState]:
    """Every publication's state (of one tournament, or all): two queries."""
    rows = Publication.objects.select_related("tournament").order_by("tournament_id", "url")
    if tournament_id is not None:
        rows = rows.filter(tournament_id=tournament_id)
    publications = list(rows)
    open_counts = dict(
        PublishConflict.objects.filter(publication__in=publications, settled_at__isnull=True)
        .values("publication")
        .annotate(n=Count("pk"))
        .values_list("publication", "n")
    )
    return [_state(p, open_counts.get(p.pk, 0)) for p in publications]


def _state(publication: Publication, conflicts: int) -> SyncState:
    revision = publication.tournament.revision
    behind = revision - (publication.sent_revision or 0)
    if publication.refused_revision is not None:
        kind, text = "refused", gettext("refused: %(error)s") % {"error": publication.last_error}
    elif publication.failures and publication.last_error:
        since = publication.last_contact_at or publication.sent_at
        kind = "offline"
        text = (
            gettext("no connection since %(time)s") % {"time": _clock(since)}
            if since
            else gettext("no connection yet")
        )
    elif publication.sent_hash and publication.sent_revision == revision:
        kind, text = "live", gettext("live")
    elif publication.sent_hash or publication.sent_at:
        kind = "pending"
        text = ngettext(
            "%(count)s change on its way", "%(count)s changes on their way", max(behind, 1)
        ) % {"count": max(behind, 1)}
    else:
        kind, text = "waiting", gettext("not sent yet")
    return SyncState(
        publication=publication,
        kind=kind,
        text=text,
        taken_back=_taken_back_words(publication),
        conflicts=conflicts,
    )


def _clock(moment) -> str:
    local = timezone.localtime(moment)
    if local.date() == timezone.localdate():
        return local.strftime("%H:%M")
    return formats.date_format(local, "SHORT_DATETIME_FORMAT")


def open_conflicts(*, tournament_id: int) -> list[dict[str, Any]]:
    """The open conflicts of a tournament's publications, each with both versions and the
    fields in which they differ (two queries and one read of the tournament's items)."""
    from tournaments.models import Tournament
    from tournaments.selectors.archive import tournament_items

    conflicts = list(
        PublishConflict.objects.filter(
            publication__tournament_id=tournament_id, settled_at__isnull=True
        )
        .select_related("publication")
        .order_by("key")
    )
    if not conflicts:
        return []
    items = tournament_items(tournament=Tournament.objects.get(pk=tournament_id))
    shown = []
    for conflict in conflicts:
        laptop = _flat(items.get(conflict.key) or {})
        server = _flat(conflict.server_item or {})
        fields = sorted(
            name
            for name in {*laptop, *server}
            if name != "history" and laptop.get(name) != server.get(name)
        )
        shown.append(
            {
                "conflict": conflict,
                "title": item_title(key=conflict.key),
                "rows": [
                    (_FIELD_WORDS.get(name, name), laptop.get(name), server.get(name))
                    for name in fields
                ],
            }
        )
    return shown


# The fields of an item as the desk knows them (others are shown by their name).
_FIELD_WORDS = {
    "record.contract": gettext_lazy("contract"),
    "record.declarer": gettext_lazy("declarer (seat)"),
    "record.declarer_points": gettext_lazy("declarer's card points"),
    "record.won": gettext_lazy("won"),
    "scores": gettext_lazy("points per seat"),
    "status": gettext_lazy("status"),
    "dealer": gettext_lazy("dealer (seat)"),
    "seats": gettext_lazy("seats (start numbers)"),
    "voided": gettext_lazy("voided"),
    "void_reason": gettext_lazy("reason"),
    "version": gettext_lazy("version"),
}


def item_title(*, key: str) -> str:
    """``deal:r1-t2-d3`` → "Runde 1, Tisch 2, Spiel 3" (the key itself where unknown)."""
    kind, _sep, tail = key.partition(":")
    numbers = [int(part) for part in re.findall(r"\d+", tail)]
    if kind == "deal" and len(numbers) == 3:
        return gettext("round %(round)s, table %(table)s, deal %(deal)s") % dict(
            zip(("round", "table", "deal"), numbers, strict=True)
        )
    if kind == "table" and len(numbers) == 2:
        return gettext("round %(round)s, table %(table)s") % dict(
            zip(("round", "table"), numbers, strict=True)
        )
    if kind == "round" and len(numbers) == 1:
        return gettext("round %(round)s") % {"round": numbers[0]}
    if kind == "entry" and len(numbers) == 1:
        return gettext("start number %(number)s") % {"number": numbers[0]}
    return key


def _flat(item: dict[str, Any]) -> dict[str, Any]:
    """An item's fields, a nested record's as ``record.declarer_points``: what differs is
    shown field by field."""
    flat: dict[str, Any] = {}
    for name, value in item.items():
        if isinstance(value, dict):
            flat.update({f"{name}.{inner}": part for inner, part in value.items()})
        else:
            flat[name] = value
    return flat
