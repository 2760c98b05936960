"""The desk's late entry adds a club membership only in a club the user runs."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import Membership, Player
from tournaments.models import Entry
from tournaments.services import checkin

from .conftest import client_for

pytestmark = pytest.mark.django_db


def _new(club=None, last_name="Spät"):
    data = {"new-first_name": "Neu", "new-last_name": last_name, "new-category": "open"}
    if club is not None:
        data["new-club"] = club.pk
    return data


def test_the_host_organiser_is_offered_only_their_own_club(world):
    client = client_for(world, "organiser")
    page = client.get(reverse("tournaments:late_entry", args=[world.day.pk]))
    assert page.status_code == 200
    offered = list(page.context["new_form"].fields["club"].queryset)
    assert offered == [world.club_a]
    assert world.club_b.name not in page.content.decode()


def test_a_superuser_is_offered_every_club(world):
    page = client_for(world, "superuser").get(
        reverse("tournaments:late_entry", args=[world.day.pk])
    )
    assert set(page.context["new_form"].fields["club"].queryset) == {world.club_a, world.club_b}


def test_a_membership_in_another_club_is_refused_and_nothing_is_written(world):
    client = client_for(world, "organiser")
    url = reverse("tournaments:late_entry", args=[world.day.pk])
    players, members = Player.objects.count(), Membership.objects.count()
    response = client.post(url, _new(world.club_b))
    assert response.status_code == 200
    assert response.context["new_form"].errors["club"]
    assert (Player.objects.count(), Membership.objects.count()) == (players, members)
    assert not Entry.objects.filter(tournament=world.day, player__last_name="Spät").exists()


def test_own_club_gets_a_membership_and_a_guest_none(world):
    client = client_for(world, "organiser")
    url = reverse("tournaments:late_entry", args=[world.day.pk])
    assert client.post(url, _new(world.club_a, "Heim")).status_code == 302
    home = Entry.objects.get(tournament=world.day, player__last_name="Heim").player
    assert list(home.memberships.values_list("club", flat=True)) == [world.club_a.pk]
    assert client.post(url, _new(None, "Gast")).status_code == 302
    guest = Entry.objects.get(tournament=world.day, player__last_name="Gast").player
    assert not guest.memberships.exists()


def test_the_service_refuses_a_club_the_user_does_not_run(world):
    with pytest.raises(ValidationError) as error:
        checkin.register_new_player(
            tournament=world.day,
            first_name="Neu",
            last_name="Fremd",
            club=world.club_b,
            user=world.users["organiser"],
        )
    assert "club" in error.value.message_dict
    assert not Player.objects.filter(last_name="Fremd").exists()
    # The club's own organiser may (were it their tournament); so may the superuser.
    entry = checkin.register_new_player(
        tournament=world.day,
        first_name="Neu",
        last_name="Fremd",
        club=world.club_b,
        user=world.users["superuser"],
    )
    assert entry.player.memberships.get().club == world.club_b
