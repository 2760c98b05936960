"""Issue 28: a member list that creates clubs says, in the preview before anything is
written, which clubs it creates and who will run them: an administrator runs them (she runs
every club); an organiser does not (a new club has no organisers until an administrator names
them)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, ClubRole
from tests.clubs.test_club_names import (
    client_for,
    confirm_data,
    demo_clubs,  # noqa: F401 (fixture)
    organiser_of,
    upload,
)

pytestmark = pytest.mark.django_db


def test_an_administrator_is_told_she_will_run_the_new_clubs():
    client = client_for(get_user_model().objects.create_superuser("admin", "", "pw"))
    page = upload(client, "mitgliederliste.csv")
    note = page.context["created_clubs_note"]
    assert note.startswith("Created on import: Cego-Club Bräunlingen (CC Bräunlingen), ")
    assert "You will run them" in note and note in page.content.decode()
    assert not Club.objects.exists()  # a preview


def test_an_organiser_is_told_she_will_not_run_a_club_she_creates(demo_clubs):  # noqa: F811
    client = client_for(organiser_of(demo_clubs["CF Bräunlingen"]))
    page = upload(client, "mitgliederliste.csv")
    assert page.context["created_clubs_note"] == ""  # nothing chosen to be created yet
    vohrenbach = next(
        b["index"] for b in page.context["club_blocks"] if "Vöhrenbach" in b["unknown"].name
    )
    chosen = confirm_data(
        page,
        **{
            f"unknown-{vohrenbach}-choice": "create",
            f"unknown-{vohrenbach}-short": "CV Vöhrenbach",
            "commit": "0",
        },
    )
    again = client.post("/players/import/", chosen)
    note = again.context["created_clubs_note"]
    assert note.startswith("Created on import: Cego Vöhrenbach e.V. (CV Vöhrenbach).")
    assert "You will not run them" in note and note in again.content.decode()
    assert not Club.objects.filter(short_name="CV Vöhrenbach").exists()
    assert not ClubRole.objects.filter(club__short_name="CV Vöhrenbach").exists()
