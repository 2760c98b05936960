"""Dates: 28.11.2026, 11:13 Uhr in German; 28 Nov 2026 in English; never 11/28/2026."""

import datetime

import pytest
from django.template import Context, Template
from django.utils import translation

MOMENT = datetime.datetime(2026, 11, 28, 11, 13)
TEMPLATE = Template(
    '{{ d|date }}|{{ d|date:"SHORT_DATE_FORMAT" }}|{{ d|date:"DATETIME_FORMAT" }}|{{ d|time }}'
)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "28.11.2026|28.11.2026|28.11.2026, 11:13 Uhr|11:13 Uhr"),
        ("en", "28 Nov 2026|28 Nov 2026|28 Nov 2026, 11:13|11:13"),
    ],
)
def test_dates_per_language(language, expected):
    with translation.override(language):
        rendered = TEMPLATE.render(Context({"d": MOMENT}))
    assert rendered == expected
    assert "11/28" not in rendered


@pytest.mark.parametrize(
    ("language", "shown", "typed"),
    [("de", "28.11.2026", "28.11.2026"), ("en", "2026-11-28", "28 Nov 2026")],
)
def test_the_tournament_date_box_speaks_the_language(db, language, shown, typed):
    from tournaments.forms.setup import TournamentForm

    with translation.override(language):
        form = TournamentForm(initial={"date": datetime.date(2026, 11, 28)})
        assert f'value="{shown}"' in str(form["date"])
        assert form.fields["date"].clean(typed) == datetime.date(2026, 11, 28)
