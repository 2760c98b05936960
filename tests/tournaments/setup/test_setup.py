"""Creating and editing tournaments: presets, the pinned rule source, allowed table sizes."""

import copy
import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from rules.builtin_sources import builtin_data
from rules.models import HouseRuleSource
from tests.factories import ClubFactory, SeasonFactory
from tests.tournaments.setup.factories import tournament_with_players
from tournaments.models import Round, Tournament
from tournaments.presets import PRESETS
from tournaments.services import draws as draw_services
from tournaments.services.setup import create_tournament, update_tournament

pytestmark = pytest.mark.django_db


def fields(tournament: Tournament, **changes) -> dict:
    data = {
        "name": tournament.name,
        "host_club": tournament.host_club,
        "season": tournament.season,
        "date": tournament.date,
        "venue": tournament.venue,
        "rules_slug": tournament.rules_slug,
        "rounds": tournament.rounds,
        "deals_per_round": tournament.deals_per_round,
        "table_sizes": tournament.allowed_table_sizes,
        "preferred_table_size": tournament.preferred_table_size,
        "entry_mode": tournament.entry_mode,
        "tie_break": tournament.tie_break,
        "entry_fee_cents": tournament.entry_fee_cents,
    }
    data.update(changes)
    return data


@pytest.mark.parametrize("slug", list(PRESETS))
def test_create_from_each_preset(slug):
    preset = PRESETS[slug]
    tournament = create_tournament(
        name=str(preset.name),
        host_club=ClubFactory(),
        date=dt.date(2026, 12, 5),
        rules_slug=preset.rules_slug,
        rounds=preset.rounds,
        deals_per_round=preset.deals_per_round,
        table_sizes=preset.table_sizes,
        preferred_table_size=preset.preferred_table_size,
    )
    tournament.refresh_from_db()
    assert tournament.rules_slug == preset.rules_slug
    assert tournament.rules_snapshot == builtin_data(preset.rules_slug)
    assert tournament.allowed_table_sizes == preset.table_sizes
    assert (tournament.rounds, tournament.deals_per_round) == (
        preset.rounds,
        preset.deals_per_round,
    )


@pytest.mark.parametrize("slug", list(PRESETS))
def test_create_page_from_each_preset(staff_client, slug):
    club = ClubFactory()
    page = staff_client.get(reverse("tournaments:tournament_create"), {"preset": slug})
    assert page.status_code == 200
    initial = page.context["form"].initial
    preset = PRESETS[slug]
    post = {
        "preset": slug,
        "name": "Preset-Turnier",
        "host_club": club.pk,
        "date": "2026-12-05",
        "venue": "Halle",
        "rules_slug": initial["rules_slug"],
        "rounds": initial["rounds"],
        "deals_per_round": initial["deals_per_round"],
        "table_sizes": initial["table_sizes"],
        "preferred_table_size": initial["preferred_table_size"],
        "entry_mode": "deals",
        "tie_break": "best_round",
        "entry_fee": "8.00",
    }
    response = staff_client.post(reverse("tournaments:tournament_create"), post)
    tournament = Tournament.objects.get(name="Preset-Turnier")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:tournament_detail", args=[tournament.pk])
    assert tournament.rules_slug == preset.rules_slug
    assert tournament.allowed_table_sizes == preset.table_sizes
    assert tournament.entry_fee_cents == 800


def test_table_sizes_must_be_supported_by_the_rule_source(staff_client):
    club = ClubFactory()
    with pytest.raises(ValidationError) as error:
        create_tournament(
            name="x",
            host_club=club,
            date=dt.date(2026, 12, 5),
            rules_slug="swm",
            table_sizes=frozenset({3, 4}),
        )
    assert "table_sizes" in error.value.error_dict
    with pytest.raises(ValidationError) as error:
        create_tournament(
            name="x",
            host_club=club,
            date=dt.date(2026, 12, 5),
            rules_slug="bb2013",
            table_sizes=frozenset({3, 5}),
            preferred_table_size=4,
        )
    assert "preferred_table_size" in error.value.error_dict
    # The page shows the message next to the field.
    response = staff_client.post(
        reverse("tournaments:tournament_create"),
        {
            "name": "Falsch",
            "host_club": club.pk,
            "date": "2026-12-05",
            "rules_slug": "swm",
            "rounds": 2,
            "deals_per_round": 24,
            "table_sizes": [3, 4],
            "preferred_table_size": 4,
            "entry_mode": "deals",
            "tie_break": "best_round",
            "entry_fee": "8",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["table_sizes"]
    assert not Tournament.objects.filter(name="Falsch").exists()


def test_the_rule_source_is_pinned_at_creation():
    club = ClubFactory()
    data = builtin_data("swm")
    data["slug"] = "haus_swm"
    house = HouseRuleSource.objects.create(club=club, slug="haus_swm", based_on="swm", data=data)
    tournament = create_tournament(
        name="Hausturnier", host_club=club, date=dt.date(2026, 12, 5), rules_slug="haus_swm"
    )
    pinned = copy.deepcopy(tournament.rules_snapshot)
    assert pinned == data
    changed = copy.deepcopy(data)
    changed["unit"] = "Kreuzer"
    house.data = changed
    house.save()
    tournament.refresh_from_db()
    assert tournament.rules_snapshot == pinned


def test_edit_changes_the_rule_source_before_any_round_and_repins():
    tournament, _ = tournament_with_players(0)
    updated = update_tournament(
        tournament=tournament,
        **fields(tournament, rules_slug="bb2013", table_sizes=frozenset({3, 4})),
    )
    updated.refresh_from_db()
    assert updated.rules_slug == "bb2013"
    assert updated.rules_snapshot == builtin_data("bb2013")
    assert updated.allowed_table_sizes == {3, 4}


def test_edit_refuses_a_new_rule_source_once_a_round_exists(staff_client):
    tournament, _ = tournament_with_players(8)
    draw_services.draw_next_round(tournament=tournament, number=1)
    with pytest.raises(ValidationError) as error:
        update_tournament(tournament=tournament, **fields(tournament, rules_slug="bb2013"))
    assert "rules_slug" in error.value.error_dict
    tournament.refresh_from_db()
    assert tournament.rules_slug == "swm"
    # Other fields stay editable.
    update_tournament(tournament=tournament, **fields(tournament, venue="Festhalle"))
    tournament.refresh_from_db()
    assert tournament.venue == "Festhalle"
    # The page shows the rule source as fixed and ignores a posted change.
    page = staff_client.get(reverse("tournaments:tournament_edit", args=[tournament.pk]))
    assert page.status_code == 200
    assert page.context["form"].fields["rules_slug"].disabled
    response = staff_client.post(
        reverse("tournaments:tournament_edit", args=[tournament.pk]),
        {
            "name": tournament.name,
            "host_club": tournament.host_club_id,
            "date": "2026-11-28",
            "rules_slug": "bb2013",
            "rounds": 2,
            "deals_per_round": 24,
            "table_sizes": [4],
            "preferred_table_size": 4,
            "entry_mode": "deals",
            "tie_break": "best_round",
            "entry_fee": "8",
        },
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules_slug == "swm"


def test_edit_refuses_fewer_rounds_than_drawn():
    tournament, _ = tournament_with_players(8)
    draw_services.draw_next_round(tournament=tournament, number=1)
    draw_services.draw_next_round(tournament=tournament, number=2, while_previous_open=True)
    with pytest.raises(ValidationError) as error:
        update_tournament(tournament=tournament, **fields(tournament, rounds=1))
    assert "rounds" in error.value.error_dict
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_detail_page_counts(staff_client):
    tournament, entries = tournament_with_players(6, season=SeasonFactory())
    entries[0].checked_in = False
    entries[0].save()
    entries[1].fee_paid = True
    entries[1].withdrawn_after_round = 0
    entries[1].save()
    response = staff_client.get(reverse("tournaments:tournament_detail", args=[tournament.pk]))
    assert response.status_code == 200
    assert response.context["counts"] == {
        "registered": 6,
        "checked_in": 5,
        "paid": 1,
        "withdrawn": 1,
    }
    assert response.context["next_round"] == 1


# ---------------------------------------------------------------- issue 13


@pytest.mark.parametrize("slug", ["officers_cego", "dorset_cego"])
def test_two_hand_cego_is_not_offered_for_tournaments(staff_client, slug):
    """REFERENCE 4.6: practice games; not in tournaments."""
    page = staff_client.get(reverse("tournaments:tournament_create"))
    offered = [value for value, _label in page.context["form"].fields["rules_slug"].choices]
    assert "swm" in offered and "dreierles" in offered
    assert slug not in offered
    assert all(preset.rules_slug != slug for preset in PRESETS.values())
    with pytest.raises(ValidationError) as error:
        create_tournament(
            name="Zu zweit",
            host_club=ClubFactory(),
            date=dt.date(2026, 12, 5),
            rules_slug=slug,
            table_sizes=frozenset({4}),
        )
    assert "practice games" in str(error.value.error_dict["rules_slug"])
    assert not Tournament.objects.filter(name="Zu zweit").exists()


def test_a_clubs_practice_only_copy_is_not_offered_either(staff_client):
    club = ClubFactory()
    data = builtin_data("dorset_cego")
    HouseRuleSource.objects.create(club=club, slug="dorset_daheim", based_on="bb2013", data=data)
    page = staff_client.get(reverse("tournaments:tournament_create"))
    offered = [value for value, _label in page.context["form"].fields["rules_slug"].choices]
    assert "dorset_daheim" not in offered


def test_last_round_raeuber_needs_a_source_that_has_it():
    club = ClubFactory()
    with pytest.raises(ValidationError) as error:
        create_tournament(
            name="Kein Dreierles",
            host_club=club,
            date=dt.date(2026, 12, 5),
            rules_slug="swm",
            last_round_raeuber=True,
        )
    assert "last_round_raeuber" in error.value.error_dict
    tournament = create_tournament(
        name="Dreierles",
        host_club=club,
        date=dt.date(2026, 12, 5),
        rules_slug="dreierles",
        table_sizes=frozenset({3}),
        preferred_table_size=3,
        last_round_raeuber=True,
    )
    tournament.refresh_from_db()
    assert tournament.last_round_raeuber is True
    updated = update_tournament(
        tournament=tournament, **fields(tournament, rounds=3, last_round_raeuber=True)
    )
    assert (updated.rounds, updated.last_round_raeuber) == (3, True)
    updated = update_tournament(tournament=tournament, **fields(tournament, rounds=3))
    assert updated.last_round_raeuber is False
