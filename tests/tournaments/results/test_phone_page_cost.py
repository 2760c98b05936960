"""A phone's deal costs the server a constant number of queries however long the sheet is, and
the sheet's rows (drawn in Python for the phones, ``templatetags/sheet_lines.py``) show what
the desk's template shows."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.results.test_entry_views import deal_post, phone
from tournaments.models import Deal

pytestmark = pytest.mark.django_db

# POST: the table, its seats and substitutes, the session, and the service's own (lock,
# submission key, checks, insert, history, revision). GET: the table, seats, substitutes,
# deals, session.
POST_QUERIES = 17
GET_QUERIES = 5


def enter(client, url, number):
    response = client.post(url, deal_post(number=number, submission_key=str(uuid.uuid4())))
    assert response.status_code == 302, response.status_code
    return client.get(response["Location"])


@pytest.mark.parametrize("before", [0, 11])
def test_a_phone_deal_costs_the_same_queries_whatever_the_sheet_holds(
    client, table, before, django_assert_max_num_queries
):
    url = phone(client, table, 0)
    for number in range(1, before + 1):
        enter(client, url, number)
    with django_assert_max_num_queries(POST_QUERIES):
        response = client.post(url, deal_post(number=before + 1))
    with django_assert_max_num_queries(GET_QUERIES):
        page = client.get(response["Location"])
    assert page.status_code == 200
    assert Deal.objects.filter(table=table).count() == before + 1


def test_the_phones_sheet_rows(client, table):
    url = phone(client, table, 0)
    enter(client, url, 1)  # eine: declarer at seat 3 wins 60, the others -20
    enter(client, url, 2)
    second = Client()
    phone(second, table, 1)
    first = Deal.objects.get(table=table, number=1)
    confirm = reverse("tournaments:table_entry_confirm", args=[table.token, first.pk])
    second.post(confirm, {"version": first.version})
    html = client.get(url).content.decode()
    assert '<tr class="deal-line confirmed" id="deal-1">' in html
    assert '<tr class="deal-line pending not-counting" id="deal-2">' in html  # not yet
    assert html.count('<span class="badge pending">') == 1  # deal 2 only
    assert '<td class="number score declarer">+60</td>' in html
    assert '<td class="number score dealer">-20</td>' in html  # deal 1's dealer: seat 1
    assert "No deals entered yet." not in html


def test_an_empty_sheet_says_so(client, table):
    html = client.get(phone(client, table, 0)).content.decode()
    assert "No deals entered yet." in html or "Noch keine Spiele" in html
