"""A tournament's whole log: its own changes, its rounds' and its deals' histories, newest
first. A page of it (:func:`tournament_log_page`) takes five queries whatever the length: the
count and the page's keys from one time-ordered UNION of the three histories, then the page's
rows of each history."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, cast

from django.core.exceptions import FieldDoesNotExist
from django.core.paginator import Page, Paginator
from django.db.models import CharField, Field, Value
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.deal_words import change_texts
from tournaments.models import (
    DealChange,
    Entry,
    RoundChange,
    Seat,
    Tournament,
    TournamentChange,
)
from tournaments.rule_snapshot import rule_source_of


@dataclass(frozen=True)
class LogLine:
    at: dt.datetime
    area: str  # "tournament", "round" or "deal"
    action: str
    subject: str
    who: str
    reason: str
    before: Any
    after: Any
    device: str = ""
    ip_address: str | None = None
    same_device: bool = False
    order: int = 0
    words: tuple[str, str] | None = None  # a deal's before and after in plain words

    @property
    def before_text(self) -> str:
        if self.words is not None:
            return self.words[0]
        return "" if self.before is None else as_text(self.before)

    @property
    def after_text(self) -> str:
        if self.words is not None:
            return self.words[1]
        return "" if self.after is None else as_text(self.after)


# What a logged key means, where it is not a field of the tournament or of an entry.
LOGGED_KEYS = {
    "seed": gettext_lazy("random number of the draw"),
    "tables": gettext_lazy("tables"),
    "minutes": gettext_lazy("minutes"),
    "first": gettext_lazy("start number"),
    "second": gettext_lazy("and start number"),
    "player": gettext_lazy("start number"),
    "name": gettext_lazy("name"),
    "from_deal": gettext_lazy("from deal"),
    "reason": gettext_lazy("reason"),
    "revision": gettext_lazy("revision"),
    "content_hash": gettext_lazy("content fingerprint"),
    # double entry of paper sheets (tournaments.services.double_entry)
    "typing": gettext_lazy("typing no."),
    "lines": gettext_lazy("lines of the sheet"),
    "first_typing_by": gettext_lazy("first typing by"),
    "differences": gettext_lazy("cells that differ"),
    "counted": gettext_lazy("counts"),
    "same_person": gettext_lazy("same person"),
    "cells": gettext_lazy("settled cells"),
    "deal": gettext_lazy("deal"),
    "column": gettext_lazy("column"),
    "first_value": gettext_lazy("first typing"),
    "second_value": gettext_lazy("second typing"),
    "settled_with": gettext_lazy("settled with"),
    "value": gettext_lazy("value"),
    "called_at": gettext_lazy("called at"),
    # swaps of drawn seats and rulings (tournaments.services.fairness)
    "requested_by": gettext_lazy("asked for by"),
    "approved_by": gettext_lazy("approved by"),
    "signed_at_login_of": gettext_lazy("signed with their password at the login of"),
    "conduct": gettext_lazy("about conduct"),
    "penalty": gettext_lazy("penalty"),
    "pending": gettext_lazy("waits for a second referee"),
    "first_by": gettext_lazy("ruled by"),
    "second_by": gettext_lazy("confirmed by"),
}


def key_label(key: str) -> str:
    """A logged key in the reader's words: the field's own name (``withdrawn_after_round`` →
    "withdrawn after round"), else ``LOGGED_KEYS``; a start number stays as it is."""
    if key in LOGGED_KEYS:
        return str(LOGGED_KEYS[key])
    for model in (Tournament, Entry):
        try:
            field = cast(Field, model._meta.get_field(key.removesuffix("_id")))  # a column
            return str(field.verbose_name)
        except FieldDoesNotExist:
            continue
    return key


def as_text(value: Any) -> str:
    """A logged value, short and readable: ``label: value, …`` with the keys in words, yes
    and no for flags; lists joined by " / "."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        return ", ".join(f"{key_label(str(key))}: {as_text(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return " / ".join(as_text(item) for item in value)
    return str(value)


def _who(user, actor: str = "") -> str:
    return user.get_username() if user is not None else actor


AREAS = ("tournament", "round", "deal")
PER_PAGE = 200


def _histories(tournament: Tournament) -> dict:
    """Each area's history of ``tournament`` (unordered querysets)."""
    return {
        "tournament": TournamentChange.objects.filter(tournament=tournament),
        "round": RoundChange.objects.filter(round__tournament=tournament),
        "deal": DealChange.objects.filter(deal__table__round__tournament=tournament),
    }


def _tournament_lines(changes, tournament: Tournament) -> list[LogLine]:
    return [
        LogLine(
            at=change.changed_at,
            area="tournament",
            action=change.get_action_display(),
            subject=change.subject,
            who=_who(change.changed_by, change.actor),
            reason=change.reason,
            before=change.before,
            after=change.after,
            order=change.pk,
        )
        for change in changes.select_related("changed_by")
    ]


def _round_lines(changes, tournament: Tournament) -> list[LogLine]:
    lines = []
    for change in changes.select_related("changed_by", "round", "table"):
        subject = _("Round %(number)s") % {"number": change.round.number}
        if change.table is not None:
            subject += ", " + _("table %(number)s") % {"number": change.table.number}
        lines.append(
            LogLine(
                at=change.changed_at,
                area="round",
                action=change.get_action_display(),
                subject=subject,
                who=_who(change.changed_by),
                reason=change.reason,
                before=None,
                after=None,
                order=change.pk,
            )
        )
    return lines


class _SeatNames:
    """Who sat where at the log's tables, substitutes from their deal on (two queries)."""

    def __init__(self, table_ids: set[int]) -> None:
        self.seats: dict[int, list[Seat]] = {}
        for seat in (
            Seat.objects.filter(table_id__in=table_ids)
            .select_related("entry__player")
            .prefetch_related("substitutions__entry__player")
            .order_by("position")
        ):
            self.seats.setdefault(seat.table_id, []).append(seat)

    def at(self, table_id: int, number: int) -> list[str]:
        names = []
        for seat in self.seats.get(table_id, []):
            player = seat.entry.player
            for sub in sorted(seat.substitutions.all(), key=lambda sub: sub.from_deal):
                if sub.from_deal <= number:
                    player = sub.entry.player
            names.append(player.full_name)
        return names


def _deal_lines(changes, tournament: Tournament) -> list[LogLine]:
    changes = list(changes.select_related("changed_by", "deal__table__round"))
    if not changes:
        return []
    rules = rule_source_of(tournament)
    seats = _SeatNames({change.deal.table_id for change in changes})
    lines = []
    for change in changes:
        deal = change.deal
        lines.append(
            LogLine(
                at=change.changed_at,
                area="deal",
                action=change.get_action_display(),
                subject=_("Round %(round)s, table %(table)s, deal %(number)s")
                % {
                    "round": deal.table.round.number,
                    "table": deal.table.number,
                    "number": deal.number,
                },
                who=_who(change.changed_by, change.actor),
                reason=change.reason,
                before=change.before,
                after=change.after,
                device=change.device,
                ip_address=change.ip_address,
                same_device=deal.same_device and change.action == DealChange.Action.CONFIRMED,
                order=change.pk,
                words=change_texts(
                    rules=rules,
                    before=change.before,
                    after=change.after,
                    names=seats.at(deal.table_id, deal.number),
                ),
            )
        )
    return lines


_LINES = {"tournament": _tournament_lines, "round": _round_lines, "deal": _deal_lines}


def _newest_first(lines: list[LogLine]) -> list[LogLine]:
    return sorted(lines, key=lambda line: (line.at, line.order), reverse=True)


def tournament_log(*, tournament: Tournament, limit: int = 2000) -> list[LogLine]:
    """The newest ``limit`` lines of the whole log (three queries)."""
    lines: list[LogLine] = []
    for area, changes in _histories(tournament).items():
        lines += _LINES[area](changes.order_by("-changed_at", "-pk")[:limit], tournament)
    return _newest_first(lines)[:limit]


def tournament_log_page(
    *, tournament: Tournament, page: Any = 1, area: str = "", per_page: int | None = None
) -> Page:
    """One page of the log, newest first (``area``: one history only, or all three merged).

    The page's ``object_list`` holds its ``LogLine`` s. Five queries for any page of any
    length: the count and the page's (time, id, area) keys from one UNION ordered by time,
    then that page's rows of each history by id. Lines of one moment keep the order of their
    ids, as in :func:`tournament_log`."""
    histories = _histories(tournament)
    areas = (area,) if area in AREAS else AREAS
    keys = [
        histories[name]
        .annotate(area=Value(name, output_field=CharField()))
        .values_list("changed_at", "id", "area")
        .order_by()
        for name in areas
    ]
    merged = keys[0].union(*keys[1:], all=True) if len(keys) > 1 else keys[0]
    merged = merged.order_by("-changed_at", "-id")
    result = Paginator(merged, per_page or PER_PAGE).get_page(page)
    wanted: dict[str, list[int]] = {name: [] for name in areas}
    for _at, pk, name in result.object_list:
        wanted[name].append(pk)
    lines: list[LogLine] = []
    for name, ids in wanted.items():
        if ids:
            lines += _LINES[name](histories[name].filter(pk__in=ids), tournament)
    result.object_list = _newest_first(lines)
    return result
