"""A tournament archive of any size as plain data (no database): for the item tests and
``bench/bench_archive_items.py``. Every deal is a Cego under swm, won with 45 card points
(+30 / -10 each) or lost with 34 (-30 / +10 each), so the engine agrees with every score."""

from __future__ import annotations

import random
import uuid
from typing import Any

from rules.builtin_sources import builtin_data

WON = [30, -10, -10, -10]
LOST = [-30, 10, 10, 10]


def deal_data(round_number: int, table: int, number: int, *, won: bool = True) -> dict[str, Any]:
    points = 45 if won else 34
    return {
        "number": number,
        "kind": "deal",
        "status": "confirmed",
        "dealer": (number - 1) % 4,
        "entered_via": "desk",
        "entered_by": None,
        "version": 1,
        "as_written": False,
        "record": {
            "id": f"r{round_number}-t{table}-d{number}",
            "rules": "swm",
            "seats": 4,
            "contract": "cego",
            "declarer": number % 4,
            "declarer_points": points,
        },
        "scores": _rotated(WON if won else LOST, number % 4),
        "history": [
            {
                "action": "created",
                "changed_at": f"2026-11-14T1{round_number}:{number:02d}:00+00:00",
                "changed_by": "",
                "actor": f"Tisch {table}",
                "reason": "",
                "before": None,
                "after": {"contract": "cego", "declarer_points": points},
            }
        ],
    }


def _rotated(scores: list[int], declarer: int) -> list[int]:
    """The declarer's score at the declarer's seat."""
    out = [scores[1]] * 4
    out[declarer] = scores[0]
    return out


def big_archive(
    *, tables: int = 28, rounds: int = 3, deals: int = 24, seed: int = 1
) -> dict[str, Any]:
    """``rounds`` rounds of ``tables`` tables of four, ``deals`` deals each."""
    players = tables * 4
    rng = random.Random(seed)
    club = {
        "uuid": str(uuid.UUID(int=seed)),
        "name": "Cegofreunde Testhausen",
        "short_name": "CF Test",
        "town": "Testhausen",
    }
    archive: dict[str, Any] = {
        "format": "cego-club/tournament-archive",
        "version": 1,
        "archive_id": str(uuid.UUID(int=10_000 + seed)),
        "revision": 100,
        "exported_at": "2026-11-14T20:00:00+00:00",
        "tournament": {
            "name": f"Großes Turnier {seed}",
            "venue": "Festhalle",
            "rules_slug": "swm",
            "rounds": rounds,
            "deals_per_round": deals,
            "preferred_table_size": 4,
            "tables_of_3": False,
            "tables_of_4": True,
            "tables_of_5": False,
            "five_table_agreement": False,
            "entry_mode": "deals",
            "tie_break": "best_round",
            "entry_fee_cents": 800,
            "keep_teams_apart": False,
            "last_round_raeuber": False,
            "youth_entry_free": True,
            "prize_shares_cents": [],
            "date": "2026-11-14",
            "host_club": "CF Test",
            "season": None,
            "rules_snapshot": builtin_data("swm"),
            "finished_at": "2026-11-14T21:00:00+00:00",
        },
        "clubs": [club],
        "players": [
            {
                "key": f"p{n}",
                "uuid": str(uuid.UUID(int=seed * 1_000_000 + n)),
                "first_name": f"Vorname{n}",
                "last_name": f"Testspieler{seed}x{n}",
                "birth_year": 1950 + n % 50,
                "category": "open",
                "club": "CF Test",
                "member_number": f"T{n}",
            }
            for n in range(1, players + 1)
        ],
        "entries": [
            {
                "number": n,
                "player": f"p{n}",
                "category": "open",
                "fee_paid": True,
                "checked_in": True,
                "withdrawn_after_round": None,
                "paper_total": None,
                "fill_in": False,
                "team": None,
            }
            for n in range(1, players + 1)
        ],
        "teams": [],
        "keep_apart": [],
        "rounds": [],
        "round_history": [],
        "lot_draws": [],
    }
    for r in range(1, rounds + 1):
        numbers = list(range(1, players + 1))
        rng.shuffle(numbers)
        archive["rounds"].append(
            {
                "number": r,
                "state": "closed",
                "draw_seed": r,
                "time_limit_minutes": None,
                "tables": [
                    {
                        "number": t,
                        "voided": False,
                        "void_reason": "",
                        "seats": numbers[(t - 1) * 4 : t * 4],
                        "substitutions": [],
                        "deals": [
                            deal_data(r, t, d, won=(d + t) % 3 != 0) for d in range(1, deals + 1)
                        ],
                    }
                    for t in range(1, tables + 1)
                ],
            }
        )
        archive["round_history"].append(
            {
                "round": r,
                "table": None,
                "action": "closed",
                "reason": "",
                "changed_at": f"2026-11-14T1{r}:59:00+00:00",
                "changed_by": "orga",
            }
        )
    return archive
