"""django-tables2 tables of the standings (tournament and season).

The data are the selector's dataclass rows (``tournaments.selectors.standings``), already in
rank order: the tables are not sortable, a standings list has its own order.
"""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.exports import category_label

MINUS = "\u2212"  # a real minus sign: "−40" reads better than "-40" in large type


def signed(value: int | None) -> str:
    """Points with their sign: "Gute" +120, "Miese" −40, and 0."""
    if value is None:
        return "–"
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def sign_class(value: int | None) -> str:
    if value is None or value == 0:
        return "zero"
    return "plus" if value > 0 else "minus"


def signed_html(value: int | None):
    return format_html('<span class="{}">{}</span>', sign_class(value), signed(value))


class SignedColumn(tables.Column):
    """Points with their sign, right-aligned in tabular figures."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"td": {"class": "number"}, "th": {"class": "number"}})
        kwargs.setdefault("orderable", False)
        kwargs.setdefault("default", "–")
        super().__init__(*args, **kwargs)

    def render(self, value):
        return signed_html(value)


def rank_html(rank: int, tied: bool):
    if tied:
        return format_html('{}.<abbr class="tie-mark" title="{}">=</abbr>', rank, gettext("tied"))
    return f"{rank}."


def badges(*pairs: tuple[bool, str, str]):
    """Small labelled marks after a name: (shown?, css class, text)."""
    return format_html_join(
        "", ' <span class="badge badge-{}">{}</span>', ((c, t) for on, c, t in pairs if on)
    )


class PlayerColumns(tables.Table):
    """The columns every ranking shares: name, club, category and the total."""

    name = tables.Column(
        verbose_name=_("Name"), orderable=False, empty_values=(), attrs={"td": {"class": "name"}}
    )
    club = tables.Column(
        verbose_name=_("Club"),
        orderable=False,
        attrs={"td": {"class": "col-club"}, "th": {"class": "col-club"}},
    )
    category = tables.Column(
        verbose_name=_("Category"),
        orderable=False,
        attrs={"td": {"class": "col-category"}, "th": {"class": "col-category"}},
    )
    total = SignedColumn(
        verbose_name=_("Total"),
        attrs={"td": {"class": "number total"}, "th": {"class": "number total"}},
    )

    def render_category(self, value):
        return category_label(value)


class StandingsTable(PlayerColumns):
    """A tournament's standings: one row per ``StandingRow``."""

    rank = tables.Column(
        verbose_name=_("Rank"),
        orderable=False,
        attrs={"td": {"class": "number rank"}, "th": {"class": "number"}},
    )
    number = tables.Column(
        verbose_name=_("No."),
        orderable=False,
        attrs={"td": {"class": "number col-number"}, "th": {"class": "number col-number"}},
    )

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "standings-table"}
        row_attrs = {
            "class": lambda record: " ".join(
                c
                for c, on in (
                    ("tied", record.tied),
                    ("lot", record.decided_by_lot),
                    ("withdrawn", record.withdrawn),
                )
                if on
            ),
            "id": lambda record: f"entry-{record.entry_id}",
        }
        empty_text = _("No results yet.")
        orderable = False

    def __init__(self, data, *, round_numbers: tuple[int, ...] = (), **kwargs):
        extra = [
            (
                f"round_{n}",
                SignedColumn(
                    verbose_name=gettext("R%(number)s") % {"number": n},
                    accessor=f"round_totals__{i}",
                ),
            )
            for i, n in enumerate(round_numbers)
        ]
        sequence = ["rank", "number", "name", "club", "category"]
        sequence += [name for name, _column in extra] + ["total"]
        super().__init__(data, extra_columns=extra, sequence=sequence, **kwargs)

    def render_rank(self, record):
        return rank_html(record.rank, record.tied)

    def render_name(self, record):
        return format_html(
            '<span class="player">{}</span>{}<span class="club-inline">{}</span>',
            record.name,
            badges(
                (record.decided_by_lot, "lot", gettext("decided by lot")),
                (record.withdrawn, "withdrawn", gettext("withdrawn")),
            ),
            record.club,
        )


class SeasonResultColumn(SignedColumn):
    """One tournament's result in the season table; struck through when it does not count
    (the best-N rule)."""

    def __init__(self, *args, index: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.index = index

    def render(self, value, record):
        html = signed_html(value)
        if record.counted and not record.counted[self.index]:
            return format_html('<s title="{}">{}</s>', gettext("does not count"), html)
        return html


class SeasonStandingsTable(PlayerColumns):
    """A season's standings: one row per ``SeasonRow``, one column per tournament."""

    rank = tables.Column(
        verbose_name=_("Rank"),
        orderable=False,
        empty_values=(),
        attrs={"td": {"class": "number rank"}, "th": {"class": "number"}},
    )
    tournaments_played = tables.Column(
        verbose_name=_("Played"),
        orderable=False,
        attrs={"td": {"class": "number col-played"}, "th": {"class": "number col-played"}},
    )

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "standings-table season-table"}
        row_attrs = {"class": lambda record: "" if record.ranked else "unranked"}
        empty_text = _("No results yet.")
        orderable = False

    def __init__(self, data, *, tournaments=(), linked_players=frozenset(), **kwargs):
        extra = [
            (
                f"tournament_{i}",
                SeasonResultColumn(
                    index=i,
                    verbose_name=f"{t.date:%d.%m.}",
                    accessor=f"tournament_totals__{i}",
                    attrs={
                        "td": {"class": "number"},
                        "th": {
                            "class": "number",
                            "title": f"{t.name} ({date_format(t.date, 'SHORT_DATE_FORMAT')})",
                        },
                    },
                ),
            )
            for i, t in enumerate(tournaments)
        ]
        # The total comes before the 12 to 14 tournament columns: on a phone it is in sight
        # without scrolling sideways.
        sequence = ["rank", "name", "club", "category", "total", "tournaments_played"]
        sequence += [name for name, _column in extra]
        super().__init__(data, extra_columns=extra, sequence=sequence, **kwargs)
        # Players whose page the viewer may open (clubs.permissions.may_view_player_page).
        self.linked_players = linked_players

    def render_rank(self, record):
        if record.rank is None:
            # Fewer tournaments than the season's minimum: listed, not ranked.
            return format_html('<abbr title="{}">–</abbr>', gettext("not ranked yet"))
        return rank_html(record.rank, record.tied)

    def render_name(self, record):
        if record.player_id in self.linked_players:
            return format_html(
                '<a class="player" href="{}">{}</a><span class="club-inline">{}</span>',
                reverse("tournaments:player_detail", args=[record.player_id]),
                record.name,
                record.club,
            )
        return format_html(
            '<span class="player">{}</span><span class="club-inline">{}</span>',
            record.name,
            record.club,
        )
