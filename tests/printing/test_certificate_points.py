"""Issue 28: a certificate never says "mit −100 Punkten". A certificate honours the place; a
total of zero or below (common in a side ranking: the best youth on minus) gets no points line,
as an organiser pinning it up would leave it off. A total above zero is said as before."""

import io
from types import SimpleNamespace

import pytest
from django.utils import translation
from pypdf import PdfReader

from printing import certificates
from printing.printouts import _certificate_text
from tournaments.selectors.prizes import OVERALL, Placing

pytestmark = pytest.mark.pdf

OCCASION = certificates.Occasion(
    tournament="Bräunlinger Cego-Turnier",
    date="am 28.11.2026",
    place="Stadthalle",
    signed_at="Bräunlingen, 28.11.2026",
)


def text_of(total: int) -> certificates.CertificateText:
    row = SimpleNamespace(name="Lena Zähringer", club="CC Bräunlingen")
    with translation.override("de"):
        return _certificate_text(Placing(ranking=OVERALL, place=3, total=total, row=row))


@pytest.mark.parametrize("total", [-100, -1, 0])
def test_no_points_line_for_a_total_of_zero_or_below(total):
    text = text_of(total)
    assert text.points == ""
    with translation.override("de"):
        pdf = certificates.certificates_pdf(occasion=OCCASION, texts=[text])
    page = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Lena Zähringer" in page and "belegte den 3. Platz" in page
    assert "Punkt" not in page and "\u2212" not in page


@pytest.mark.parametrize("total, words", [(1, "mit 1 Punkt"), (240, "mit 240 Punkten")])
def test_a_total_above_zero_is_said(total, words):
    assert text_of(total).points == words
