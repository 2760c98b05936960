"""The projector's rows written in Python (``tables_standings.projector_rows_html``) are the
markup the template loop wrote: checked against that loop, kept here as the oracle."""

from dataclasses import dataclass

from django.template import Context, Template
from django.utils import translation

from tournaments.tables_standings import projector_rows_html, shown

# The loop of tournaments/standings/_projector_board.html before the rows were written in
# Python.
TEMPLATE_LOOP = (
    "{% load i18n %}{% for item in rows %}"
    '\n      <tr class="{% if item.row.tied %}tied{% endif %}'
    '{% if item.row.withdrawn %} withdrawn{% endif %}">'
    '\n        <td class="number rank">{{ item.rank }}</td>'
    '\n        <td class="name"><span class="player"><span class="last">'
    "{{ item.row.last_name }}</span>{% if item.row.first_name %}, "
    '<span class="first-full">{{ item.row.first_name }}</span>'
    '<span class="first-short">{{ item.row.first_name|first }}.</span>{% endif %}</span>'
    '{% if item.row.fill_in %} <span class="badge badge-fill-in">{% translate "fill-in" %}'
    "</span>{% endif %}"
    '{% if item.row.club %} <span class="club">{{ item.row.club }}</span>{% endif %}</td>'
    '\n        <td class="number total">{{ item.total }}</td>'
    "\n      </tr>\n    {% endfor %}"
)


@dataclass(frozen=True)
class FakeRow:
    rank: int
    last_name: str
    first_name: str
    club: str
    total: int
    tied: bool = False
    withdrawn: bool = False
    fill_in: bool = False


ROWS = [
    FakeRow(1, "Faller", "Anna", "CC Triberg", 240),
    FakeRow(2, "Dörflinger", "Ölaf", "", 0, tied=True),
    FakeRow(2, "<b>Kern</b>", "& Co", 'Club "X"', 0, tied=True, withdrawn=True),
    FakeRow(4, "Ohne", "", "CC", -40, withdrawn=True),
    FakeRow(5, "Ersatz", "Egon", "CC", -120, fill_in=True),
]


def test_the_rows_are_the_markup_the_template_wrote():
    for language in ("de", "en"):
        with translation.override(language):
            expected = Template(TEMPLATE_LOOP).render(Context({"rows": shown(ROWS)}))
            assert str(projector_rows_html(ROWS)) == expected


def test_names_are_escaped():
    html = str(projector_rows_html(ROWS))
    assert "<b>Kern" not in html and "&lt;b&gt;Kern&lt;/b&gt;" in html
    assert "&amp; Co" in html and "Club &quot;X&quot;" in html
