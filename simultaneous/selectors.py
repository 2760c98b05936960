"""The live rankings of a simultaneous Cego day, in a constant number of queries whatever
the number of halls and players.

``day_ranking`` reads the day's halls with their tournaments (one query), and, when any
tournament's revision moved since the last build (the cache key names every revision), the
standings of all halls at once: the same queries as ``tournaments.selectors.standings``'
``tournament_standings``, each for every hall's tournament (``tournament_id__in``), added up
and ranked by the same functions (``tallies_from_groups``, ``add_paper_totals``,
``ranked_rows``), so a section's ranking is exactly its tournament's standings. Places the
hall hides until its prize ceremony (``tournaments.selectors.visibility``) are left out of
its section and of the overall ranking; the overall ranking is ``simultaneous.ranking``.

A hall whose tournament no longer fits the day (its laptop changed the rule source, rounds
or deals after it joined) keeps its section but is not ranked overall; ``misfit`` names the
fields.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from ceremony.models import CeremonySettings
from clubs.search import name_sort_key
from simultaneous import ranking
from simultaneous.models import Section, SimultaneousDay
from tournaments.models import Deal, Entry, LotDraw, Round, Seat, Substitution, Tournament
from tournaments.selectors.standings import (
    ENTRY_FIELDS,
    StandingRow,
    _club_per_player,
    _shown_clubs,
    grouped_deals,
    ranked_from_reads,
)
from tournaments.selectors.visibility import Hiding

CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class SectionRanking:
    section_id: int
    tournament_id: int
    archive_id: str
    name: str  # the tournament's
    hall: str  # the venue, else the host club's town
    host: str  # the host club's name
    rounds_drawn: int
    finished: bool
    rows: tuple[StandingRow, ...]  # as the public sees them
    hidden: bool  # places hidden until the hall's prize ceremony
    misfit: tuple[str, ...] = ()  # fields that no longer fit the day: not ranked overall

    @property
    def ranked(self) -> bool:
        return not self.misfit


@dataclass(frozen=True)
class DayRanking:
    day_id: int
    sections: tuple[SectionRanking, ...]
    overall: tuple[ranking.OverallRow, ...]
    built_at: dt.datetime
    stamp: str  # names the revisions it was built from (an ETag)
    hall_names: dict[int, str] = field(default_factory=dict)  # section id -> hall

    def section(self, section_id: int) -> SectionRanking | None:
        return next((s for s in self.sections if s.section_id == section_id), None)


def day_sections(*, day: SimultaneousDay) -> list[Section]:
    """The day's halls with their tournaments and host clubs (one query)."""
    return list(
        Section.objects.filter(day_id=day.pk)
        .select_related("tournament", "tournament__host_club")
        .order_by("tournament__host_club__name", "pk")
    )


def ranking_stamp(day: SimultaneousDay, *, sections: list[Section]) -> str:
    parts = [f"{day.pk}:{day.revision}"] + [
        f"{s.pk}:{s.tournament_id}:{s.tournament.revision}" for s in sections
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:24]


def day_ranking(*, day: SimultaneousDay) -> DayRanking:
    """The day's overall ranking and each hall's: one query when no hall changed since the
    last build (from the cache), ten when one did, whatever the number of halls."""
    sections = day_sections(day=day)
    stamp = ranking_stamp(day, sections=sections)
    key = f"simultaneous:ranking:{stamp}"
    found = cache.get(key)
    if found is None:
        found = build_ranking(day=day, sections=sections, stamp=stamp)
        cache.set(key, found, CACHE_SECONDS)
    return found


def _hall(tournament: Tournament) -> str:
    return tournament.venue or tournament.host_club.town or tournament.host_club.name


def build_ranking(*, day: SimultaneousDay, sections: list[Section], stamp: str) -> DayRanking:
    """Nine queries for every hall at once (``day_ranking`` adds the halls' one)."""
    ids = [s.tournament_id for s in sections]
    by_tournament: dict[str, dict[Any, list[Any]]] = defaultdict(lambda: defaultdict(list))
    if ids:
        queries: dict[str, Any] = {
            "entries": Entry.objects.filter(tournament_id__in=ids).values(
                "tournament_id", *ENTRY_FIELDS
            ),
            "rounds": Round.objects.filter(tournament_id__in=ids).values(
                "tournament_id", "number", "state", "awaiting_release"
            ),
            "seats": Seat.objects.filter(round__tournament_id__in=ids).values(
                "id",
                "table_id",
                "position",
                "entry_id",
                "round__number",
                "round__tournament_id",
                "table__number",
                "table__voided",
            ),
            "substitutions": Substitution.objects.filter(seat__round__tournament_id__in=ids).values(
                "seat_id", "entry_id", "from_deal", "seat__round__tournament_id"
            ),
            "lots": LotDraw.objects.filter(tournament_id__in=ids, purpose="tie_break")
            .order_by("performed_at", "pk")
            .values("tournament_id", "order"),
            "hiding": CeremonySettings.objects.filter(
                tournament_id__in=ids, hide_from_round__isnull=False, revealed_at__isnull=True
            ).values("tournament_id", "hide_from_round", "hide_top_n"),
        }
        for name, query in queries.items():
            for row in query:
                tid = (
                    row.get("tournament_id")
                    or row.get("round__tournament_id")
                    or row.get("seat__round__tournament_id")
                )
                by_tournament[name][tid].append(row)
        clubs = _club_per_player(_shown_clubs(entries__tournament_id__in=ids))
        substituted_seats = {
            sub["seat_id"] for subs in by_tournament["substitutions"].values() for sub in subs
        }
        table_tournament: dict[int, int] = {}
        substituted_tables: set[int] = set()
        for tid, held in by_tournament["seats"].items():
            for seat in held:
                table_tournament[seat["table_id"]] = tid
                if seat["id"] in substituted_seats:
                    substituted_tables.add(seat["table_id"])
        groups: Any = grouped_deals(
            Deal.objects.filter(table__round__tournament_id__in=ids),
            substituted_tables=sorted(substituted_tables),
        )
        for group in groups:
            by_tournament["groups"][table_tournament.get(group["table_id"])].append(group)
    else:
        clubs = {}

    fit = ranking.Fit(
        rules_slug=day.rules_slug, rounds=day.rounds, deals_per_round=day.deals_per_round
    )
    results: list[SectionRanking] = []
    hall_rows: list[ranking.HallRow] = []
    for section in sections:
        tournament = section.tournament
        tid = tournament.pk
        seats = by_tournament["seats"][tid]
        substitutions = by_tournament["substitutions"][tid]
        entries = by_tournament["entries"][tid]
        rounds = by_tournament["rounds"][tid]
        _round_numbers, rows = ranked_from_reads(
            tournament=tournament,
            entries=entries,
            clubs=clubs,
            rounds=rounds,
            seats=seats,
            substitutions=substitutions,
            groups=by_tournament["groups"][tid],
            lot_orders=[lot["order"] for lot in by_tournament["lots"][tid]],
        )
        hiding = _hiding(by_tournament["hiding"][tid], rounds)
        if hiding is not None:
            rows = [row for row in rows if not hiding.hides(row)]
        misfit = tuple(
            ranking.misfits(
                fit,
                ranking.Fit(
                    rules_slug=tournament.rules_slug,
                    rounds=tournament.rounds,
                    deals_per_round=tournament.deals_per_round,
                ),
            )
        )
        if tournament.date != day.date:
            misfit += ("date",)
        results.append(
            SectionRanking(
                section_id=section.pk,
                tournament_id=tid,
                archive_id=str(tournament.archive_id),
                name=tournament.name,
                hall=_hall(tournament),
                host=tournament.host_club.name,
                rounds_drawn=max(
                    (r["number"] for r in rounds if not r["awaiting_release"]), default=0
                ),
                finished=tournament.finished_at is not None,
                rows=tuple(rows),
                hidden=hiding is not None,
                misfit=misfit,
            )
        )
        if misfit:
            continue
        hall_rows.extend(
            ranking.HallRow(
                section=section.pk,
                entry=row.entry_id,
                name=row.name,
                club=row.club,
                total=row.total,
                deals_played=row.deals_played,
                sort_name=name_sort_key(row.first_name, row.last_name),
            )
            for row in rows
            if not row.fill_in
        )
    return DayRanking(
        day_id=day.pk,
        sections=tuple(results),
        overall=tuple(ranking.overall(hall_rows)),
        built_at=timezone.now(),
        stamp=stamp,
        hall_names={s.section_id: s.hall for s in results},
    )


def _hiding(settings: list, rounds: list) -> Hiding | None:
    """``tournaments.selectors.visibility.hiding`` from rows already read."""
    if not settings:
        return None
    found = settings[0]
    from_round = found["hide_from_round"] or 1
    if from_round > 1 and not any(r["number"] >= from_round for r in rounds):
        return None
    return Hiding(top=found["hide_top_n"], from_round=from_round)


def day_for_tournament(*, archive_id) -> SimultaneousDay | None:
    """The day a tournament (by archive id) takes part in, or None (one query)."""
    section = (
        Section.objects.filter(tournament__archive_id=archive_id).select_related("day").first()
    )
    return None if section is None else section.day


def days(*, since: dt.date | None = None) -> list[SimultaneousDay]:
    """The days, newest first (one query)."""
    found = SimultaneousDay.objects.all()
    if since is not None:
        found = found.filter(date__gte=since)
    return list(found.order_by("-date", "name"))
