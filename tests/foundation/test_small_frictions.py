"""Issue 11, item 9: the demo prints the real address, search results say when they are cut
off, PDF filenames keep their umlauts (with an ASCII fallback)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from printing.pdf import content_disposition
from tests.factories import TournamentFactory


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    return client


def test_content_disposition_keeps_umlauts_for_rfc_5987():
    header = content_disposition("inline", "turnier-spielblätter-1.pdf")
    assert header == (
        'inline; filename="turnier-spielblaetter-1.pdf"; '
        "filename*=UTF-8''turnier-spielbl%C3%A4tter-1.pdf"
    )
    assert content_disposition("inline", "plain.pdf") == 'inline; filename="plain.pdf"'


def test_score_sheet_pdf_is_called_spielblaetter_with_umlaut(staff_client, db):
    from tests.tournaments.results.conftest import seat_table

    tournament = TournamentFactory(rules_slug="swm", name="Herbstturnier")
    seat_table(tournament=tournament)
    response = staff_client.get(
        reverse("printing:print_score_sheets", args=[tournament.pk, 1]),
    )
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    assert "filename*=UTF-8''herbstturnier-spielbl%C3%A4tter-1.pdf" in disposition
    assert 'filename="herbstturnier-spielblaetter-1.pdf"' in disposition


def test_search_results_say_when_they_are_cut_off(staff_client, db):
    from tests.factories import PlayerFactory

    tournament = TournamentFactory(rules_slug="swm")
    for number in range(21):
        PlayerFactory(first_name=f"Anna{number}", last_name="Maier")
    url = reverse("tournaments:late_entry", args=[tournament.pk])
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = staff_client.get(url, {"q": "Maier"})
    assert len(page.context["found"]) == 20
    assert "Only the first 20 matches are shown" in page.content.decode()
    page = staff_client.get(url, {"q": "Anna20"})
    assert "Only the first" not in page.content.decode()
