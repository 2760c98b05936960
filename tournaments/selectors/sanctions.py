"""Who is banned when: the terms of the register of sanctions (``clubs.models.Sanction``),
never their reasons. Here rather than in the registry's area because a ban "for N
tournaments" is counted in championship tournaments: those of the seasons on this server
dated from the ban's first day on (planned ones included, so its last day is known as soon
as the calendar holds the N-th), whichever the player plays or misses. Two queries.

On a venue laptop the rows are the season server's copies (``Sanction.from_registry``): the
last day the server knew is taken as it came (none yet: in force from its start), as the
laptop holds only its own tournaments and cannot count the season's.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from clubs.models import Membership, Player, Sanction
from tournaments.models import Tournament


@dataclass(frozen=True)
class SanctionTerms:
    """What anyone who must act on a sanction may know of it: no reason, no decider."""

    pk: int
    player_id: int
    starts_on: dt.date
    last_day: dt.date | None  # None: N tournaments, not all of them in the calendar yet
    tournaments: int | None  # "for N tournaments" (None: until a date)

    def in_force(self, on: dt.date) -> bool:
        return self.starts_on <= on and (self.last_day is None or on <= self.last_day)

    def words(self) -> str:
        """ "from 01.12.2026 until 14.02.2027", "from 01.12.2026 for 3 tournaments (until
        14.02.2027)"."""
        start = date_format(self.starts_on, "SHORT_DATE_FORMAT")
        if self.tournaments is None and self.last_day is not None:
            return gettext("from %(start)s until %(end)s") % {
                "start": start,
                "end": date_format(self.last_day, "SHORT_DATE_FORMAT"),
            }
        text = ngettext(
            "from %(start)s for %(count)s tournament",
            "from %(start)s for %(count)s tournaments",
            self.tournaments or 0,
        ) % {"start": start, "count": self.tournaments}
        if self.last_day is not None:
            text += " " + gettext("(until %(end)s)") % {
                "end": date_format(self.last_day, "SHORT_DATE_FORMAT")
            }
        return text


def championship_dates(*, since: dt.date) -> list[dt.date]:
    """The dates of the championship tournaments (of a season) from ``since`` on, in order,
    one per tournament."""
    return list(
        Tournament.objects.filter(season__isnull=False, date__gte=since)
        .order_by("date")
        .values_list("date", flat=True)
    )


def _last_day(row: dict, dates: list[dt.date]) -> dt.date | None:
    if row["from_registry"] or row["tournaments"] is None:
        return row["ends_on"]
    first = bisect_left(dates, row["starts_on"])
    nth = first + row["tournaments"] - 1
    return dates[nth] if nth < len(dates) else None


def terms_of(rows: Iterable[dict]) -> list[SanctionTerms]:
    rows = list(rows)
    counted = [r["starts_on"] for r in rows if r["tournaments"] and not r["from_registry"]]
    dates = championship_dates(since=min(counted)) if counted else []
    return [
        SanctionTerms(
            pk=row["pk"],
            player_id=row["player_id"],
            starts_on=row["starts_on"],
            last_day=_last_day(row, dates),
            tournaments=row["tournaments"],
        )
        for row in rows
    ]


FIELDS = ("pk", "player_id", "starts_on", "ends_on", "tournaments", "from_registry")


def _live(player_ids: Iterable[int] | None = None):
    rows = Sanction.objects.filter(lifted_at__isnull=True)
    if player_ids is not None:
        rows = rows.filter(player_id__in=list(player_ids))
    return rows.order_by("starts_on", "pk").values(*FIELDS)


def in_force(*, player_ids: Iterable[int], on: dt.date) -> dict[int, SanctionTerms]:
    """Of ``player_ids``, those banned on ``on`` (a tournament's date), with the terms of
    their ban (the one that lasts longest where there are several)."""
    found: dict[int, SanctionTerms] = {}
    for terms in terms_of(_live(player_ids)):
        if not terms.in_force(on):
            continue
        held = found.get(terms.player_id)
        if held is None or (
            held.last_day is not None and (terms.last_day is None or terms.last_day > held.last_day)
        ):
            found[terms.player_id] = terms
    return found


def still_to_come(*, today: dt.date) -> list[SanctionTerms]:
    """Every sanction not lifted that has not run out by ``today`` (those a venue laptop is
    given with the registry)."""
    return [t for t in terms_of(_live()) if t.last_day is None or t.last_day >= today]


def banned_signing_up(*, name_key: str, club_id: int | None, on: dt.date) -> bool:
    """Is the person of an online sign-up banned on ``on``? The sign-up's player as its
    confirmation would find it (``signups.services.signups._player_for``: of that name in
    that club, or of that name and no club, if exactly one) decides; where that finds nobody
    or several, any banned player of that name in the named club, or of that name at all
    when the sign-up names no club of this registry (it cannot be told from them)."""
    same = Player.objects.filter(search_key=name_key)
    if club_id is not None:
        candidates = list(
            same.filter(memberships__club_id=club_id).distinct().values_list("pk", flat=True)[:2]
        )
    else:
        members = Membership.objects.values("player_id")
        candidates = list(same.exclude(pk__in=members).values_list("pk", flat=True)[:2])
    if len(candidates) == 1:
        return bool(in_force(player_ids=candidates, on=on))
    named = same.filter(memberships__club_id=club_id) if club_id is not None else same
    return bool(in_force(player_ids=named.values_list("pk", flat=True), on=on))
