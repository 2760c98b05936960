"""Printouts split into parts (a page of the standings or the seat plan, a sheet of table cards)
and rendered by the worker processes: the same pages in the same order, every page with its
column heads, and page numbers counted over the whole document, not per part."""

import gc
import io
import re
from dataclasses import replace

import pytest
from django.utils import translation
from pypdf import PdfReader

from printing import pdf, pdf_worker, printouts
from tests.factories import TournamentFactory
from tests.printing.conftest import (
    numbered_entries,
    page_texts,
    pdf_pages,
    pdf_text,
    seat_round,
)
from tournaments.selectors.standings import OpenTable, StandingRow, Standings, TeamInfo

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]


@pytest.fixture(params=[1, 2], ids=["in-process", "workers"])
def workers(request, settings, monkeypatch):
    """Both ways: one document in-process, and parts in two worker processes (started here, as
    the draw page starts them). Yields how many PDFs were joined from runs at the end."""
    settings.PDF_WORKERS = request.param
    if request.param > 1:
        pdf.start_workers()
    joined = []
    real_join = pdf._join

    def counting_join(pdfs, **kwargs):
        joined.append(len(pdfs))
        return real_join(pdfs, **kwargs)

    monkeypatch.setattr(pdf, "_join", counting_join)
    yield request.param
    # In the workers, two runs were joined; in-process, nothing was.
    assert joined == ([2] * len(joined) if request.param > 1 else [])
    assert joined or request.param == 1


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def page_numbers(texts: list[str]) -> list[tuple[int, int]]:
    return [tuple(map(int, re.search(r"Page (\d+) / (\d+)", text).groups())) for text in texts]


def page_words(content: bytes) -> list[str]:
    pages = PdfReader(io.BytesIO(content)).pages
    return [" ".join(page.extract_text().split()) for page in pages]


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


@pytest.mark.parametrize(
    ("venue", "finished"),
    [("", True), ("Stadthalle Bräunlingen", True), ("Stadthalle Bräunlingen", False)],
)
def test_standings_one_part_a_page_every_page_headed_and_numbered(
    monkeypatch, pdftotext, english, workers, venue, finished
):
    tournament = TournamentFactory(name="Großes Cego-Turnier", venue=venue)
    standings = standings_of(tournament, 150, finished=finished)
    chunks = pages_of(standings)
    content = standings_pdf(monkeypatch, standings)
    texts = pdf_text(pdftotext, content, layout=True).split("\f")[: pdf_pages(content)]
    # No part runs over its page: as many pages as parts, each with its own rows.
    assert len(chunks) == pdf_pages(content) == 4
    assert page_numbers(texts) == [(1, 4), (2, 4), (3, 4), (4, 4)]
    shown = []
    for text, chunk in zip(texts, chunks, strict=True):
        assert re.search(r"Rank\s+No\.\s+Name\s+Club\s+Round 1\s+Round 2\s+Round 3\s+Total", text)
        names = re.findall(r"Nachname(\d{3})", text)
        assert names == [f"{standing.rank:03d}" for standing, _ in chunk]
        shown += names
    assert shown == [f"{rank:03d}" for rank in range(1, 151)]  # every row once, in order
    assert "Standings" in texts[0] and all("Standings" not in text for text in texts[1:])
    assert "L: place decided by lot." in texts[-1]
    assert ("provisional" in texts[0]) is not finished


def pages_of(standings):
    return printouts._standings_pages(standings, printouts._standings_columns(standings))


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
    standings = replace(standings, rows=rows)
    pages = pages_of(standings)
    assert len(pages[1]) < 44  # taller rows: fewer a page
    content = standings_pdf(monkeypatch, standings)
    texts = page_texts(pdftotext, content)
    assert pdf_pages(content) == len(pages)  # no page ran over
    for text, chunk in zip(texts, pages, strict=True):
        shown = re.findall(r"(?:Nachname|Maximilian)(\d{3})", text)
        assert shown == [f"{standing.rank:03d}" for standing, _ in chunk]
    assert page_numbers(texts) == [(n, len(pages)) for n in range(1, len(pages) + 1)]


def test_standings_shade_every_second_row_across_pages(monkeypatch):
    tournament = TournamentFactory()
    chunks = pages_of(standings_of(tournament, 100))
    shaded = [flag for chunk in chunks for _, flag in chunk]
    assert shaded == [index % 2 == 1 for index in range(100)]


def test_a_last_part_of_several_pages_keeps_the_numbers_right(
    monkeypatch, pdftotext, english, workers
):
    """The team ranking after the last rows takes pages of its own: counted all the same."""
    tournament = TournamentFactory()
    standings = standings_of(tournament, 120, teams=30)
    content = standings_pdf(monkeypatch, standings)
    texts = page_texts(pdftotext, content)
    pages = pdf_pages(content)
    assert pages > len(pages_of(standings))
    assert page_numbers(texts) == [(number, pages) for number in range(1, pages + 1)]
    assert "Team ranking" in "".join(texts[3:]) and "Mannschaft 30" in texts[-1]
    assert "Nachname120" in texts[2]


def test_seat_plan_pages_in_parallel(pdftotext, english, workers):
    tournament = TournamentFactory(name="Großes Cego-Turnier")
    entries = numbered_entries(tournament, 100)
    seat_round(tournament, entries, [4] * 25)
    content = printouts.seat_plan_pdf(tournament=tournament, round_number=1)
    texts = page_texts(pdftotext, content)
    assert page_numbers(texts) == [(1, 2), (2, 2)]
    for text in texts:
        assert "Seat plan – Round 1" in text and "Table" in text and "Seat" in text
    names = re.findall(r"Spieler(\d{3})", "".join(texts))
    assert names == [f"{n:03d}" for n in range(1, 101)]


def test_table_cards_one_sheet_a_part_in_order(pdftotext, english, workers):
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


def test_page_numbers_over_parts_of_different_lengths(settings, english):
    """The document's margin boxes over the joined runs: a part of two pages shifts the next."""
    settings.PDF_WORKERS = 2
    pdf.start_workers()
    head = (
        "<html><head><style>@page { size: A6; margin: 10mm;"
        ' @bottom-right { content: "P " counter(page) " of " counter(pages); } }'
        " section { break-after: page; } section:last-child { break-after: auto; }"
        "</style></head><body>"
    )
    parts = ["<section>A</section>", '<section>B<p style="break-before: page">B2</p></section>']
    parts += [f"<section>{letter}</section>" for letter in "CDEFGHIJ"]
    html = head + "".join(pdf.PART_MARK + part for part in parts) + "</body></html>"
    content = pdf.html_to_pdf(html)
    in_process = pdf_worker.render(html, ".")
    texts, expected = page_words(content), page_words(in_process)
    assert len(texts) == 11
    assert texts == expected  # as the one document in-process numbers them
    assert texts[2] == "B2 P 3 of 11"


def test_rendering_pauses_the_garbage_collector_only_while_it_renders():
    assert gc.isenabled()
    pdf_worker.render("<p>Cego</p>", ".")
    assert gc.isenabled()
    gc.disable()
    try:
        pdf_worker.render("<p>Cego</p>", ".")
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()


def test_german_page_numbers_over_the_parts(monkeypatch, pdftotext, workers):
    with translation.override("de"):
        standings = standings_of(TournamentFactory(), 60)
        texts = page_texts(pdftotext, standings_pdf(monkeypatch, standings))
    assert [re.search(r"Seite \d+ / \d+", text).group() for text in texts] == [
        "Seite 1 / 2",
        "Seite 2 / 2",
    ]
    assert all("Rang" in text and "Gesamt" in text for text in texts)


def test_standings_without_rows_are_one_page(monkeypatch, pdftotext, english, settings):
    settings.PDF_WORKERS = 2  # one part: rendered in-process all the same
    content = standings_pdf(monkeypatch, standings_of(TournamentFactory(), 0))
    assert page_numbers(page_texts(pdftotext, content)) == [(1, 1)]


def test_joined_pages_stay_compressed(monkeypatch, settings):
    """The page numbers merged into each page leave its drawing compressed: the PDF from the
    workers is not much larger than the one rendered in one piece (fonts come once per run)."""
    standings = standings_of(TournamentFactory(), 150)
    settings.PDF_WORKERS = 1
    in_one_piece = standings_pdf(monkeypatch, standings)
    settings.PDF_WORKERS = 2
    pdf.start_workers()
    joined = standings_pdf(monkeypatch, standings)
    assert pdf_pages(joined) == pdf_pages(in_one_piece) == 4
    assert len(joined) < 2 * len(in_one_piece)
