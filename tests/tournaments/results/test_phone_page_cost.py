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
# submission key, checks, insert, history, revision and its scope: the table the deal
# changed, read by the publishing outbox). GET: the table, seats, substitutes,
# deals, session.
POST_QUERIES = 18
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


def test_the_pending_list_offers_the_other_phone_its_confirm_form(client, table):
    url = phone(client, table, 0)
    enter(client, url, 1)
    deal = Deal.objects.get(table=table, number=1)
    mine = client.get(url).content.decode()
    revise = reverse("tournaments:table_entry_revise", args=[table.token, deal.pk])
    assert 'id="pending-1"' in mine and f'href="{revise}"' in mine
    assert "table_entry_confirm" not in mine and "/confirm/" not in mine  # not its own deal
    second = Client(enforce_csrf_checks=True)
    phone_url = reverse("tournaments:table_entry", args=[table.token])
    second.get(phone_url)
    token = second.cookies["csrftoken"].value
    second.post(
        reverse("tournaments:table_entry_seat", args=[table.token]),
        {"position": 1, "csrfmiddlewaretoken": token},
    )
    theirs = second.get(phone_url).content.decode()
    confirm = reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk])
    assert f'<form method="post" action="{confirm}" class="actions">' in theirs
    assert f'name="version" value="{deal.version}"' in theirs
    assert (
        'class="actions">\n      <input type="hidden" name="csrfmiddlewaretoken" value="' in theirs
    )
    # the form as the page gives it (its CSRF input included) is accepted
    start = theirs.index('name="csrfmiddlewaretoken" value="') + len(
        'name="csrfmiddlewaretoken" value="'
    )
    form_token = theirs[start : theirs.index('"', start)]
    second.post(confirm, {"version": deal.version, "csrfmiddlewaretoken": form_token})
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED
