"""The big ranking tables (tournament and season standings), rendered without django-tables2.

A 160-player standings table has 1,300 cells and a season table 2,400: django-tables2 costs
about half a millisecond a cell there (it inspects each render method's signature per cell),
so these tables are built here as ready markup, row by row, and shown by
``tournaments/standings/_ranking_table.html``. The rows come in rank order from the selector
(``tournaments.selectors.standings``): a standings list has its own order and is not sortable.
django-tables2 stays for the organisers' lists (registration), which sort.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape as html_escape
from typing import Any

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import conditional_escape, escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from clubs.models import category_label
from tournaments.selectors.prizes import prize_groups

MINUS = "\u2212"
_ANY_PK = 987654321  # a player's number in an address, replaced by the real one  # a real minus sign: "−40" reads better than "-40" in large type


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


def signed_html(value: int | None) -> SafeString:
    # Plain string building: called for every cell of the big tables.
    return SafeString(f'<span class="{sign_class(value)}">{signed(value)}</span>')


def cup_html(cell: tuple[int, int] | None, total: int | None) -> SafeString:
    """A cup season's tournament cell: "3. · 16" (place, cup points), the tournament's own
    points beneath in small print; "–" where the player was absent."""
    if cell is None:
        return signed_html(None)
    place, points = cell
    return format_html(
        '<span class="cup-points">{}.&nbsp;·&nbsp;{}</span><small class="raw-points">{}</small>',
        place,
        points,
        signed(total),
    )


def rank_html(rank: int, tied: bool):
    if tied:
        return format_html('{}.<abbr class="tie-mark" title="{}">=</abbr>', rank, gettext("tied"))
    return f"{rank}."


def badges(*pairs: tuple[bool, str, str]):
    """Small labelled marks after a name: (shown?, css class, text)."""
    return format_html_join(
        "", ' <span class="badge badge-{}">{}</span>', ((c, t) for on, c, t in pairs if on)
    )


@dataclass(frozen=True)
class Header:
    label: str
    css: str = ""
    title: str = ""


@dataclass(frozen=True)
class Row:
    css: str
    id: str
    cells: SafeString  # the row's <td> elements


@dataclass(frozen=True)
class RankingTable:
    css: str
    headers: list[Header]
    rows: list[Row]
    empty_text: str


def _td(css: str, content) -> str:
    # conditional_escape without its lazy-string wrapper: called for every cell
    if not hasattr(content, "__html__"):
        content = html_escape(str(content))
    return f'<td class="{css}">{content}</td>'


def _name(record, extra="") -> SafeString:
    return SafeString(
        f'<span class="player">{html_escape(record.name)}</span>{conditional_escape(extra)}'
        f'<span class="club-inline">{html_escape(record.club)}</span>'
    )


def _player_headers() -> list[Header]:
    return [
        Header(gettext("Name")),
        Header(gettext("Club"), "col-club"),
        Header(gettext("Category"), "col-category"),
    ]


def _player_cells(record, name_html) -> list[str]:
    return [
        _td("name", name_html),
        _td("col-club", record.club),
        _td("col-category", category_label(record.category)),
    ]


def _linked_name(record, extra="") -> SafeString:
    """The name as a link to the player's results page (``seasons.views.players``)."""
    return format_html(
        '<a class="player" href="{}">{}</a>{}<span class="club-inline">{}</span>',
        reverse("seasons:player_detail", args=[record.player_id]),
        record.name,
        extra,
        record.club,
    )


def standings_table(
    rows: Iterable,
    *,
    round_numbers: tuple[int, ...],
    linked_players=frozenset(),
    scored: bool = True,
) -> RankingTable:
    """A tournament's standings, one row per ``StandingRow``. ``linked_players``: the players
    whose page everyone may open (``clubs.permissions.public_player_page_ids``): their name
    links to it; the others' is the name alone. ``scored`` False (no result counts yet):
    nobody has a rank, rather than everyone "1.=" on 0."""
    headers = [
        Header(gettext("Rank"), "number"),
        Header(gettext("No."), "number col-number"),
        *_player_headers(),
        *(Header(gettext("R%(number)s") % {"number": n}, "number round") for n in round_numbers),
        Header(gettext("Total"), "number total"),
    ]
    lot_badge, withdrawn_badge = gettext("decided by lot"), gettext("withdrawn")
    fill_in_badge, not_ranked = gettext("fill-in"), gettext("fill-in, not ranked")
    no_rank_yet = format_html('<abbr title="{}">–</abbr>', gettext("No results yet."))
    table_rows = []
    for record in rows:
        fill_in = getattr(record, "fill_in", False)
        tied, lot = record.tied and scored, record.decided_by_lot and scored
        marks = badges(
            (lot, "lot", lot_badge),
            (record.withdrawn, "withdrawn", withdrawn_badge),
            (fill_in, "fill-in", fill_in_badge),
        )
        linked = getattr(record, "player_id", None) in linked_players
        name = _linked_name(record, marks) if linked else _name(record, marks)
        if fill_in:
            rank = format_html('<abbr title="{}">–</abbr>', not_ranked)
        elif not scored:
            rank = no_rank_yet
        else:
            rank = rank_html(record.rank, record.tied)
        cells = [
            _td("number rank", rank),
            _td("number col-number", record.number),
            *_player_cells(record, name),
            *(_td("number round", signed_html(total)) for total in record.round_totals),
            _td("number total", signed_html(record.total)),
        ]
        css = " ".join(
            c
            for c, on in (
                ("tied", tied),
                ("lot", lot),
                ("withdrawn", record.withdrawn),
                ("fill-in", fill_in),
            )
            if on
        )
        table_rows.append(Row(css, f"entry-{record.entry_id}", mark_safe("".join(cells))))
    return RankingTable("standings-table", headers, table_rows, gettext("No results yet."))


def tournament_column_labels(tournaments: Iterable, *, year: bool = False) -> list[str]:
    """A season's tournament columns headed by date ("28.11."; "28.11.2026" with ``year``),
    never two alike: a date whose day and month another year's tournament shares gets its
    year, tournaments on the same date their host club's short name ("28.11. CC Triberg"; the
    tournament's name where the clubs do not tell them apart)."""
    tournaments = list(tournaments)
    labels = []
    for tournament in tournaments:
        day = f"{tournament.date:%d.%m.}"
        other_years = any(
            t.date != tournament.date and f"{t.date:%d.%m.}" == day for t in tournaments
        )
        label = f"{tournament.date:%d.%m.%Y}" if year or other_years else day
        same_date = [t for t in tournaments if t.date == tournament.date]
        if len(same_date) > 1:
            clubs = [_host_short_name(t) for t in same_date]
            club = _host_short_name(tournament)
            label = f"{label} {club if club and clubs.count(club) == 1 else tournament.name}"
        labels.append(label)
    return labels


def _host_short_name(tournament: Any) -> str:
    if not getattr(tournament, "host_club_id", None):
        return ""
    return getattr(tournament.host_club, "short_name", "") or ""


def season_table(
    rows: Iterable,
    *,
    tournaments=(),
    linked_players=frozenset(),
    qualification_text: Callable[[Any], str] | None = None,
    movement_html: Callable[[Any], str] | None = None,
    provisional: frozenset[int] = frozenset(),
) -> RankingTable:
    """A season's standings, one row per ``SeasonRow``, one column per tournament. The total
    comes before the 12 to 14 tournament columns: on a phone it is in sight without scrolling.
    A result that does not count (the best-N rule) is struck through; a player below the
    season's minimum of tournaments is listed without a rank. ``linked_players``: the players
    whose page the viewer may open (``clubs.permissions.player_pages_visible``).
    ``qualification_text`` (a row's ``qualification`` in words) adds the final's column where
    the season has that rule; ``movement_html`` (a row's ``movement`` as markup) follows the
    rank (both from ``seasons.words``). ``provisional``: the tournaments whose results are
    still provisional (``tournaments.selectors.finality``), marked "vorl." in their heading."""
    rows = list(rows)
    final = qualification_text is not None and any(
        getattr(record, "qualification", None) is not None for record in rows
    )
    headers = [
        Header(gettext("Rank"), "number"),
        *_player_headers(),
        Header(gettext("Total"), "number total"),
        Header(gettext("Played"), "number col-played"),
        *([Header(gettext("Final"), "col-final")] if final else []),
        *(
            _tournament_header(t, label, t.pk in provisional)
            for t, label in zip(tournaments, tournament_column_labels(tournaments), strict=True)
        ),
    ]
    not_counted, not_ranked = gettext("does not count"), gettext("not ranked yet")
    unranked = format_html('<abbr title="{}">–</abbr>', not_ranked)
    struck = f'<s title="{html_escape(not_counted)}">'
    # one reverse for every link: the address with the player's number put in
    before, after = reverse("seasons:player_detail", args=[_ANY_PK]).split(str(_ANY_PK))
    table_rows = []
    for record in rows:
        rank = unranked if record.rank is None else rank_html(record.rank, record.tied)
        movement = getattr(record, "movement", None)
        if movement_html is not None and movement is not None:
            rank = format_html("{}{}", rank, movement_html(movement))
        if record.player_id in linked_players:
            href = html_escape(f"{before}{record.player_id}{after}")
            name = SafeString(
                f'<a class="player" href="{href}">{html_escape(record.name)}</a>'
                f'<span class="club-inline">{html_escape(record.club)}</span>'
            )
        else:
            name = _name(record)
        results = []
        cup = getattr(record, "cup", ())
        for index, total in enumerate(record.tournament_totals):
            if cup:
                # Cup points: the place and its points, which the total adds up; the
                # tournament's own points only in small print.
                html = cup_html(cup[index], total)
                results.append(_td("number cup", html))
                continue
            html = signed_html(total)
            if record.counted and not record.counted[index]:
                html = SafeString(f"{struck}{html}</s>")
            results.append(_td("number", html))
        cells = [
            _td("number rank", rank),
            *_player_cells(record, name),
            # cup points are a count, not plus or minus points: no sign
            _td("number total", record.total if cup else signed_html(record.total)),
            _td("number col-played", record.tournaments_played),
            *([_final_td(record.qualification, qualification_text)] if final else []),
            *results,
        ]
        css = "" if record.ranked else "unranked"
        table_rows.append(Row(css, "", SafeString("".join(cells))))
    return RankingTable(
        "standings-table season-table", headers, table_rows, gettext("No results yet.")
    )


def provisional_mark() -> SafeString:
    """The "vorl." after a tournament's heading whose results are still provisional."""
    return format_html(
        '<abbr class="provisional-mark" title="{}">{}</abbr>',
        gettext("results provisional"),
        gettext("prov."),
    )


def _tournament_header(tournament: Any, label: str, provisional: bool) -> Header:
    title = f"{tournament.name} ({date_format(tournament.date, 'SHORT_DATE_FORMAT')})"
    if not provisional:
        return Header(label, "number", title)
    return Header(
        format_html("{} {}", label, provisional_mark()),
        "number provisional",
        f"{title} – {gettext('results provisional')}",
    )


def _final_td(qualification, text: Callable[[Any], str] | None) -> str:
    if qualification is None or text is None:
        return _td("col-final", "")
    state = (
        "qualified"
        if qualification.qualified
        # reachable None: the season's plan is unknown, so only what is missing is said
        else ("out-of-reach" if qualification.reachable is False else "missing")
    )
    return _td(f"col-final final-{state}", text(qualification))


@dataclass(frozen=True)
class Shown:
    """A standings row as a template shows it: rank and total already marked up."""

    row: Any  # a tournament's StandingRow or a season's SeasonRow
    rank: str
    total: str


def shown(
    rows, *, tied=lambda row: getattr(row, "tied", False), rank=None, scored: bool = True
) -> list[Shown]:
    """``scored`` False (no result counts yet): no rank for anybody."""
    no_rank_yet = format_html('<abbr title="{}">–</abbr>', gettext("No results yet."))
    return [
        Shown(
            row=row,
            rank=(
                format_html('<abbr title="{}">–</abbr>', gettext("fill-in, not ranked"))
                if getattr(row, "fill_in", False)
                else no_rank_yet
                if not scored
                else rank_html(row.rank if rank is None else rank(row), tied(row))
            ),
            total=signed_html(row.total),
        )
        for row in rows
    ]


def projector_rows_html(rows, *, scored: bool = True) -> SafeString:
    """The projector's list, a ``<tr>`` per ``StandingRow`` in rank order: "Last, First"
    (the first name also as its initial, which the page's script shows where room is short),
    a fill-in's badge, the club, the rank and the total. Written here rather than by a
    template loop: the board is rebuilt at every new revision, and the loop was half its
    time at 150 players."""
    fill_in = escape(gettext("fill-in"))
    out = []
    for item in shown(rows, scored=scored):
        row = item.row
        css = ("tied" if row.tied and scored else "") + (" withdrawn" if row.withdrawn else "")
        name = f'<span class="last">{escape(row.last_name)}</span>'
        if row.first_name:
            first = escape(row.first_name)
            initial = escape(row.first_name[0])
            name += (
                f', <span class="first-full">{first}</span>'
                f'<span class="first-short">{initial}.</span>'
            )
        extra = f' <span class="badge badge-fill-in">{fill_in}</span>' if row.fill_in else ""
        if row.club:
            extra += f' <span class="club">{escape(row.club)}</span>'
        out.append(
            f'\n      <tr class="{css}">\n'
            f'        <td class="number rank">{conditional_escape(item.rank)}</td>\n'
            f'        <td class="name"><span class="player">{name}</span>{extra}</td>\n'
            f'        <td class="number total">{item.total}</td>\n'
            "      </tr>\n    "
        )
    return mark_safe("".join(out))


# --- the standings page's side rankings and open ties, marked up ---------------------------


@dataclass(frozen=True)
class SideRankings:
    best_woman: list[Shown]
    best_youth: list[Shown]
    on_plus: list
    last: list[Shown]  # the "Mauskönig"


def side_rankings(standings) -> SideRankings:
    """Best woman, best youth, everyone on plus and the last place, as on the prize list."""
    groups = prize_groups(standings)
    return SideRankings(
        best_woman=shown(groups.best_woman),
        best_youth=shown(groups.best_youth),
        on_plus=groups.on_plus,
        last=shown(groups.last),
    )


def unresolved_groups(standings) -> list[list[Shown]]:
    """The ties the tournament's tie-break leaves open, each as its rows marked up."""
    by_entry = {row.entry_id: row for row in standings.rows}
    return [
        shown([by_entry[e] for e in group if e in by_entry]) for group in standings.unresolved_ties
    ]
