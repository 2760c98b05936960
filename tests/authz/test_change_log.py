"""Every change of a tournament day leaves a row in its log, with who, what and before/after,
and the log page shows them (with the deal and round histories) to the organisers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Player
from tests.authz.conftest import client_for
from tournaments.models import AppendOnly, Seat, SeatSwap, TournamentChange
from tournaments.services import (
    checkin,
    draws,
    fairness,
    phone_entry,
    round_state,
    setup,
    standings,
)

pytestmark = pytest.mark.django_db


def last(world):
    return TournamentChange.objects.filter(tournament=world.day).latest("pk")


def test_every_service_logs_who_did_what(world):
    user = world.users["organiser"]
    entry = world.spare
    cases = [
        (lambda: checkin.set_checked_in(entry=entry, checked_in=True, user=user), "checked_in"),
        (
            lambda: checkin.set_checked_in(entry=entry, checked_in=False, user=user),
            "check_in_undone",
        ),
        (lambda: checkin.set_fee_paid(entry=entry, paid=True, user=user), "fee_paid"),
        (lambda: checkin.set_fee_paid(entry=entry, paid=False, user=user), "fee_undone"),
        (lambda: checkin.withdraw_entry(entry=entry, after_round=1, user=user), "withdrawn"),
        (lambda: checkin.undo_withdrawal(entry=entry, user=user), "withdrawal_undone"),
        (
            lambda: checkin.register_new_player(
                tournament=world.day,
                first_name="Neu",
                last_name="Spät",
                checked_in=False,
                user=user,
            ),
            "registered",
        ),
        (
            lambda: checkin.register_existing_player(
                tournament=world.day,
                player=Player.objects.create(last_name="Gast"),
                checked_in=False,
                user=user,
            ),
            "registered",
        ),
        (
            lambda: checkin.add_keep_apart(
                tournament=world.day,
                first=entry,
                second=world.day.entries.get(number=2),
                reason="Ehepaar",
                user=user,
            ),
            "keep_apart_added",
        ),
        (lambda: checkin.remove_keep_apart(pair=world.pair, user=user), "keep_apart_removed"),
        (
            lambda: checkin.substitute_player(
                seat=world.other_table.seats.get(position=1),
                entry=entry,
                from_deal=2,
                reason="krank",
                user=user,
            ),
            "substituted",
        ),
        (
            lambda: draws.draw_next_round(
                tournament=world.day, number=2, while_previous_open=True, user=user
            ),
            "round_drawn",
        ),
        (
            lambda: draws.redraw_round(
                round=world.day.round_set.get(number=2), same_seed=False, user=user
            ),
            "round_redrawn",
        ),
        (
            lambda: fairness.request_swap(
                round=world.day.round_set.get(number=2),
                first=Seat.objects.filter(round__number=2, round__tournament=world.day)
                .order_by("table__number", "position")
                .first()
                .entry,
                second=Seat.objects.filter(round__number=2, round__tournament=world.day)
                .order_by("-table__number", "position")
                .first()
                .entry,
                reason="Sehbehinderung",
                user=user,
            ),
            "swap_requested",
        ),
        (
            lambda: setup.update_tournament(
                tournament=world.day,
                **{
                    **setup_kwargs(world.day),
                    "name": "Umbenannt",
                    "venue": "Neue Halle",
                },
                user=user,
            ),
            "edited",
        ),
        (
            lambda: setup.set_referees(
                tournament=world.day, referees=[world.users["gast"]], user=user
            ),
            "referees",
        ),
        (
            lambda: standings.draw_lots(tournament=world.day, user=user, reason="Gleichstand"),
            "lots_drawn",
        ),
        (lambda: round_state.reissue_table_token(table=world.table, user=user), "token_reissued"),
        (
            lambda: round_state.set_round_clock(round=world.table.round, minutes=90, user=user),
            "clock_set",
        ),
    ]
    for action, expected in cases:
        count = TournamentChange.objects.count()
        action()
        assert TournamentChange.objects.count() == count + 1, expected
        change = last(world)
        assert (change.action, change.changed_by) == (expected, user), expected
    edited = TournamentChange.objects.get(action="edited")
    assert edited.before == {"name": "Turnier A", "venue": ""}
    assert edited.after == {"name": "Umbenannt", "venue": "Neue Halle"}
    # the swap asked for above, approved by the second official: the change, by them
    fairness.approve_swap(swap=SeatSwap.objects.get(), user=world.users["superuser"])
    swap = TournamentChange.objects.get(action="swapped")
    assert swap.before and swap.after and swap.before != swap.after
    assert swap.changed_by == world.users["superuser"] and swap.reason == "Sehbehinderung"


def setup_kwargs(tournament):
    return {
        "name": tournament.name,
        "host_club": tournament.host_club,
        "date": tournament.date,
        "rules_slug": tournament.rules_slug,
        "season": tournament.season,
        "venue": tournament.venue,
        "rounds": tournament.rounds,
        "deals_per_round": tournament.deals_per_round,
        "table_sizes": tournament.allowed_table_sizes,
        "preferred_table_size": tournament.preferred_table_size,
        "entry_mode": tournament.entry_mode,
        "tie_break": tournament.tie_break,
        "entry_fee_cents": tournament.entry_fee_cents,
    }


def test_a_refused_change_leaves_no_log_row(world):
    count = TournamentChange.objects.count()
    with pytest.raises(Exception):  # noqa: B017 - any refusal: the service says why
        checkin.withdraw_entry(entry=world.day.entries.get(number=1), after_round=0)
    assert TournamentChange.objects.count() == count


def test_log_rows_are_append_only(world):
    change = TournamentChange.objects.first()
    assert isinstance(change, AppendOnly)
    with pytest.raises(ValueError):
        change.save()
    with pytest.raises(ValueError):
        change.delete()


def test_the_log_page_shows_every_kind_of_change(world):
    user = world.users["organiser"]
    checkin.set_fee_paid(entry=world.spare, paid=True, user=user)
    round_state.void_table(table=world.other_table, reason="Zettel nass", user=user)
    phone_entry.revise_deal(
        deal=world.confirmed,
        inputs={"contract": "eine", "declarer": 1, "declarer_points": 50},
        expected_version=1,
        user=user,
        reason="Tippfehler",
    )
    client = client_for(world, "organiser")
    html = client.get(reverse("tournaments:tournament_log", args=[world.day.pk])).content.decode()
    for text in ("Startgeld bezahlt", "Zettel nass", "Tippfehler", "organiser", "Runde 1"):
        assert text in html, text
    only_deals = client.get(
        reverse("tournaments:tournament_log", args=[world.day.pk]) + "?area=deal"
    ).content.decode()
    assert "Tippfehler" in only_deals and "Startgeld bezahlt" not in only_deals
    detail = client.get(reverse("tournaments:tournament_detail", args=[world.day.pk]))
    assert reverse("tournaments:tournament_log", args=[world.day.pk]) in detail.content.decode()


def test_the_log_page_runs_a_constant_number_of_queries(world, django_assert_max_num_queries):
    client = client_for(world, "organiser")
    url = reverse("tournaments:tournament_log", args=[world.day.pk])
    client.get(url)
    for _ in range(20):
        checkin.set_fee_paid(entry=world.spare, paid=True, user=world.users["organiser"])
        checkin.set_fee_paid(entry=world.spare, paid=False, user=world.users["organiser"])
    # 13: the world's day has rows in all three histories (its draw's release is a round
    # change), each history's page rows one query
    with django_assert_max_num_queries(13):
        assert client.get(url).status_code == 200


def test_a_superuser_names_referees_in_the_admin_and_it_is_logged(world):
    client = client_for(world, "superuser")
    url = reverse("admin:tournaments_tournament_change", args=[world.day.pk])
    page = client.get(url)
    assert page.status_code == 200
    data = {
        "referees": [world.users["referee"].pk, world.users["gast"].pk],
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert set(world.day.referees.values_list("username", flat=True)) == {"referee", "gast"}
    change = TournamentChange.objects.filter(tournament=world.day, action="referees").latest("pk")
    assert change.changed_by == world.users["superuser"]
    assert change.after == ["gast", "referee"]
    world.day.refresh_from_db()
    assert world.day.name == "Turnier A"  # nothing else changes there
