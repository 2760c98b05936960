"""The tournament log in pages: newest first over all three histories, the same rows as the
whole log, a constant number of queries per page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.selectors import changelog
from tournaments.services import checkin, desk_entry, round_state

from .conftest import client_for

pytestmark = pytest.mark.django_db


def _key(line):
    return (line.area, line.order)


def _churn(world, times):
    """Log rows in all three histories, interleaved in time."""
    user = world.users["organiser"]
    for index in range(times):
        checkin.set_fee_paid(entry=world.spare, paid=index % 2 == 0, user=user)
        round_state.void_table(table=world.other_table, reason=f"v{index}", user=user)
        round_state.unvoid_table(table=world.other_table, reason=f"u{index}", user=user)
        deal = world.confirmed
        deal.refresh_from_db()
        if index % 2 == 0:
            desk_entry.annul_deal(deal=deal, reason=f"a{index}", user=user)
        else:
            desk_entry.restore_deal(deal=deal, reason=f"r{index}", user=user)


def test_the_pages_together_are_the_whole_log_newest_first(world):
    _churn(world, 6)
    whole = changelog.tournament_log(tournament=world.day)
    areas = {line.area for line in whole}
    assert areas == {"tournament", "round", "deal"}
    paged, number = [], 1
    while True:
        page = changelog.tournament_log_page(tournament=world.day, page=number, per_page=7)
        assert len(page.object_list) <= 7
        paged += page.object_list
        if not page.has_next():
            break
        number += 1
    assert number > 2
    assert [_key(line) for line in paged] == [_key(line) for line in whole]
    times = [line.at for line in paged]
    assert times == sorted(times, reverse=True)


def test_one_area_is_paged_alone(world):
    _churn(world, 4)
    whole = [line for line in changelog.tournament_log(tournament=world.day) if line.area == "deal"]
    first = changelog.tournament_log_page(tournament=world.day, area="deal", per_page=3)
    assert first.paginator.count == len(whole)
    assert [_key(line) for line in first.object_list] == [_key(line) for line in whole[:3]]


def test_the_page_shows_links_to_older_rows(world, monkeypatch):
    monkeypatch.setattr(changelog, "PER_PAGE", 5)
    _churn(world, 3)
    client = client_for(world, "organiser")
    url = reverse("tournaments:tournament_log", args=[world.day.pk])
    first = client.get(url)
    html = first.content.decode()
    assert "page=2" in html and len(first.context["lines"]) == 5
    last_page = first.context["page"].paginator.num_pages
    last = client.get(url, {"page": last_page})
    assert f"page={last_page - 1}" in last.content.decode()
    # the oldest row (the first registration) is on the last page
    assert last.context["lines"][-1].order == min(
        line.order
        for line in changelog.tournament_log(tournament=world.day)
        if line.area == last.context["lines"][-1].area
    )
    # a page number out of range shows the last page; nonsense the first
    assert client.get(url, {"page": 999}).context["page"].number == last_page
    assert client.get(url, {"page": "x"}).context["page"].number == 1
    deals_only = client.get(url, {"area": "deal", "page": 1})
    assert {line.area for line in deals_only.context["lines"]} == {"deal"}


def test_queries_per_page_do_not_grow_with_the_log(world, monkeypatch):
    monkeypatch.setattr(changelog, "PER_PAGE", 10)
    client = client_for(world, "organiser")
    url = reverse("tournaments:tournament_log", args=[world.day.pk])
    _churn(world, 1)  # a page with rows of all three histories
    client.get(url)
    with CaptureQueriesContext(connection) as short:
        assert client.get(url).status_code == 200
    _churn(world, 15)
    with CaptureQueriesContext(connection) as long:
        response = client.get(url, {"page": 3})
    assert response.status_code == 200
    assert {line.area for line in response.context["lines"]} == set(changelog.AREAS)
    assert len(long.captured_queries) == len(short.captured_queries)
