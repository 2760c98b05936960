"""``{% phone_sheet_lines sheet %}``: the rows of a table's sheet on the phones, in Python.

The same rows as the desk's loop in ``_sheet.html`` without its links and forms: a deal's
line, its badges and a cell per seat. Drawn by the template language they were half of a
phone page's server time (some 30 tags per line, 24 lines); here a line is a few string
joins. The desk keeps the template (links, forms, a CSRF token per line).
"""

from __future__ import annotations

from django import template
from django.urls import reverse
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
            if seat == line.offender:
                classes += " offender"
            cells.append(f'<td class="{classes}">{"" if score is None else f"{score:+d}"}</td>')
        if line.penalty:  # "Strafe gegen Paul W." (the points are in the seats' cells)
            name = (
                f'<span class="penalty-title" title="{escape(line.title)}">'
                f"{escape(line.short_title)}</span>"
            )
        else:
            name = escape(line.contract_name or round_total)
        rows.append(
            f'<tr class="deal-line {escape(status)}{"" if line.counts else " not-counting"}'
            f'{" penalty-line" if line.penalty else ""}" id="deal-{line.number}">\n'
            f'      <td class="number">{line.number}</td>\n'
            f"      <td>{name}\n        {badges}\n      </td>\n"
            f"      {''.join(cells)}\n    </tr>\n"
        )
    if not rows:
        rows.append(
            f'<tr><td colspan="{len(sheet.seats) + 3}">{escape(_("No deals entered yet."))}'
            "</td></tr>\n"
        )
    return mark_safe("".join(rows))  # noqa: S308 - every value above is escaped or a number


@register.simple_tag(takes_context=True)
def phone_pending_lines(context, sheet: TableSheet) -> SafeString:
    """The deals waiting for confirmation on a phone (``_phone_live.html``'s list): each with
    its numbers and, for another seat's phone, the confirm form. A phone that enters deal after
    deal without a second phone has up to 24 of them on every page."""
    me, is_open, token = context.get("me"), context.get("is_open"), sheet.table.token
    csrf = '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'.format(
        escape(str(context.get("csrf_token", "")))
    )
    # two addresses per deal: reversed once, the deal's id written in
    revise_url = reverse("tournaments:table_entry_revise", args=[token, 0])
    confirm_url = reverse("tournaments:table_entry_confirm", args=[token, 0])
    revise_at, confirm_at = revise_url.rindex("/0/"), confirm_url.rindex("/0/")
    card_points, change = escape(_("card points")), escape(_("Change"))
    waiting = escape(_("Waiting for another player at the table to confirm."))
    confirm, entered_label = escape(_("Confirm")), escape(_("Card points entered"))
    parts = []
    for pending in sheet.pending_lines:
        line = pending.line
        deal = line.deal
        revise = f"{revise_url[:revise_at]}/{deal.pk}/{revise_url[revise_at + 3 :]}"
        title = (
            f'<span class="penalty-title">{escape(line.title)}</span>'
            if line.penalty
            else escape(line.contract_name)
        )
        head = "<b>{}: {}</b>".format(escape(_("Deal %(number)s") % {"number": line.number}), title)
        if line.declarer is not None:
            head += f"\n      · {escape(pending.declarer_name)}"
        if deal.declarer_points is not None:
            head += f"\n      · {escape(deal.declarer_points)} {card_points}"
        item = [
            f'  <div class="pending-deal compact" id="pending-{line.number}">\n'
            f'    <p class="pending-head">{head}</p>\n'
        ]
        if deal.details and deal.details.get("points"):
            shown = " · ".join(
                f"{escape(entered[0])} <b>{escape(entered[1])}</b>" if entered else ""
                for entered in pending.points
            )
            item.append(f'    <p class="pending-points">{entered_label}: {shown}</p>\n')
        scores = "".join(
            f"<span>{escape(name)} <b>{'' if score is None else f'{score:+d}'}</b></span>"
            for name, score in pending.scores
        )
        item.append(f'    <p class="pending-scores">{scores}</p>\n')
        if deal.entered_by_position == me:
            link = f' <a href="{revise}">{change}</a>' if is_open else ""
            item.append(f'    <p class="muted">{waiting}{link}</p>\n')
        elif is_open:
            action = f"{confirm_url[:confirm_at]}/{deal.pk}/{confirm_url[confirm_at + 3 :]}"
            item.append(
                f'    <form method="post" action="{action}" class="actions">\n'
                f'      {csrf}<input type="hidden" name="version" value="{deal.version}">\n'
                f'      <button type="submit" class="primary" data-once>{confirm}</button>\n'
                f'      <a class="button" href="{revise}">{change}</a>\n'
                "    </form>\n"
            )
        item.append("  </div>\n")
        parts.append("".join(item))
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped or a number
