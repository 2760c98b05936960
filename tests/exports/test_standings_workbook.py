import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Category
from exports.standings import tournament_standings_rows
from exports.xlsx import SIGNED_FORMAT, Points, Sheet, sheet_title, write_workbook
from tests.factories import EntryFactory, SeasonFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, entries_of, table_of
from tournaments.selectors.standings import tournament_standings
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db


def workbook_from(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert response["Content-Disposition"].startswith("attachment;")
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return load_workbook(io.BytesIO(content))


def test_tournament_workbook(client, tournament, one_table, organiser):
    first, *others = entries_of(one_table)
    client.force_login(organiser)
    book = workbook_from(
        client.get(reverse("exports:standings_xlsx", kwargs={"pk": tournament.pk}))
    )
    assert book.sheetnames == ["Standings", "Open tables"]
    sheet = book["Standings"]
    header = [cell.value for cell in sheet[1]]
    assert header == [
        "Rank",
        "No.",
        "First name",
        "Last name",
        "Club",
        "Category",
        "Round 1",
        "Total",
        "Deals played",
        "Deals won as declarer",
        "Note",
    ]
    assert all(cell.font.bold for cell in sheet[1])
    assert sheet.freeze_panes == "E2"
    winner = [cell.value for cell in sheet[2]]
    assert winner[:4] == [1, first.number, first.player.first_name, first.player.last_name]
    assert winner[6:10] == [30, 30, 1, 1]
    assert sheet.cell(row=2, column=8).number_format == SIGNED_FORMAT
    assert not sheet.cell(row=2, column=1).font.bold
    tied = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=3)]
    assert [row[0] for row in tied] == [2, 2, 2]
    assert [row[7] for row in tied] == [-10, -10, -10]
    assert all(row[10] == "tied" for row in tied)
    assert sheet.max_row == 5

    open_tables = book["Open tables"]
    assert [c.value for c in open_tables[1]][0] == "Round"
    assert [c.value for c in open_tables[2]] == [1, 1, 1, 0, 24]
    assert open_tables.freeze_panes == "A2"


def test_season_workbook(client, organiser):
    season = SeasonFactory(name="Saison 2026/27")
    first = TournamentFactory(season=season, name="Bräunlingen")
    second = TournamentFactory(season=season, name="Auggen", date=first.date.replace(day=29))
    players = [EntryFactory(tournament=first) for _ in range(4)]
    enter_deal(table=table_of(tournament=first, entries=players), number=1, inputs=cego(0, 45))
    again = [EntryFactory(tournament=second, player=e.player) for e in players[:3]]
    again.append(EntryFactory(tournament=second, category=Category.YOUTH))
    enter_deal(table=table_of(tournament=second, entries=again), number=1, inputs=cego(0, 34))
    client.force_login(organiser)
    book = workbook_from(
        client.get(reverse("exports:season_standings_xlsx", kwargs={"pk": season.pk}))
    )
    assert book.sheetnames == [
        "Overview",
        "Season standings",
        "28.11. Bräunlingen",
        "29.11. Auggen",
        "Deals",
        "Side rankings",
        "Teams",
    ]
    sheet = book["Season standings"]
    header = [cell.value for cell in sheet[1]]
    assert header[5:] == [
        "28.11.2026",
        "29.11.2026",
        "Total",
        "Tournaments played",
        "Change of place",  # since the season's previous tournament
    ]
    rows = {(r[1], r[2]): r for r in sheet.iter_rows(min_row=2, values_only=True)}
    declarer = players[0].player
    assert rows[(declarer.first_name, declarer.last_name)][5:9] == (30, -30, 0, 2)
    # after the first tournament: the declarer first, the others tied second; after the second
    # the newcomer leads, three tie second and the one absent falls to fifth
    assert sorted(r[9] for r in rows.values()) == sorted(["new", "▼1", "±0", "±0", "▼3"])
    assert rows[(declarer.first_name, declarer.last_name)][9] == "▼1"
    newcomer = again[3].player
    assert rows[(newcomer.first_name, newcomer.last_name)][5] is None  # absent: empty cell
    assert sheet.max_row == 6
    assert sheet.freeze_panes == "D2"
    assert sheet.auto_filter.ref == "A1:J6"


def test_row_generator_yields_header_first(tournament, one_table):
    rows = list(tournament_standings_rows(tournament_standings(tournament=tournament)))
    assert rows[0][0] == "Rank" and len(rows) == 5
    assert isinstance(rows[1][7], Points) and rows[1][7] == 30


def test_writer_streams_any_rows():
    def numbers():
        yield ["n", "signed"]
        for n in range(-1, 2):
            yield [n, Points(n)]

    book = load_workbook(io.BytesIO(write_workbook([Sheet("a/b:c*d[e]", numbers())])))
    sheet = book.active
    assert sheet.title == "a b c d e"
    assert [[c.value for c in row] for row in sheet.iter_rows(min_row=2)] == [
        [-1, -1],
        [0, 0],
        [1, 1],
    ]
    assert sheet["B2"].number_format == SIGNED_FORMAT and sheet["A2"].number_format == "General"
    assert sheet_title("x" * 40) == "x" * 30 + "…"  # 31 characters, marked as cut


FORMULAS = ['=HYPERLINK("https://evil.example","Klick")', "+1+1", "-2+3", "@SUM(A1:A2)"]


@pytest.mark.parametrize("evil", FORMULAS)
def test_a_name_that_looks_like_a_formula_stays_text(
    client, tournament, one_table, organiser, evil
):
    """The issue's case: a player named =HYPERLINK(…) was a live formula in Excel."""
    first = entries_of(one_table)[0]
    first.player.first_name = evil
    first.player.save()
    tournament.host_club.short_name = evil[:20]
    tournament.host_club.save()
    season = SeasonFactory(name=f"{evil} Saison")
    tournament.season = season
    tournament.name = evil
    tournament.save()
    client.force_login(organiser)
    for url in (
        reverse("exports:standings_xlsx", kwargs={"pk": tournament.pk}),
        reverse("exports:season_standings_xlsx", kwargs={"pk": season.pk}),
    ):
        book = workbook_from(client.get(url))
        cells = [cell for sheet in book for row in sheet.iter_rows() for cell in row]
        risky = [c for c in cells if isinstance(c.value, str) and c.value[:1] in "=+-@"]
        assert any(evil in c.value for c in risky), url  # the name is there, as given
        for cell in risky:
            assert cell.data_type == "s", (url, cell.coordinate, cell.value)
            assert cell.quotePrefix, (url, cell.coordinate)


def test_numbers_stay_numbers_next_to_safe_text():
    content = write_workbook([Sheet("x", [["h"], ["=1+1", Points(-40), -3, "ok"]])])
    row = [cell for cell in load_workbook(io.BytesIO(content)).active[2]]
    assert [(c.value, c.data_type) for c in row] == [
        ("=1+1", "s"),
        (-40, "n"),
        (-3, "n"),
        ("ok", "s"),
    ]
    assert row[1].number_format == SIGNED_FORMAT
