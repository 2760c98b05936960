"""The tournament day's lists over several pages (drawn with ReportLab): every row once and in
order, every page with its column heads, every second row of the whole list shaded, and the
page numbers ("Seite 2 / 4") counted over the whole document, whatever part of it (the team
ranking, a prize group) runs onto further pages.

These checks were made on WeasyPrint's pages rendered in parallel parts before; they hold the
new PDFs to the same properties."""

import gc
import io
import re
import subprocess
from dataclasses import replace

import pytest
from django.utils import translation
from PIL import Image
from pypdf import PdfReader

from printing import pdf, printouts
from tests.factories import TournamentFactory
from tests.printing.conftest import (
    numbered_entries,
    page_texts,
    pdf_pages,
    pdf_text,
    seat_round,
)
from tournaments.models import Substitution
from tournaments.selectors.standings import OpenTable, StandingRow, Standings, TeamInfo

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]

HEADS = r"Rank\s+No\.\s+Name\s+Club\s+Round 1\s+Round 2\s+Round 3\s+Total"


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def page_numbers(texts: list[str]) -> list[tuple[int, int]]:
    return [tuple(map(int, re.search(r"Page (\d+) / (\d+)", text).groups())) for text in texts]


def row(rank: int, *, entry_id: int | None = None) -> StandingRow:
    return StandingRow(
        rank=rank,
        entry_id=entry_id or rank,
        number=rank,
        first_name=f"Vorname{rank}",
        last_name=f"Nachname{rank:03d}",
        category="open",
        club="CF Bräunlingen" if rank % 3 else "",
        round_totals=(10 * rank, -rank, None if rank % 7 == 0 else 5),
        total=1000 - rank,
        deals_played=24,
        declarer_wins=3,
        tied=False,
        decided_by_lot=False,
        withdrawn=rank % 50 == 0,
    )


def standings_of(tournament, players: int, *, finished=True, teams=0) -> Standings:
    rows = tuple(row(rank) for rank in range(1, players + 1))
    return Standings(
        tournament=tournament,
        round_numbers=(1, 2, 3),
        rows=rows,
        open_tables=() if finished else (OpenTable(3, 1, 10, 0, 24),),
        unit="points",
        teams=tuple(
            TeamInfo(
                team_id=n,
                name=f"Mannschaft {n}",
                club="CF",
                entry_ids=tuple(range(4 * n - 3, 4 * n + 1)),
            )
            for n in range(1, teams + 1)
        ),
    )


def standings_pdf(monkeypatch, standings: Standings) -> bytes:
    monkeypatch.setattr(printouts, "tournament_standings", lambda tournament: standings)
    return printouts.standings_pdf(tournament=standings.tournament)


def ranks_by_page(texts: list[str], pattern=r"Nachname(\d{3})") -> list[list[int]]:
    return [[int(n) for n in re.findall(pattern, text)] for text in texts]


@pytest.mark.parametrize(
    ("venue", "finished"),
    [("", True), ("Stadthalle Bräunlingen", True), ("Stadthalle Bräunlingen", False)],
)
def test_standings_every_page_headed_and_numbered(monkeypatch, pdftotext, english, venue, finished):
    tournament = TournamentFactory(name="Großes Cego-Turnier", venue=venue)
    content = standings_pdf(monkeypatch, standings_of(tournament, 150, finished=finished))
    texts = pdf_text(pdftotext, content, layout=True).split("\f")[: pdf_pages(content)]
    assert pdf_pages(content) == 4
    assert page_numbers(texts) == [(1, 4), (2, 4), (3, 4), (4, 4)]
    for text in texts:
        assert re.search(HEADS, text)  # the column heads on every page
    pages = ranks_by_page(texts)
    assert [rank for page in pages for rank in page] == list(range(1, 151))  # once, in order
    # as many rows a page as the WeasyPrint printout had: 41 under the head (40 with a third
    # line beside the title), 44 on the others
    assert len(pages[0]) == (40 if venue and not finished else 41)
    assert len(pages[1]) == len(pages[2]) == 44
    assert "Standings" in texts[0] and all("Standings" not in text for text in texts[1:])
    assert "L: place decided by lot." in texts[-1]
    assert ("provisional" in texts[0]) is not finished
    assert ("Stadthalle Bräunlingen" in texts[0]) is bool(venue)


def test_long_names_wrap_and_their_pages_take_fewer_rows(monkeypatch, pdftotext, english):
    standings = standings_of(TournamentFactory(), 150)
    rows = tuple(
        replace(
            row,
            last_name="Schwarzwälder-Kirschbaum-Hintermeier",
            first_name=f"Maximilian{row.rank:03d}",
            club="Cegofreunde Bräunlingen-Döggingen",
        )
        if row.rank % 9 == 0
        else row
        for row in standings.rows
    )
    content = standings_pdf(monkeypatch, replace(standings, rows=rows))
    texts = page_texts(pdftotext, content)
    pages = ranks_by_page(texts, r"(?:Nachname|Maximilian)(\d{3})")
    assert len(pages[1]) < 44  # taller rows: fewer a page
    assert [rank for page in pages for rank in page] == list(range(1, 151))
    # a wrapped row is not cut in two: its name's lines on one page
    for text in texts:
        assert text.count("Hintermeier") == text.count("Maximilian")
    assert page_numbers(texts) == [(n, len(texts)) for n in range(1, len(texts) + 1)]


def _row_shades(pdftotext, pdftoppm, content: bytes, tmp_path) -> list[tuple[int, bool]]:
    """(rank, shaded) for every row on every page: the page's pixel left of the rank (the rank
    column's empty part), at the height of the row's name."""
    path = tmp_path / "list.pdf"
    path.write_bytes(content)
    boxes = subprocess.run(
        [pdftotext, "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    found = []
    for number, page in enumerate(boxes.split("<page ")[1:], start=1):
        subprocess.run(
            [pdftoppm, "-png", "-r", "72", "-f", str(number), "-l", str(number), "-singlefile"]
            + [str(path), str(tmp_path / "page")],
            check=True,
        )
        image = Image.open(tmp_path / "page.png").convert("L")
        for y_min, y_max, rank in re.findall(
            r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">Nachname(\d{3}),?<', page
        ):
            y = round((float(y_min) + float(y_max)) / 2)
            found.append((int(rank), image.getpixel((40, y)) < 250))  # 14 mm from the edge
    return found


def test_every_second_row_of_the_whole_list_is_shaded(
    monkeypatch, pdftotext, pdftoppm, tmp_path, english
):
    content = standings_pdf(monkeypatch, standings_of(TournamentFactory(), 100))
    assert pdf_pages(content) == 3
    shades = _row_shades(pdftotext, pdftoppm, content, tmp_path)
    assert [rank for rank, _shaded in shades] == list(range(1, 101))
    # across the page breaks too: the first row of page 2 (rank 42) is shaded
    assert [shaded for _rank, shaded in shades] == [rank % 2 == 0 for rank in range(1, 101)]


def test_a_team_ranking_of_several_pages_keeps_the_numbers_right(monkeypatch, pdftotext, english):
    """The team ranking after the last rows takes pages of its own: counted all the same, its
    column heads on each of them."""
    standings = standings_of(TournamentFactory(), 120, teams=30)
    content = standings_pdf(monkeypatch, standings)
    texts = page_texts(pdftotext, content)
    pages = pdf_pages(content)
    assert pages > 3  # 120 rows take three
    assert page_numbers(texts) == [(number, pages) for number in range(1, pages + 1)]
    assert "Team ranking" in "".join(texts[2:]) and "Mannschaft 30" in texts[-1]
    assert "Nachname120" in texts[2]
    teams = [text for text in texts if "Mannschaft" in text]
    assert len(teams) > 1 and all("Members" in text for text in teams)
    shown = [int(n) for n in re.findall(r"Mannschaft (\d+)", "".join(texts))]
    assert sorted(shown) == list(range(1, 31)) and len(shown) == 30  # each team once


def test_seat_plan_pages_every_page_headed(pdftotext, english):
    tournament = TournamentFactory(name="Großes Cego-Turnier")
    entries = numbered_entries(tournament, 160)
    seat_round(tournament, entries, [4] * 40)
    content = printouts.seat_plan_pdf(tournament=tournament, round_number=1)
    texts = page_texts(pdftotext, content)
    assert page_numbers(texts) == [(1, 3), (2, 3), (3, 3)]
    for text in texts:
        assert "Seat plan – Round 1" in text and "Table" in text and "Seat" in text
        assert "Großes Cego-Turnier" in text and "160 players" in text
    names = re.findall(r"Spieler(\d{3})", "".join(texts))
    assert names == [f"{n:03d}" for n in range(1, 161)]
    assert len(re.findall(r"Spieler\d{3}", texts[0])) == 76  # two columns of 38


def test_table_cards_two_a_sheet_in_order(pdftotext, english):
    tournament = TournamentFactory()
    entries = numbered_entries(tournament, 40)
    seat_round(tournament, entries, [4] * 10)
    content = printouts.table_cards_pdf(tournament=tournament, round_number=1)
    texts = page_texts(pdftotext, content)
    assert len(texts) == 5
    for sheet, text in enumerate(texts):
        # Two tables a sheet, each with its four players.
        first = 8 * sheet + 1
        names = re.findall(r"Spieler(\d{3})", text)
        assert names == [f"{n:03d}" for n in range(first, first + 8)]
        assert "Page" not in text  # table cards have no footer
        assert re.findall(r"TABLE\s+(\d+)", text) == [str(2 * sheet + 1), str(2 * sheet + 2)]


def test_prize_list_numbered_over_its_groups(monkeypatch, pdftotext, english):
    """A prize group over several pages: the column heads again on each, the page numbers
    over the whole list."""
    standings = standings_of(TournamentFactory(), 150)
    monkeypatch.setattr(printouts, "tournament_standings", lambda tournament: standings)
    content = printouts.prizes_pdf(tournament=standings.tournament)
    texts = page_texts(pdftotext, content)
    pages = pdf_pages(content)
    assert pages >= 3
    assert page_numbers(texts) == [(number, pages) for number in range(1, pages + 1)]
    listed = [rank for page in ranks_by_page(texts) for rank in page]
    # everyone on plus, once and in order (the withdrawn, every 50th, take no prize), then
    # the last place
    assert listed == [rank for rank in range(1, 151) if rank % 50] + [149]
    layouts = pdf_text(pdftotext, content, layout=True).split("\f")[:pages]
    for layout in layouts[:-1]:  # the list of everyone on plus runs over these pages
        assert re.search(r"Rank\s+No\.\s+Name\s+Club\s+Total\s+Received", layout)
    assert "Best woman" in texts[-1] and "nobody" in texts[-1]


def test_german_page_numbers(monkeypatch, pdftotext):
    with translation.override("de"):
        standings = standings_of(TournamentFactory(), 60)
        texts = page_texts(pdftotext, standings_pdf(monkeypatch, standings))
    assert [re.search(r"Seite \d+ / \d+", text).group() for text in texts] == [
        "Seite 1 / 2",
        "Seite 2 / 2",
    ]
    assert all("Rang" in text and "Gesamt" in text for text in texts)


def test_standings_without_rows_are_one_page(monkeypatch, pdftotext, english):
    content = standings_pdf(monkeypatch, standings_of(TournamentFactory(), 0))
    assert page_numbers(page_texts(pdftotext, content)) == [(1, 1)]


def test_every_page_is_compressed_and_the_fonts_come_once(monkeypatch):
    """Each page's drawing is compressed, the fonts embedded once for the whole list (a
    150-player list is no larger than a few of its pages' worth)."""
    content = standings_pdf(monkeypatch, standings_of(TournamentFactory(), 150))
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 4
    for page in reader.pages:
        filters = page["/Contents"].get_object()["/Filter"]
        assert [filters] if isinstance(filters, str) else list(filters) == ["/FlateDecode"]
    fonts = {
        str(font["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert len(fonts) <= 4  # regular, bold, italic, bold italic: subsets shared by all pages
    assert len(content) < 120_000


def test_weasyprint_pauses_the_garbage_collector_only_while_it_renders(weasyprint):
    """The documents still made with WeasyPrint (season, player list, tariff cards)."""
    assert gc.isenabled()
    pdf.html_to_pdf("<p>Cego</p>", ".")
    assert gc.isenabled()
    gc.disable()
    try:
        pdf.html_to_pdf("<p>Cego</p>", ".")
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()


def _words_with_boxes(pdftotext, content: bytes, tmp_path) -> list[list[tuple[float, ...]]]:
    """Per page: (xMin, yMin, xMax, yMax) of every word, in points from the top left."""
    path = tmp_path / "boxes.pdf"
    path.write_bytes(content)
    boxes = subprocess.run(
        [pdftotext, "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    pattern = r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"'
    return [
        [tuple(map(float, box)) for box in re.findall(pattern, page)]
        for page in boxes.split("<page ")[1:]
    ]


def test_a_crowded_table_stays_on_its_card(pdftotext, english, tmp_path):
    """Five players with long names, a substitute for each: smaller type, nothing runs off the
    card (or over the table's number) and nothing is cut."""
    tournament = TournamentFactory(
        name="Großes Cego-Turnier der Cegofreunde Bräunlingen", tables_of_5=True
    )
    entries = numbered_entries(tournament, 10)
    for entry in entries:
        entry.player.last_name = "Schwarzwälder-Kirschbaum-Hintermeier"
        entry.player.first_name = f"Maximilian-Theodor{entry.number:03d}"
        entry.player.save()
    _round, tables = seat_round(tournament, entries[:5], [5])
    for position, substitute in enumerate(entries[5:]):
        seat = tables[0].seats.get(position=position)
        Substitution.objects.create(seat=seat, entry=substitute, from_deal=13, reason="krank")
    content = printouts.table_cards_pdf(tournament=tournament, round_number=1)
    text = pdf_text(pdftotext, content)
    for number in range(1, 11):  # every player and substitute, whole
        assert f"Theodor{number:03d} ({number})" in text
    card_bottom = 297 / 2 / 25.4 * 72
    (words,) = _words_with_boxes(pdftotext, content, tmp_path)
    assert all(y_max <= card_bottom - 8 / 25.4 * 72 for _x, _y, _x2, y_max in words)
    assert all(x_max <= (210 - 14) / 25.4 * 72 + 0.5 for _x, _y, x_max, _y2 in words)


def test_seat_plan_sets_long_names_smaller_instead_of_cutting_them(pdftotext, english):
    tournament = TournamentFactory()
    entries = numbered_entries(tournament, 8)
    names = [
        ("Schwarzwälder-Kirschbaum", "Theresia 146"),
        ("Scherzinger-Überlinger", "Maximilian-Theodor 1234"),
        (
            "Ober" * 15,
            "Evamaria" * 7 + "ria",
        ),  # as long as the fields allow: cut at the smallest size
    ]
    for entry, (last, first) in zip(entries, names, strict=False):
        entry.player.last_name, entry.player.first_name = last, first
        entry.player.save()
    seat_round(tournament, entries, [4, 4])
    text = pdf_text(pdftotext, printouts.seat_plan_pdf(tournament=tournament, round_number=1))
    assert "Schwarzwälder-Kirschbaum, Theresia 146" in text
    assert "Scherzinger-Überlinger, Maximilian-Theodor 1234" in text
    assert "OberOber" in text and "…" in text and text.count("…") == 1
