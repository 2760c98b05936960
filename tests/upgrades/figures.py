"""Run in a process of its own on an upgraded database (``python -m tests.upgrades.figures``,
the database named by the environment as for ``manage.py``): are the figures derived from the
data current, as this version's code works them out from scratch? Prints one JSON object:
for each kind of figure how many are stored and what differs (an empty list: current).

- ``ratings``: every player's rating, every rating change, every rated tournament and the
  method they were stored by, against all of them deleted and replayed from the first
  season (``ratings.services.bring_up_to_date(full=True)``);
- ``season_results``: every finished tournament's stored results (places, totals, counts)
  and the revision and method they were stored at, against all of them worked out anew;
- ``archive_items``: every stored archive item's digest against the digest of its content,
  and each tournament's archive hash against the state digest of its items;
- ``publications``: every publication the server acknowledged holds nothing more to send (the
  laptop's items, digested now, are what the server acknowledged).

The fresh figures are worked out inside a transaction that is rolled back: the database is
left as it was.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")

import django  # noqa: E402

django.setup()

from django.db import transaction  # noqa: E402

from publishing.laptop.outbox import next_batch  # noqa: E402
from publishing.models import Publication  # noqa: E402
from ratings.models import PlayerRating, RatedTournament, RatingChange, RatingLock  # noqa: E402
from ratings.services import bring_up_to_date  # noqa: E402
from seasons.models import TournamentResult, TournamentResultSet  # noqa: E402
from seasons.selectors.results import fresh_results  # noqa: E402
from tournaments.archive_format import item_digest, state_digest  # noqa: E402
from tournaments.models import ArchiveItem, Tournament  # noqa: E402

# Stamps of when a figure was worked out, not the figure.
NOT_FIGURES = {"id", "rated_at", "at", "worked_out_at", "stored_at"}


def _rows(model, *key: str) -> dict[str, dict[str, Any]]:
    rows = {}
    for row in model.objects.values():
        figures = {
            name: round(value, 9) if isinstance(value, float) else value
            for name, value in row.items()
            if name not in NOT_FIGURES
        }
        rows[json.dumps([row[name] for name in key], default=str)] = figures
    return rows


def derived() -> dict[str, dict[str, dict[str, Any]]]:
    return {
        "ratings": {
            **{f"rating {k}": v for k, v in _rows(PlayerRating, "player_id").items()},
            **{
                f"change {k}": v
                for k, v in _rows(RatingChange, "player_id", "tournament_id").items()
            },
            **{f"rated {k}": v for k, v in _rows(RatedTournament, "tournament_id").items()},
            **{f"method {k}": v for k, v in _rows(RatingLock, "id").items()},
        },
        "season_results": {
            **{f"set {k}": v for k, v in _rows(TournamentResultSet, "tournament_id").items()},
            **{f"result {k}": v for k, v in _rows(TournamentResult, "entry_id").items()},
        },
    }


class _RollBack(Exception):
    pass


def from_scratch() -> dict[str, dict[str, dict[str, Any]]]:
    """The derived figures as this version works them out from nothing (rolled back)."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    try:
        with transaction.atomic():
            for model in (RatingChange, PlayerRating, RatedTournament, RatingLock):
                model.objects.all().delete()
            TournamentResult.objects.all().delete()
            TournamentResultSet.objects.all().delete()
            bring_up_to_date(reason="tests.upgrades.figures", full=True)
            fresh_results(tournaments=Tournament.objects.filter(finished_at__isnull=False))
            found = derived()
            raise _RollBack
    except _RollBack:
        pass
    return found


def differences(stored: dict[str, Any], fresh: dict[str, Any]) -> list[str]:
    lines = []
    for key in sorted(stored.keys() | fresh.keys()):
        if stored.get(key) != fresh.get(key):
            lines.append(f"{key}: stored {stored.get(key)}, fresh {fresh.get(key)}")
    return lines


def archive_items() -> dict[str, Any]:
    problems = []
    digests: dict[int, dict[str, str]] = {}
    count = 0
    for item in ArchiveItem.objects.order_by("tournament_id", "key").iterator():
        count += 1
        digests.setdefault(item.tournament_id, {})[item.key] = item.digest
        if item.data is not None and item.digest != item_digest(item.data):
            problems.append(
                f"tournament {item.tournament_id} {item.key}: digest of another content"
            )
    for tournament in Tournament.objects.filter(pk__in=digests).exclude(archive_hash=""):
        if tournament.archive_hash != state_digest(digests[tournament.pk]):
            problems.append(f"tournament {tournament.pk}: archive hash of other items")
    return {"stored": count, "differences": problems}


def publications() -> dict[str, Any]:
    problems = []
    acknowledged = Publication.objects.exclude(sent_hash="")
    for publication in acknowledged:
        batch = next_batch(publication=publication, full=True)
        if batch.body is not None:
            upserts, deletes = batch.counts
            problems.append(
                f"publication {publication.pk}: {upserts} items to send again, {deletes} to delete"
            )
    return {"stored": acknowledged.count(), "differences": problems}


def main() -> int:
    stored = derived()
    fresh = from_scratch()
    report: dict[str, Any] = {
        kind: {"stored": len(stored[kind]), "differences": differences(stored[kind], fresh[kind])}
        for kind in stored
    }
    report["archive_items"] = archive_items()
    report["publications"] = publications()
    print(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
