"""Without a language choice the printouts are German, as the organisers read them."""

import pytest
from django.urls import reverse

from tests.printing.conftest import pdf_text
from tests.printing.test_standings_printouts import played  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def german_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("chefin", "", None))
    return client


def test_score_sheets_are_german_by_default(german_client, cego_round, pdftotext):
    url = reverse("printing:print_score_sheets", args=[cego_round["tournament"].pk, 1])
    text = pdf_text(pdftotext, german_client.get(url).content)
    for word in ("Spielblatt", "Tisch 1", "Runde 1", "Geber", "Summe", "setzt aus"):
        assert word in text, word


def test_prize_list_is_german_by_default(german_client, played, pdftotext):  # noqa: F811
    url = reverse("printing:print_prizes", args=[played["tournament"].pk])
    text = pdf_text(pdftotext, german_client.get(url).content)
    assert "Preisliste" in text and "Alle im Plus" in text and "Mauskönig" in text
