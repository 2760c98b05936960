"""A tournament's online sign-ups for its organisers: one row generator, written as an
Excel sheet or as CSV (semicolons, UTF-8 with BOM, as German Excel opens it)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.cells import looks_like_formula
from clubs.exports import write_sheet
from signups.selectors import ListRow


def signup_rows(rows: list[ListRow]) -> Iterator[list]:
    yield [
        _("last name"),
        _("first name"),
        _("club"),
        _("category"),
        _("e-mail"),
        _("state"),
        _("waiting list"),
        _("signed up at"),
    ]
    for row in rows:
        s = row.signup
        yield [
            s.last_name,
            s.first_name,
            s.club_name,
            s.get_category_display() if s.category else "",
            s.email,
            s.get_status_display(),
            row.position,
            timezone.localtime(s.created_at).replace(tzinfo=None),
        ]


def signups_workbook(rows: list[ListRow]) -> bytes:
    return write_sheet(_("Sign-ups"), signup_rows(rows), [20, 16, 28, 12, 30, 26, 10, 18])


def _csv_cell(value) -> str:
    if value is None:
        return ""
    if hasattr(value, "strftime"):
        return value.strftime("%d.%m.%Y %H:%M")
    text = str(value)
    return "'" + text if looks_like_formula(text) else text


def signups_csv(rows: list[ListRow]) -> str:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    for values in signup_rows(rows):
        writer.writerow([_csv_cell(v) for v in values])
    return out.getvalue()
