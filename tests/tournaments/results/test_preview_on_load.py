"""The deal form's preview is asked for when the page loads only where the form holds
something: a fresh form's preview is the line the page shows already, and the phone's page
is loaded again after every deal (one request more per deal). The browser side is in
tests/browser/test_phone_and_desk.py."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOAD = 'from:#deal-form, load"'


def test_the_desk_asks_for_the_preview_on_load_only_for_a_refused_deal(client, table, organiser):
    client.force_login(organiser)
    url = reverse("tournaments:desk_entry", args=[table.round.tournament_id, 1, table.number])
    fresh = client.get(url).content.decode()
    assert 'id="preview"' in fresh and LOAD not in fresh
    refused = client.post(url, {"number": "1", "contract": "eine", "declarer": "2"})
    assert refused.status_code == 200 and refused.context["form"].errors
    assert LOAD in refused.content.decode()


def test_the_phone_asks_for_the_preview_on_load_only_for_a_refused_deal(client, table):
    url = reverse("tournaments:table_entry", args=[table.token])
    client.get(url)
    client.post(url + "seat/", {"position": "0"})
    fresh = client.get(url).content.decode()
    assert 'id="preview"' in fresh and LOAD not in fresh
    refused = client.post(url, {"number": "1", "contract": "eine", "declarer": "2"})
    assert refused.status_code == 200 and refused.context["form"].errors
    assert LOAD in refused.content.decode()
