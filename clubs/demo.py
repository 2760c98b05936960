"""Demo members and fees (``load_demo`` calls :func:`load_members_and_fees`).

Derived from the players' order only (and today's date: no fee is paid in the future), so
loading twice on one day gives the same rows.
"""

from __future__ import annotations

import datetime as dt

from clubs.models import AnnualFee, Membership

ACTIVE_FEE_CENTS = 3000
PASSIVE_FEE_CENTS = 1200
PRIZE_SHARES_CENTS = [6000, 4000, 3000, 2000, 1000]


def paid_on(season, index: int, *, today: dt.date | None = None) -> dt.date:
    """The demo's payment date of the ``index``-th member's fee: a day into the season, but
    never after today (a fee is not paid on a future date; a season that starts later was
    paid in advance, up to today)."""
    today = today or dt.date.today()
    return min(season.starts_on + dt.timedelta(days=index), today)


def load_members_and_fees(*, club, season, players, tournaments=()) -> None:
    """Every demo player is a member of ``club``: joined over the years, every eighth passive,
    one who left last spring; this season's fee charged, two of three paid (cash or
    transfer), the rest still due. The season counts players born 2008 or later as youth;
    ``tournaments`` share out their entry fees as prize money for the first five places."""
    if season.youth_born_from is None:
        season.youth_born_from = 2008
        season.save(update_fields=["youth_born_from"])
    due_on = season.starts_on + dt.timedelta(days=60)
    for index, player in enumerate(players):
        membership = Membership.objects.get(player=player, club=club)
        membership.since = dt.date(1990 + index % 30, 1 + index % 12, 1)
        membership.status = "passive" if index % 8 == 5 else "active"
        membership.left_on = dt.date(2026, 4, 30) if index == 38 else None
        membership.save(update_fields=["since", "status", "left_on"])
        if membership.left_on is not None:
            continue
        paid = index % 3 != 2
        AnnualFee.objects.update_or_create(
            membership=membership,
            season=season,
            defaults={
                "status": membership.status,
                "amount_cents": ACTIVE_FEE_CENTS
                if membership.status == "active"
                else PASSIVE_FEE_CENTS,
                "due_on": due_on,
                "paid_on": paid_on(season, index) if paid else None,
                "method": ("cash" if index % 2 else "transfer") if paid else "",
            },
        )
    for tournament in tournaments:
        if not tournament.prize_shares_cents:
            tournament.prize_shares_cents = PRIZE_SHARES_CENTS
            tournament.save(update_fields=["prize_shares_cents"])
