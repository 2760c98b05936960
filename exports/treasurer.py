"""The treasurer's workbook: a club's members and fees of a season, and the money of the
tournaments it hosted."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext as _

from clubs.exports import Euros, write_sheets
from treasury.selectors import TreasurerView


def treasurer_rows(view: TreasurerView) -> Iterator[list]:
    yield [
        _("last name"),
        _("first name"),
        _("member number"),
        _("status"),
        _("joined"),
        _("left"),
        _("annual fee"),
        _("due on"),
        _("paid on"),
        _("paid by"),
        _("owes"),
        _("entry fees paid"),
        _("entries not paid"),
        _("note"),
    ]
    for line in view.lines:
        m, fee = line.membership, line.fee
        yield [
            m.player.last_name,
            m.player.first_name,
            m.member_number,
            (fee.get_status_display() if fee else m.get_status_display()),
            m.since,
            m.left_on,
            Euros(fee.amount_cents) if fee else None,
            fee.due_on if fee else None,
            fee.paid_on if fee else None,
            fee.get_method_display() if fee and fee.method else "",
            Euros(line.owes_cents),
            Euros(line.entry_fees_cents),
            line.entries_unpaid,
            fee.note if fee else "",
        ]


def hosted_rows(hosted) -> Iterator[list]:
    yield [
        _("date"),
        _("tournament"),
        _("entry fees taken"),
        _("not paid"),
        _("prize money"),
        _("remains"),
    ]
    for tournament, money in hosted:
        yield [
            tournament.date,
            tournament.name,
            Euros(money.fees_taken_cents),
            money.entries_unpaid,
            Euros(money.prizes_cents),
            Euros(money.remainder_cents),
        ]


def treasurer_workbook(view: TreasurerView, hosted=()) -> bytes:
    """The members' fees, and the money of the tournaments the club hosted in the season."""
    return write_sheets(
        [
            (
                _("Fees"),
                treasurer_rows(view),
                [20, 16, 12, 10, 12, 12, 12, 12, 12, 14, 12, 14, 12, 30],
            ),
            (_("Tournaments"), hosted_rows(hosted), [12, 36, 14, 10, 14, 14]),
        ]
    )
