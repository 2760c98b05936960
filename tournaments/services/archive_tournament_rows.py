"""The tournament item's rows (part of the write: ``archive_rows``): the tournament row itself,
the places hidden until the prize ceremony, the final rulings and approved seat swaps; and
``Here``, the rows of the tournament the writer has looked up."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from ceremony.models import CeremonySettings
from clubs.models import Club
from seasons.models import Season, SeriesMembership
from tournaments.archive_format import ArchiveError
from tournaments.models import Entry, Round, Ruling, SeatSwap, Table, Tournament
from tournaments.selectors.archive import (
    TOURNAMENT_SETTINGS,
    ceremony_record,
    fairness_records,
    series_record,
)
from tournaments.services.archive_plan import ArchivePlan


def archive_time(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if isinstance(value, str) else None


@dataclass
class Here:
    """The rows of the tournament the writer has looked up, each kind once."""

    tournament: Tournament
    _entries: dict[int, Entry] | None = None
    _rounds: dict[int, Round] | None = None

    def entries(self) -> dict[int, Entry]:
        if self._entries is None:
            self._entries = {
                e.number: e for e in Entry.objects.filter(tournament=self.tournament).order_by()
            }
        return self._entries

    def entry(self, number: Any) -> Entry:
        return self.entries()[number]

    def rounds(self) -> dict[int, Round]:
        if self._rounds is None:
            self._rounds = {
                r.number: r for r in Round.objects.filter(tournament=self.tournament).order_by()
            }
        return self._rounds

    def tables(self, pairs: Iterable[tuple[int, ...]]) -> dict[tuple[int, ...], Table]:
        pairs = set(pairs)
        if not pairs:
            return {}
        rows = Table.objects.filter(
            round__tournament=self.tournament,
            round__number__in={r for r, _t in pairs},
            number__in={t for _r, t in pairs},
        ).select_related("round")
        return {(t.round.number, t.number): t for t in rows if (t.round.number, t.number) in pairs}


def _tournament_fields(
    plan: ArchivePlan, clubs: dict[str, Club | None], season: Season | None
) -> dict[str, Any]:
    settings = plan.settings
    host = clubs.get(settings["host_club"])
    if host is None:
        raise ArchiveError(_("The archive's host club must be a club here."))
    if season is None and settings.get("season"):
        season_data = settings["season"]
        season, _created = Season.objects.get_or_create(
            name=season_data["name"],
            defaults={"starts_on": season_data["starts_on"], "ends_on": season_data["ends_on"]},
        )
    date = dt.date.fromisoformat(settings["date"])
    same_day = Tournament.objects.filter(host_club=host, date=date, name=settings["name"])
    if plan.existing is not None:
        same_day = same_day.exclude(pk=plan.existing.pk)
    if same_day.exists():
        raise ArchiveError(
            _(
                "%(host)s already has a tournament named %(name)s on %(date)s that did not "
                "come from this archive; rename one of them first."
            )
            % {"host": host, "name": settings["name"], "date": date.strftime("%d.%m.%Y")}
        )
    return {
        **{key: settings[key] for key in TOURNAMENT_SETTINGS if key in settings},
        "date": date,
        "host_club": host,
        "season": season,
        "rules_snapshot": settings["rules_snapshot"],
        "finished_at": archive_time(settings.get("finished_at")),
    }


def write_tournament(
    *, plan: ArchivePlan, upserts: Mapping[str, Mapping[str, Any]], clubs, season
) -> Tournament:
    """The new tournament, or the copy with its settings as the tournament item says (saved
    without a revision bump: the apply bumps once, at its end)."""
    if plan.existing is None:
        fields = _tournament_fields(plan, clubs, season)
        tournament = Tournament(**fields, archive_id=plan.archive_id)
        tournament.full_clean(exclude=["rules_snapshot"], validate_unique=False)
        tournament.save()
        return tournament
    tournament = plan.existing
    if "tournament" in upserts:
        fields = _tournament_fields(plan, clubs, season or tournament.season)
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.full_clean(exclude=["rules_snapshot"], validate_unique=False)
        Tournament.objects.filter(pk=tournament.pk).update(**fields)
    return tournament


def write_ceremony(*, here: Here, settings: Mapping[str, Any]) -> None:
    """The places hidden until the prize ceremony as the tournament item says: a copy hides
    what the hall hides, and shows them once the hall revealed them (the revision bumped
    below makes every cached public page of the copy new)."""
    wanted = settings.get("ceremony") or {}
    tournament = here.tournament
    if ceremony_record(tournament).get("ceremony", {}) == wanted:
        return
    CeremonySettings.objects.update_or_create(
        tournament=tournament,
        defaults={
            "hide_from_round": wanted.get("hide_from_round"),
            "hide_top_n": wanted.get("hide_top_n"),
            "revealed_at": archive_time(wanted.get("revealed_at")),
            "revealed_by": None,
            "shown_steps": 0,
        },
    )


def write_series(*, here: Here, settings: Mapping[str, Any]) -> None:
    """The other series the tournament also counts for as the tournament item says (issue
    41), each season found by name here (created with the item's dates where missing, as
    the home season is); ``[]``: none any more. An item without the key (an older archive,
    or one of a tournament never in a series) leaves them as they are; the home season is
    never listed again."""
    wanted = settings.get("series")
    if wanted is None:
        return
    tournament = here.tournament
    if not tournament.series_chosen:  # from now on its archive names them, as the sender's
        Tournament.objects.filter(pk=tournament.pk).update(series_chosen=True)
        tournament.series_chosen = True
    if series_record(tournament).get("series") == wanted:
        return
    seasons = []
    for named in wanted:
        season, _created = Season.objects.get_or_create(
            name=named["name"],
            defaults={"starts_on": named["starts_on"], "ends_on": named["ends_on"]},
        )
        if season.pk != tournament.season_id:
            seasons.append(season)
    SeriesMembership.objects.filter(tournament=tournament).exclude(season__in=seasons).delete()
    have = set(
        SeriesMembership.objects.filter(tournament=tournament).values_list("season_id", flat=True)
    )
    SeriesMembership.objects.bulk_create(
        SeriesMembership(tournament=tournament, season=season)
        for season in seasons
        if season.pk not in have
    )


def write_fairness(*, here: Here, settings: Mapping[str, Any]) -> None:
    """The final rulings and approved seat swaps as the tournament item says (after the
    entries and rounds they name, and after the deletes). Left alone where they are as
    stored; else the stored final rulings and approved swaps are replaced by the item's
    (pending rulings and waiting swaps are the hall's own business and stay). A name the
    archive does not contain is an ArchiveError: nothing is written."""
    tournament = here.tournament
    number_of = {entry.pk: number for number, entry in here.entries().items()}
    wanted = {key: list(settings.get(key) or []) for key in ("rulings", "seat_swaps")}
    stored = fairness_records(tournament, number_of=number_of)
    if all(wanted[key] == stored.get(key, []) for key in wanted):
        return
    Ruling.objects.filter(tournament=tournament, decided_at__isnull=False).delete()
    SeatSwap.objects.filter(tournament=tournament, state=SeatSwap.State.APPROVED).delete()

    def missing(key: str) -> ArchiveError:
        return ArchiveError(
            _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
            % {"key": key}
        )

    now = timezone.now()  # for a time the archive does not give
    rulings = []
    for item in wanted["rulings"]:
        referees = [str(name)[:150] for name in item["referees"] if name][:2]
        if not referees:
            raise missing(_("the referee of a ruling"))
        decided_at = (
            archive_time(item.get("decided_at")) or archive_time(item.get("ruled_at")) or now
        )
        rulings.append(
            Ruling(
                tournament=tournament,
                round_number=item.get("round"),
                table_number=item.get("table"),
                deal_number=item.get("deal"),
                conduct=bool(item.get("conduct")),
                decision=item["decision"],
                penalty=item.get("penalty") or "",
                needs_two=len(referees) > 1,
                first_at=archive_time(item.get("ruled_at")) or decided_at,
                first_name=referees[0],
                second_name=referees[1] if len(referees) > 1 else "",
                second_at=decided_at if len(referees) > 1 else None,
                decided_at=decided_at,
            )
        )
    rounds, entries = here.rounds(), here.entries()
    swaps = []
    for item in wanted["seat_swaps"]:
        round_ = rounds.get(item["round"])
        if round_ is None:
            raise missing(_("round %(round)s") % {"round": item["round"]})
        for number in (item["first"], item["second"]):
            if number not in entries:
                raise missing(_("start number %(n)s") % {"n": number})
        swaps.append(
            SeatSwap(
                tournament=tournament,
                round=round_,
                first=entries[item["first"]],
                second=entries[item["second"]],
                first_table=item["first_table"],
                first_position=item["first_position"],
                second_table=item["second_table"],
                second_position=item["second_position"],
                reason=item["reason"],
                state=SeatSwap.State.APPROVED,
                requested_at=archive_time(item.get("requested_at"))
                or archive_time(item.get("approved_at"))
                or now,
                requested_name=item["requested_by"][:150],
                decided_at=archive_time(item.get("approved_at"))
                or archive_time(item.get("requested_at"))
                or now,
                decided_name=item["approved_by"][:150],
            )
        )
    for row in rulings + swaps:
        row.full_clean(exclude=["tournament", "round", "first", "second"], validate_unique=False)
    Ruling.objects.bulk_create(rulings)
    SeatSwap.objects.bulk_create(swaps)
