"""Certificates: one A4 portrait page per place of the overall ranking, of each category's
side ranking and of the complete teams; "Urkunde", the tournament, the name, "belegte den
1. Platz", the ranking, the points and two lines to sign."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from clubs.models import Category
from tests.factories import ClubFactory
from tests.printing.conftest import page_texts, pdf_pages
from tests.printing.test_german_printouts import german_client  # noqa: F401 (fixture)
from tests.printing.test_printouts import get_pdf, render_png
from tests.printing.test_standings_printouts import played  # noqa: F401 (fixture)
from tournaments.models import Entry, Team
from tournaments.selectors.prizes import OVERALL, TEAMS, certificate_placings
from tournaments.selectors.standings import team_standings, tournament_standings

pytestmark = [pytest.mark.django_db, pytest.mark.pdf]


@pytest.fixture
def ranked(played):  # noqa: F811
    """The played round (Faller first, Blümle and Öhler tied as best women, Zähringer the only
    youth) with Maier a senior and the first four in a team of the host club."""
    tournament = played["tournament"]
    tournament.host_club = ClubFactory(name="Cego-Club Bräunlingen", town="Bräunlingen")
    tournament.save(update_fields=["host_club"])
    Entry.objects.filter(player__last_name="Maier").update(category=Category.SENIOR)
    team = Team.objects.create(tournament=tournament, name="Die Trümpfe", club=tournament.host_club)
    Entry.objects.filter(pk__in=[e.pk for e in played["entries"][:4]]).update(team=team)
    return played


def placings(tournament, places):
    standings = tournament_standings(tournament=tournament)
    return certificate_placings(standings, teams=team_standings(standings=standings), places=places)


def test_places_of_every_ranking(ranked):
    found = [
        (p.ranking, p.place, p.team.name if p.team else p.row.last_name)
        for p in placings(ranked["tournament"], 3)
    ]
    overall = [f for f in found if f[0] == OVERALL]
    assert overall[0] == (OVERALL, 1, "Faller") and all(place <= 3 for _r, place, _n in overall)
    # tied women share the first place, both get a certificate
    assert [f for f in found if f[0] == Category.WOMAN] == [
        (Category.WOMAN, 1, "Blümle"),
        (Category.WOMAN, 1, "Öhler"),
    ]
    assert [f for f in found if f[0] == Category.YOUTH] == [(Category.YOUTH, 1, "Zähringer")]
    assert [f for f in found if f[0] == Category.SENIOR] == [(Category.SENIOR, 1, "Maier")]
    assert [f for f in found if f[0] == TEAMS] == [(TEAMS, 1, "Die Trümpfe")]
    assert not any(f[0] == Category.OPEN for f in found)  # the open class is the overall


def test_one_place_per_ranking(ranked):
    found = [(p.ranking, p.place) for p in placings(ranked["tournament"], 1)]
    assert all(place == 1 for _r, place in found)
    assert found.count((OVERALL, 1)) == 1


def test_certificates_pdf_one_portrait_page_each(
    german_client,  # noqa: F811
    ranked,
    pdftotext,
    pdftoppm,
    tmp_path,
):
    tournament = ranked["tournament"]
    url = reverse("printing:print_certificates", args=[tournament.pk])
    response = german_client.get(url, {"places": 3})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "urkunden" in response["Content-Disposition"]
    content = response.content
    render_png(pdftoppm, content, tmp_path, "certificates")
    expected = len(placings(tournament, 3))
    assert pdf_pages(content) == expected
    for page in PdfReader(io.BytesIO(content)).pages:  # A4 portrait
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width), round(height)) == (595, 842)
    texts = [" ".join(text.split()) for text in page_texts(pdftotext, content)]
    first = texts[0]
    for words in (
        "URKUNDE",
        "Bräunlinger Cego-Turnier",
        "am 28.11.2026",
        "Stadthalle Bräunlingen",
        "Hans-Peter Faller",
        "belegte den 1. Platz",
        "in der Gesamtwertung",
        "mit 30 Punkten",
        "Turnierleitung",
        "Verein",
        "Bräunlingen, 28.11.2026",
    ):
        assert words in first, words
    women = [t for t in texts if "in der Damenwertung" in t]
    assert len(women) == 2 and all("belegte den 1. Platz" in t for t in women)
    assert any("Anna Blümle" in t for t in women) and any("Eva Öhler" in t for t in women)
    assert any("in der Jugendwertung" in t and "Lena Zähringer" in t for t in texts)
    assert any("in der Seniorenwertung" in t and "Sepp Maier" in t for t in texts)
    [team] = [t for t in texts if "in der Mannschaftswertung" in t]
    club = ranked["tournament"].host_club.short_name  # as the standings name a team's club
    assert "Die Trümpfe" in team and club in team and "Hans-Peter Faller, Anna Blümle" in team


def test_certificates_places_are_checked(staff_client, ranked):
    url = reverse("printing:print_certificates", args=[ranked["tournament"].pk])
    for bad in ("0", "11", "drei"):
        response = staff_client.get(url, {"places": bad})
        assert response.status_code == 400
        assert "1 to 10" in response.content.decode()
    one = get_pdf(staff_client, "print_certificates", ranked["tournament"].pk)
    assert pdf_pages(one) == len(placings(ranked["tournament"], 3))  # 3 unless asked


def test_the_tournament_page_offers_the_certificates(staff_client, ranked):
    tournament = ranked["tournament"]
    page = staff_client.get(reverse("tournaments:tournament_detail", args=[tournament.pk]))
    html = page.content.decode()
    assert reverse("printing:print_certificates", args=[tournament.pk]) in html
    assert 'name="places" value="3" min="1" max="10"' in html
