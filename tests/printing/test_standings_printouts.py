import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.printing.conftest import pdf_pages, pdf_text
from tests.printing.test_printouts import get_pdf, render_png
from tournaments.models import Deal, LotDraw, Round
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.standings import tournament_standings

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]


def deal(table, number, scores, status=Deal.Status.CONFIRMED):
    d = Deal(table=table, number=number, contract="solo", declarer_position=0, status=status)
    d.set_scores(scores)
    d.save()
    return d


@pytest.fixture
def played(cego_round):
    """Round 1 played: table 1 and 2 one deal each, table 3 two deals (the substitute in the 2nd)."""
    t1, t2, t3 = cego_round["tables"]
    deal(t1, 1, [30, -10, -10, -10])  # Faller +30, Blümle/Schwarzwälder/Öhler -10
    deal(t2, 1, [-6, 2, 2, 2])  # Baumann -6, Zähringer/Ackermann/Maier +2
    deal(t3, 1, [8, -2, -2, -2, -2])  # Kuner +8, Duffner/Straub/Hättich/Gißler -2
    deal(t3, 13, [-20, 5, 5, 5, 5])  # the substitute Ersatzmann plays seat 2
    round_ = cego_round["round"]
    round_.state = Round.State.CLOSED
    round_.save()
    return cego_round


def test_standings_pdf(staff_client, played, pdftotext, pdftoppm, tmp_path):
    tournament = played["tournament"]
    content = get_pdf(staff_client, "print_standings", tournament.pk)
    render_png(pdftoppm, content, tmp_path, "standings")
    assert pdf_pages(content) == 1
    text = pdf_text(pdftotext, content, layout=True)
    lines = [line.split() for line in text.splitlines()]
    assert ["1.", "1", "Faller,", "Hans-Peter", "30", "30"] in lines
    # Blümle, Schwarzwälder-Kirschbaum and Öhler share -10: a tie, marked "="
    tied = [line for line in lines if line and line[-1] == "-10"]
    assert len(tied) == 3 and all("=" in line for line in tied)
    assert "Ersatzmann," in text and "Round 1" in text


def test_standings_mark_a_tie_decided_by_lot(staff_client, played, pdftotext):
    tournament = played["tournament"]
    standings = tournament_standings(tournament=tournament)
    tied = [row.entry_id for row in standings.rows if row.total == -10]
    LotDraw.objects.create(tournament=tournament, seed=1, order=tied)
    text = pdf_text(pdftotext, get_pdf(staff_client, "print_standings", tournament.pk), layout=True)
    lines = [line.split() for line in text.splitlines()]
    marked = [line for line in lines if line and line[-1] == "-10"]
    assert [line[:2] for line in marked] == [["11.", "L"], ["12.", "L"], ["13.", "L"]]


def test_prize_groups(played):
    standings = tournament_standings(tournament=played["tournament"])
    groups = prize_groups(standings)
    plus = [row.last_name for row in groups.on_plus]
    assert plus[0] == "Faller" and "Ersatzmann" in plus and "Kuner" not in plus
    assert all(row.total > 0 for row in groups.on_plus)
    # women: Blümle and Öhler (both -10, tied): both listed; youth: Zähringer (+2)
    assert sorted(row.last_name for row in groups.best_woman) == ["Blümle", "Öhler"]
    assert [row.last_name for row in groups.best_youth] == ["Zähringer"]
    assert [row.last_name for row in groups.last] == ["Kuner"]  # 8 - 20


def test_prizes_pdf(staff_client, played, pdftotext, pdftoppm, tmp_path):
    content = get_pdf(staff_client, "print_prizes", played["tournament"].pk)
    render_png(pdftoppm, content, tmp_path, "prizes")
    text = pdf_text(pdftotext, content)
    for heading in ("Everyone on plus", "Best woman", "Best youth", "Last place (Mauskönig)"):
        assert heading in text
    assert "Faller" in text and "Zähringer" in text and "Kuner" in text
    assert "provisional" not in text


def test_standings_are_staff_only(client, played):
    for name in ("print_standings", "print_prizes"):
        url = reverse(f"printing:{name}", args=[played["tournament"].pk])
        assert client.get(url).status_code == 302


def test_withdrawn_players_get_no_prize(played):
    entry = played["entries"][0]  # Faller, the winner
    entry.withdrawn_after_round = 1
    entry.save()
    standings = tournament_standings(tournament=played["tournament"])
    groups = prize_groups(standings)
    assert "Faller" not in [row.last_name for row in groups.on_plus]
    assert any(row.last_name == "Faller" for row in standings.rows)


@pytest.mark.parametrize(
    "name", ["print_seat_plan", "print_table_cards", "print_standings", "print_prizes"]
)
def test_without_dejavu_the_printouts_use_the_fonts_reportlab_ships(
    monkeypatch, staff_client, played, pdftotext, name
):
    """A Windows laptop has no DejaVu: the Vera fonts ReportLab ships, umlauts and all."""
    from printing import drawing

    monkeypatch.setattr(drawing, "FONT_DIRS", ())
    drawing.fonts.cache_clear()
    try:
        assert drawing.fonts().missing_glyphs
        tournament = played["tournament"]
        args = (
            [tournament.pk] if name in ("print_standings", "print_prizes") else [tournament.pk, 1]
        )
        content = get_pdf(staff_client, name, *args)
    finally:
        drawing.fonts.cache_clear()
        monkeypatch.undo()
        drawing.fonts()  # DejaVu registered again for the tests that follow
    reader = PdfReader(io.BytesIO(content))
    fonts = {
        str(font["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert fonts and all("Vera" in font for font in fonts)
    text = pdf_text(pdftotext, content)
    assert "Blümle" in text and "Gißler" in text and "Bräunlinger Cego-Turnier" in text
