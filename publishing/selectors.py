"""What the season server hands a laptop before the day: its registry (clubs and players with
their registry ids and memberships). A constant number of queries."""

from __future__ import annotations

from typing import Any

from clubs.models import Club, Membership, Player

REGISTRY_FORMAT = "cego-club/registry"


def registry() -> dict[str, Any]:
    memberships: dict[int, list[dict[str, Any]]] = {}
    for m in Membership.objects.select_related("club").order_by("pk"):
        memberships.setdefault(m.player_id, []).append(
            {"club": str(m.club.uuid), "member_number": m.member_number, "status": m.status}
        )
    return {
        "format": REGISTRY_FORMAT,
        "version": 1,
        "clubs": [
            {"uuid": str(c.uuid), "name": c.name, "short_name": c.short_name, "town": c.town}
            for c in Club.objects.order_by("pk")
        ],
        "players": [
            {
                "uuid": str(p.uuid),
                "first_name": p.first_name,
                "last_name": p.last_name,
                "birth_year": p.birth_year,
                "category": p.category,
                "memberships": memberships.get(p.pk, []),
            }
            for p in Player.objects.order_by("pk")
        ],
    }
