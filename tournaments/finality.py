"""When a season tournament's results are final: the rule, from stored facts only (pure).

Results are *provisional* ("vorläufig") from the finish until the appeal window closes, then
*final* ("endgültig"). Nothing is stored when the window closes and nothing runs at midnight:
each reader works the state out from

- ``finished_at``: the tournament's latest finish (a reopened tournament that is finished
  again starts its window anew: its results changed);
- ``window_days``: the season's appeal window (``Season.appeal_days``), whole days in local
  time: finished on 28.11. with 14 days, appeals are taken up to and including 12.12., final
  from 13.12. 00:00;
- ``confirmed_at``: the season scorer's latest early confirmation; it counts only if made
  after the latest finish;
- ``open_appeals``: appeals not decided yet: provisional, however late;
- ``last_decided_at``: the latest decision; results become final no earlier than it;
- ``correction_due_at``: the latest decision that says the results are to be corrected:
  provisional until a confirmation made after it (the scorer confirms once the correction,
  made where the tournament is written, has arrived).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

RUNNING = "running"  # not finished: the tournament's own pages say where it stands
PROVISIONAL = "provisional"
FINAL = "final"


@dataclass(frozen=True)
class Finality:
    state: str  # RUNNING, PROVISIONAL or FINAL
    # PROVISIONAL in the window: its last day (appeals are taken up to and including it).
    # None while an appeal is open or a correction is due.
    until: dt.date | None = None
    since: dt.datetime | None = None  # FINAL: the moment the results became final
    open_appeals: int = 0
    correction_due: bool = False
    appealed: bool = False  # any appeal, open or decided

    @property
    def provisional(self) -> bool:
        return self.state == PROVISIONAL

    @property
    def final(self) -> bool:
        return self.state == FINAL


def window_closes(finished_at: dt.datetime, window_days: int, zone: ZoneInfo) -> dt.datetime:
    """The moment the window closes: midnight after its last day, in the local time zone."""
    last_day = finished_at.astimezone(zone).date() + dt.timedelta(days=window_days)
    return dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time(), tzinfo=zone)


def finality(
    *,
    finished_at: dt.datetime | None,
    window_days: int,
    confirmed_at: dt.datetime | None,
    open_appeals: int,
    last_decided_at: dt.datetime | None,
    correction_due_at: dt.datetime | None,
    now: dt.datetime,
    zone: ZoneInfo,
) -> Finality:
    """The state of one tournament's results at ``now`` (see the module)."""
    appealed = bool(open_appeals) or last_decided_at is not None
    if finished_at is None:
        return Finality(RUNNING, open_appeals=open_appeals, appealed=appealed)
    if confirmed_at is not None and confirmed_at < finished_at:
        confirmed_at = None  # confirmed before the results last changed
    correction_due = correction_due_at is not None and (
        confirmed_at is None or confirmed_at < correction_due_at
    )
    if open_appeals or correction_due:
        return Finality(
            PROVISIONAL,
            open_appeals=open_appeals,
            correction_due=correction_due,
            appealed=appealed,
        )
    closes = window_closes(finished_at, window_days, zone)
    since = min(closes, confirmed_at) if confirmed_at is not None else closes
    if last_decided_at is not None and last_decided_at > since:
        since = last_decided_at
    if correction_due_at is not None and confirmed_at is not None and confirmed_at > since:
        since = confirmed_at  # the confirmation that the correction has arrived
    if now >= since:
        return Finality(FINAL, since=since, appealed=appealed)
    return Finality(PROVISIONAL, until=(closes - dt.timedelta(days=1)).date(), appealed=appealed)


def appeal_in_time(state: Finality, received_on: dt.date, zone: ZoneInfo) -> bool:
    """May an appeal received on ``received_on`` still be taken? Up to the day the results
    became final (an appeal received in time counts even if it is recorded later)."""
    if not state.final or state.since is None:
        return True
    # the last day before the moment: the window's last day, or the day of a confirmation
    last_day = (state.since.astimezone(zone) - dt.timedelta(microseconds=1)).date()
    return received_on <= last_day
