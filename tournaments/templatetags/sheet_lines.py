"""``{% phone_sheet_lines sheet %}``: the rows of a table's sheet on the phones, in Python.

The same rows as the desk's loop in ``_sheet.html`` without its links and forms: a deal's
line, its badges and a cell per seat. Drawn by the template language they were half of a
phone page's server time (some 30 tags per line, 24 lines); here a line is a few string
joins. The desk keeps the template (links, forms, a CSRF token per line).
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.selectors.table_sheet import TableSheet

register = template.Library()


@register.simple_tag
def phone_sheet_lines(sheet: TableSheet) -> SafeString:
    pending = '<span class="badge pending">{}</span>'.format(escape(_("waiting for confirmation")))
    annulled = '<span class="badge annulled">{}</span>'.format(escape(_("annulled")))
    written = '<span class="badge written" title="{}">{}</span>'.format(
        escape(_("typed in as written on the paper sheet")), escape(_("as written"))
    )
    round_total = _("round total")
    rows = []
    for line in sheet.lines:
        deal = line.deal
        status = deal.status
        badges = ""
        if status == "pending":
            badges += pending
        elif status == "annulled":
            badges += annulled
        if deal.as_written:
            badges += written
        cells = []
        for seat, score in enumerate(line.scores):
            classes = "number score"
            if seat == line.declarer:
                classes += " declarer"
            if seat == line.dealer:
                classes += " dealer"
            cells.append(f'<td class="{classes}">{"" if score is None else f"{score:+d}"}</td>')
        rows.append(
            f'<tr class="deal-line {escape(status)}{"" if line.counts else " not-counting"}"'
            f' id="deal-{line.number}">\n'
            f'      <td class="number">{line.number}</td>\n'
            f"      <td>{escape(line.contract_name or round_total)}\n        {badges}\n      </td>\n"
            f"      {''.join(cells)}\n    </tr>\n"
        )
    if not rows:
        rows.append(
            f'<tr><td colspan="{len(sheet.seats) + 3}">{escape(_("No deals entered yet."))}'
            "</td></tr>\n"
        )
    return mark_safe("".join(rows))  # noqa: S308 - every value above is escaped or a number
