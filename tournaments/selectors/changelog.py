"""A tournament's whole log: its own changes, its rounds' and its deals' histories, newest
first, in three queries whatever the length."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import DealChange, RoundChange, Tournament, TournamentChange


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

    @property
    def before_text(self) -> str:
        return as_text(self.before)

    @property
    def after_text(self) -> str:
        return as_text(self.after)


def as_text(value: Any) -> str:
    """A logged value, short and readable: ``key: value, …``; lists joined by " / "."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return ", ".join(f"{key}: {as_text(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return " / ".join(as_text(item) for item in value)
    return str(value)


def _who(user, actor: str = "") -> str:
    return user.get_username() if user is not None else actor


def tournament_log(*, tournament: Tournament, limit: int = 2000) -> list[LogLine]:
    lines: list[LogLine] = []
    for change in (
        TournamentChange.objects.filter(tournament=tournament)
        .select_related("changed_by")
        .order_by("-changed_at", "-pk")[:limit]
    ):
        lines.append(
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
        )
    for change in (
        RoundChange.objects.filter(round__tournament=tournament)
        .select_related("changed_by", "round", "table")
        .order_by("-changed_at", "-pk")[:limit]
    ):
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
    for change in (
        DealChange.objects.filter(deal__table__round__tournament=tournament)
        .select_related("changed_by", "deal__table__round")
        .order_by("-changed_at", "-pk")[:limit]
    ):
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
            )
        )
    lines.sort(key=lambda line: (line.at, line.order), reverse=True)
    return lines[:limit]
