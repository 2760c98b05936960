"""A simultaneous day's ranking as a JSON document: the read API's
(``/api/v1/simultaneous-days/<id>/``) and what a hall's laptop fetches for its projector
(``/simultan/turniere/<archive id>/gesamt.json``, without the halls' own rows). Built from
``simultaneous.selectors.DayRanking``; no query."""

from __future__ import annotations

from typing import Any

from simultaneous.models import SimultaneousDay
from simultaneous.selectors import DayRanking, SectionRanking


def day_summary(day: SimultaneousDay) -> dict[str, Any]:
    return {
        "id": day.pk,
        "name": day.name,
        "date": day.date.isoformat(),
        "season": day.season_id,
        "rules": day.rules_slug,
        "rounds": day.rounds,
        "deals_per_round": day.deals_per_round,
    }


def _hall(section: SectionRanking, *, with_rows: bool) -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": section.section_id,
        "tournament": section.tournament_id,
        "archive_id": section.archive_id,
        "name": section.name,
        "hall": section.hall,
        "host": section.host,
        "rounds_drawn": section.rounds_drawn,
        "finished": section.finished,
        "ranked": section.ranked,
        "misfit": list(section.misfit),
        "places_hidden": section.hidden,
        "players": sum(1 for row in section.rows if not row.fill_in),
    }
    if with_rows:
        found["standings"] = [
            {
                "rank": row.rank,
                "tied": row.tied,
                "name": row.name,
                "club": row.club,
                "total": row.total,
                "deals_played": row.deals_played,
                "fill_in": row.fill_in,
            }
            for row in section.rows
        ]
    return found


def day_document(
    day: SimultaneousDay, result: DayRanking, *, with_hall_rows: bool = True
) -> dict[str, Any]:
    return {
        **day_summary(day),
        "built_at": result.built_at.isoformat(),
        "halls": [_hall(section, with_rows=with_hall_rows) for section in result.sections],
        "overall": [
            {
                "rank": item.rank,
                "tied": item.tied,
                "name": item.row.name,
                "club": item.row.club,
                "hall": item.row.section,
                "hall_name": result.hall_names.get(item.row.section, ""),
                "total": item.row.total,
                "deals_played": item.row.deals_played,
            }
            for item in result.overall
        ],
    }
