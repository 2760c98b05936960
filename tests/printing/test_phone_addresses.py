"""Score sheets carry the address phones open: a QR code and a short typeable address per
table; printed from a loopback address, the sheets and the tournament page warn."""

from pathlib import Path

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tests.printing.conftest import page_texts, pdf_pages
from tests.printing.test_printouts import get_pdf
from tournaments.models import SHORT_CODE_ALPHABET, Table, new_short_codes

LOOPBACK_WARNING = "phones cannot open them"


def test_sheet_shows_the_short_address_of_its_table(staff_client, cego_round, pdftotext, settings):
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    content = get_pdf(staff_client, "print_score_sheets", cego_round["tournament"].pk, 1)
    Path("test-artifacts").mkdir(exist_ok=True)
    Path("test-artifacts/score-sheets-lan.pdf").write_bytes(content)
    assert pdf_pages(content) == 3
    for table, text in zip(cego_round["tables"], page_texts(pdftotext, content), strict=True):
        flat = text.replace("\n", "")
        assert f"http://192.168.1.20:8000/t/{table.short_code}" in flat
        assert LOOPBACK_WARNING not in text


@pytest.mark.parametrize("base", ["http://127.0.0.1:8000", "http://localhost:8000", ""])
def test_sheets_pointing_at_this_computer_warn(staff_client, cego_round, pdftotext, settings, base):
    settings.PUBLIC_BASE_URL = base  # "": the organiser's own address (the test client's)
    response = staff_client.get(
        reverse("printing:print_score_sheets", args=[cego_round["tournament"].pk, 1]),
        HTTP_HOST="127.0.0.1:8000",
    )
    texts = page_texts(pdftotext, response.content)
    assert len(texts) == 3  # still one page per table with the warning
    assert all(LOOPBACK_WARNING in " ".join(t.split()) for t in texts)
    # the command it names runs here (the environment's Python and manage.py; no `make`)
    assert all("manage.py venue" in " ".join(t.split()) for t in texts)


def test_tournament_page_warns_before_printing_for_loopback(staff_client, cego_round, settings):
    url = reverse("tournaments:tournament_detail", args=[cego_round["tournament"].pk])
    settings.PUBLIC_BASE_URL = ""
    page = staff_client.get(url, HTTP_HOST="localhost:8000").content.decode()
    assert 'id="qr-loopback"' in page
    assert "manage.py venue" in page and "make venue" not in page
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    page = staff_client.get(url, HTTP_HOST="localhost:8000").content.decode()
    assert 'id="qr-loopback"' not in page


def test_short_code_opens_the_tables_page_whatever_the_case(client, cego_round):
    table = cego_round["tables"][0]
    for typed in (table.short_code, table.short_code.lower(), table.short_code + "/"):
        response = client.get(f"/t/{typed}")
        assert response.status_code == 302
        assert response["Location"] == reverse("tournaments:table_entry", args=[table.token])
    unused = next(c for c in ("ZZZZZ2", "ZZZZZ3") if not Table.objects.filter(short_code=c))
    assert client.get(f"/t/{unused.lower()}").status_code == 404


def test_short_codes_are_unique_and_in_the_alphabet(cego_round):
    codes = list(Table.objects.values_list("short_code", flat=True))
    assert len(codes) == len(set(codes)) == 3
    assert all(len(c) == 6 and set(c) <= set(SHORT_CODE_ALPHABET) for c in codes)
    fresh = new_short_codes(50)
    assert len(set(fresh)) == 50 and not set(fresh) & set(codes)


def test_database_refuses_a_duplicate_or_badly_shaped_code(cego_round):
    first, second = cego_round["tables"][:2]
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=second.pk).update(short_code=first.short_code)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=second.pk).update(short_code="abc234")
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=second.pk).update(short_code="ABC23")


def test_a_short_code_leads_where_the_token_leads_once_its_round_is_closed(client, cego_round):
    """Issue 28: the sheet prints the short address; after the round it answered "not
    found" while the token's address worked. Both lead to the table's page."""
    from tournaments.models import Round
    from tournaments.services.round_state import set_round_state

    table = cego_round["tables"][0]
    set_round_state(round=table.round, state=Round.State.CLOSED, user=None, close_open=True)
    response = client.get(f"/t/{table.short_code.lower()}")
    assert response.status_code == 302
    token_page = reverse("tournaments:table_entry", args=[table.token])
    assert response["Location"] == token_page
    assert client.get(token_page).status_code == 200


def test_misses_are_throttled_per_address(client, cego_round, settings):
    """Guessing short codes: after 20 misses from one address in ten minutes that address
    gets no table, not even with a right code; another address still does."""
    from django.core.cache import cache

    cache.clear()
    table = cego_round["tables"][0]
    codes = (c + d for c in "ABCDEFGHJK" for d in "ABCDEFGHJK")
    misses = [
        code
        for code in (f"ZZZZ{two}" for two in codes)
        if not Table.objects.filter(short_code=code)
    ][:20]
    for code in misses:
        assert client.get(f"/t/{code}", REMOTE_ADDR="10.0.0.7").status_code == 404
    blocked = client.get(f"/t/{table.short_code}", REMOTE_ADDR="10.0.0.7")
    assert blocked.status_code == 429
    assert client.get(f"/t/{table.short_code}", REMOTE_ADDR="10.0.0.8").status_code == 302
