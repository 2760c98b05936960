"""Forms of the season area: a season's name and dates, its rules (cup points per place, the
final, the season's planned tournaments), and the season scorer's appeals."""

from __future__ import annotations

import datetime as dt
import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.forms import DATE
from seasons.models import MAX_APPEAL_DAYS, Appeal, Season


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
    appeal_days = forms.IntegerField(
        label=_("appeal window (days)"),
        min_value=0,
        max_value=MAX_APPEAL_DAYS,
        required=False,  # empty: as it was
        help_text=_(
            "A tournament's results are provisional until this many days after it was "
            "finished (or until the season scorer confirms them), then final."
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


class AppealForm(forms.Form):
    """An appeal the association received (the season scorer records it)."""

    tournament = forms.TypedChoiceField(label=_("tournament"), coerce=int)
    appellant = forms.CharField(
        label=_("appellant"),
        max_length=160,
        help_text=_("A player or a club, as the appeal names itself."),
    )
    text = forms.CharField(
        label=_("what is appealed"),
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Seen by the season scorer only."),
    )
    received_on = forms.DateField(label=_("received on"), widget=DATE)

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = [
            (t.pk, f"{t.date:%d.%m.%Y} {t.name} ({t.season.name})") for t in tournaments
        ]


class DecisionForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("decision"), choices=Appeal.Outcome.choices, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=_("reason for the decision"),
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown to the public with the decision on the tournament's page."),
    )
    needs_correction = forms.BooleanField(
        label=_("the results are to be corrected"),
        required=False,
        help_text=_(
            "The results stay provisional until the correction has arrived and you confirm them."
        ),
    )


class SanctionForm(forms.Form):
    """A ban in the register (the season scorer): the player is chosen from a search."""

    player = forms.TypedChoiceField(label=_("player"), coerce=int, widget=forms.RadioSelect)
    starts_on = forms.DateField(label=_("from"), widget=DATE)
    ends_on = forms.DateField(
        label=_("until (and including)"),
        widget=DATE,
        required=False,
        help_text=_("Either a last day …"),
    )
    tournaments = forms.IntegerField(
        label=_("for this many tournaments"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_(
            "… or a number of championship tournaments: those of the seasons on this server "
            "dated from the first day on, whether the player would have played or not."
        ),
    )
    reason = forms.CharField(
        label=_("reason"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Seen by the season scorer only; never sent to a venue laptop."),
    )
    decided_by = forms.CharField(
        label=_("decided by"),
        max_length=160,
        help_text=_("Who decided, and when (for example the board's decision of 3 December)."),
    )

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [
            (
                p.pk,
                " · ".join(
                    [
                        f"{p.last_name}, {p.first_name}",
                        *(m.club.short_name for m in p.memberships.all()),
                    ]
                ),
            )
            for p in players
        ]


class LiftForm(forms.Form):
    lift_reason = forms.CharField(label=_("why lifted"), max_length=300)


class TournamentSeriesForm(forms.Form):
    """The organiser's ticks: the other series a tournament also counts for (issue 41)."""

    series = forms.ModelMultipleChoiceField(
        label=_("Also counts for"),
        queryset=Season.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Tick every series this tournament also counts for besides its own season; each "
            "series adds up its results under its own rule. Seasons whose dates hold the "
            "tournament's day are offered."
        ),
    )

    def __init__(self, *args, choices, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["series"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Season.objects.filter(pk__in=[season.pk for season in choices]).order_by(
            "-starts_on", "name"
        )
