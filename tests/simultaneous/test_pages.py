"""The association's pages and the public ones, in German and English."""

from __future__ import annotations

import pytest
from django.urls import reverse

from simultaneous.models import Section, SimultaneousDay
from tests.simultaneous.conftest import hall_tournament

pytestmark = pytest.mark.django_db


def test_the_association_creates_a_day_and_a_misfit_hall_is_refused_on_the_page(client, scorer):
    client.force_login(scorer)
    answer = client.post(
        reverse("simultaneous:day_create"),
        {
            "name": "Simultan-Cego",
            "date": "2026-11-28",
            "rules_slug": "swm",
            "rounds": 2,
            "deals_per_round": 24,
        },
    )
    day = SimultaneousDay.objects.get()
    assert answer.status_code == 302 and answer["Location"].endswith(
        f"/simultan/{day.pk}/verwalten/"
    )
    wrong = hall_tournament("Hüfingen", deals_per_round=20)
    answer = client.post(
        reverse("simultaneous:day_manage", args=[day.pk]),
        {"action": "add", "tournament": wrong.pk},
    )
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "kann nicht teilnehmen" in page and "20 Spiele je Runde, der Tag 24" in page
    assert not Section.objects.exists()
    right = hall_tournament("Unadingen")
    answer = client.post(
        reverse("simultaneous:day_manage", args=[day.pk]),
        {"action": "add", "tournament": right.pk},
    )
    assert answer.status_code == 302
    assert Section.objects.get().tournament == right


def test_an_organiser_may_not_create_days(client, db):
    from django.contrib.auth.models import User

    from clubs.models import ClubRole

    user = User.objects.create_user("org", password="pw")
    ClubRole.objects.create(user=user, club=hall_tournament("Aasen").host_club)
    client.force_login(user)
    assert client.get(reverse("simultaneous:day_create")).status_code == 403
    assert (
        client.post(
            reverse("simultaneous:day_create"),
            {
                "name": "X",
                "date": "2026-11-28",
                "rules_slug": "swm",
                "rounds": 2,
                "deals_per_round": 24,
            },
        ).status_code
        == 403
    )
    assert not SimultaneousDay.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ["Gesamtwertung", "Hallen", "Auf dem Beamer"]),
        ("en", ["Overall ranking", "Halls", "On the projector"]),
    ],
)
def test_the_public_pages_in_both_languages(client, simday, scorer, language, words):
    from simultaneous import services

    section = services.add_hall(day=simday, tournament=hall_tournament("Lenzkirch"), by=scorer)
    client.cookies["django_language"] = language
    page = client.get(reverse("simultaneous:day_ranking", args=[simday.pk])).content.decode()
    for word in words:
        assert word in page
    for name, args in [
        ("simultaneous:days", []),
        ("simultaneous:section", [simday.pk, section.pk]),
        ("simultaneous:day_projector", [simday.pk]),
        ("simultaneous:hall_projector", [section.tournament_id]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 200


def test_the_association_changes_a_day_on_its_page_and_deletes_it_once_it_is_empty(
    client, simday, scorer
):
    client.force_login(scorer)
    right = hall_tournament("Unadingen")
    client.post(
        reverse("simultaneous:day_manage", args=[simday.pk]),
        {"action": "add", "tournament": right.pk},
    )
    address = reverse("simultaneous:day_edit", args=[simday.pk])
    manage = client.get(reverse("simultaneous:day_manage", args=[simday.pk])).content.decode()
    assert address in manage and "Tag ändern oder löschen" in manage
    page = client.get(address).content.decode()
    assert 'value="Simultan-Cego 2026"' in page
    assert "1 Halle nimmt teil" in page and 'value="delete"' not in page  # no button yet
    fields = {"name": "Simultan-Cego 2026", "date": "2026-11-28", "rules_slug": "swm", "rounds": 2}
    fields["deals_per_round"] = 24
    answer = client.post(address, {**fields, "action": "save", "deals_per_round": 16})
    assert answer.status_code == 200  # refused, the hall named, nothing changed
    assert "Cego-Tag Unadingen" in answer.content.decode()
    assert SimultaneousDay.objects.get().deals_per_round == 24
    answer = client.post(address, {**fields, "action": "save", "name": "Simultan im Advent"})
    assert answer.status_code == 302
    assert SimultaneousDay.objects.get().name == "Simultan im Advent"
    answer = client.post(address, {"action": "delete"})
    assert answer.status_code == 200 and SimultaneousDay.objects.exists()
    client.post(
        reverse("simultaneous:day_manage", args=[simday.pk]),
        {"action": "remove", "section": Section.objects.get().pk},
    )
    assert 'value="delete"' in client.get(address).content.decode()
    answer = client.post(address, {"action": "delete"})
    assert answer.status_code == 302 and answer["Location"] == reverse("simultaneous:days")
    assert not SimultaneousDay.objects.exists()
