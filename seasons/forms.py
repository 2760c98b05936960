"""Forms of the season area: a season's name and dates, its rules (cup points per place, the
final, the season's planned tournaments)."""

from __future__ import annotations

import datetime as dt
import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.forms import DATE
from seasons.models import Season


def parse_cup_points(text: str) -> list[int]:
    """ "25, 20, 16 12" -> [25, 20, 16, 12]: commas, semicolons or spaces between numbers."""
    parts = text.replace(";", " ").replace(",", " ").split()
    try:
        return [int(part) for part in parts]
    except ValueError as error:
        raise ValidationError(_("Enter whole numbers separated by commas.")) from error


# The formats a planned date may be written in, whatever the page's language.
PLANNED_DATE_FORMATS = ("%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d")
# A date, then what follows it after spaces, a comma, a dash or a colon.
_PLANNED_LINE = re.compile(r"^([0-9][0-9.\-]*[0-9])\s*(?:[,;:–-]\s*)?(.*)$")


def _planned_day(text: str) -> dt.date | None:
    for pattern in PLANNED_DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def parse_planned_dates(text: str) -> list[tuple[dt.date, str]]:
    """ "16.01.2027 Bräunlingen" per line -> [(date, "Bräunlingen"), …]: the date first
    (16.01.2027, 16.1.27 or 2027-01-16), then the host or place if wanted; empty lines
    skipped."""
    result = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        match = _PLANNED_LINE.match(line)
        day = _planned_day(match.group(1)) if match else None
        if match is None or day is None:
            raise ValidationError(
                _("Line %(line)s does not start with a date such as 16.01.2027: “%(text)s”.")
                % {"line": number, "text": line[:60]}
            )
        result.append((day, (match.group(2) or "").strip()))
    return result


def planned_dates_text(planned) -> str:
    """The season's planned dates as the form shows them, one a line."""
    return "\n".join(f"{p.date:%d.%m.%Y} {p.note}".strip() for p in planned)


class SeasonRulesForm(forms.Form):
    scoring = forms.ChoiceField(
        label=_("season rule"), choices=Season.Scoring.choices, widget=forms.RadioSelect
    )
    best_of = forms.IntegerField(
        label=_("best N results"), min_value=1, max_value=99, required=False
    )
    cup_points = forms.CharField(
        label=_("cup points per place"),
        required=False,
        help_text=_("Points for place 1, 2, 3, … separated by commas; later places get none."),
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    min_tournaments = forms.IntegerField(
        label=_("minimum tournaments to be ranked"), min_value=1, max_value=99
    )
    final_min_tournaments = forms.IntegerField(
        label=_("tournaments needed for the final"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_(
            "Players who have played at least this many tournaments of the season qualify "
            "for the final. Leave empty if the season has no final."
        ),
    )

    planned_tournaments = forms.IntegerField(
        label=_("planned tournaments in the season"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_(
            "How many tournaments the season will have in all, played ones included. "
            "Leave empty if it is not known yet."
        ),
    )
    planned_dates = forms.CharField(
        label=_("planned tournament dates"),
        required=False,
        help_text=_(
            "One a line: the date, then the host or place if you like, e.g. "
            "“16.01.2027 Bräunlingen”. The tournament calendar shows them as planned until "
            "the host creates the tournament on that date."
        ),
        widget=forms.Textarea(attrs={"rows": 5}),
    )

    def clean_cup_points(self) -> list[int]:
        return parse_cup_points(self.cleaned_data.get("cup_points") or "")

    def clean_planned_dates(self) -> list[tuple[dt.date, str]]:
        return parse_planned_dates(self.cleaned_data.get("planned_dates") or "")


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=120)
    starts_on = forms.DateField(label=_("starts on"), widget=DATE)
    ends_on = forms.DateField(label=_("ends on"), widget=DATE)
    youth_born_from = forms.IntegerField(
        label=_("youth: born in or after"),
        min_value=1900,
        max_value=2100,
        required=False,
        help_text=_("Players born in this year or later count as youth in this season."),
    )
