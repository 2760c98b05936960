"""The check-in desk: quick actions, late entries, keep-apart pairs, substitutions."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from clubs.models import Membership
from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.setup.factories import add_total, tournament_with_players
from tournaments.models import Entry, KeepApart, Seat, Substitution
from tournaments.services import checkin as services
from tournaments.services import draws as draw_services
from tournaments.services.setup import register_player

pytestmark = pytest.mark.django_db


def action(client, entry, name, **extra):
    url = reverse("tournaments:checkin_entry_action", args=[entry.tournament_id, entry.pk])
    return client.post(url, {"action": name, **extra})


def test_quick_actions_through_the_page(staff_client):
    tournament, entries = tournament_with_players(3, checked_in=False)
    entry = entries[0]
    assert action(staff_client, entry, "check_in").status_code == 302
    assert action(staff_client, entry, "pay").status_code == 302
    entry.refresh_from_db()
    assert entry.checked_in and entry.fee_paid
    action(staff_client, entry, "undo_check_in")
    action(staff_client, entry, "undo_pay")
    entry.refresh_from_db()
    assert not entry.checked_in and not entry.fee_paid
    action(staff_client, entry, "withdraw", after_round=1)
    entry.refresh_from_db()
    assert entry.withdrawn_after_round == 1
    action(staff_client, entry, "undo_withdraw")
    entry.refresh_from_db()
    assert entry.withdrawn_after_round is None


def test_an_action_returns_to_the_filtered_list_at_the_row_with_the_search_emptied(
    staff_client,
):
    tournament, entries = tournament_with_players(2, checked_in=False)
    checkin = reverse("tournaments:checkin", args=[tournament.pk])
    back = checkin + "?show=not_checked_in&q=Spieler"
    response = action(staff_client, entries[0], "check_in", next=back)
    # the filter kept, the search emptied for the next arrival, the page at the player's row
    assert response["Location"] == f"{checkin}?show=not_checked_in#entry-{entries[0].pk}"
    response = action(staff_client, entries[0], "check_in", next="https://evil.example/")
    assert response["Location"].split("#")[0] == checkin


def test_withdrawal_round_out_of_range_is_refused():
    tournament, entries = tournament_with_players(1)
    with pytest.raises(ValidationError):
        services.withdraw_entry(entry=entries[0], after_round=tournament.rounds + 1)


def test_withdrawal_refused_while_seated_in_a_later_round():
    tournament, entries = tournament_with_players(8)
    draw_services.draw_next_round(tournament=tournament, number=1)
    with pytest.raises(ValidationError) as error:
        services.withdraw_entry(entry=entries[0], after_round=0)
    assert "after_round" in error.value.error_dict
    services.withdraw_entry(entry=entries[0], after_round=1)


def test_checkin_list_search_filter_and_sort(staff_client):
    tournament, entries = tournament_with_players(5, checked_in=False)
    entries[1].checked_in = True
    entries[1].save()
    entries[2].fee_paid = True
    entries[2].save()
    entries[3].withdrawn_after_round = 0
    entries[3].save()
    url = reverse("tournaments:checkin", args=[tournament.pk])

    def numbers(**params):
        response = staff_client.get(url, params)
        assert response.status_code == 200
        return [row.record.number for row in response.context["table"].rows]

    assert numbers() == [1, 2, 3, 4, 5]
    assert numbers(sort="-number") == [5, 4, 3, 2, 1]
    assert numbers(sort="name") == [1, 2, 3, 4, 5]
    assert numbers(q="3") == [3]
    assert numbers(q="spieler004") == [5]
    assert numbers(show="not_checked_in") == [1, 3, 5]
    assert numbers(show="not_paid") == [1, 2, 4, 5]
    assert numbers(show="withdrawn") == [4]
    partial = staff_client.get(url, {"q": "Spieler"}, headers={"HX-Request": "true"})
    assert b"<html" not in partial.content and b"registration-list" in partial.content


def test_late_entries_get_the_next_start_numbers():
    tournament, _ = tournament_with_players(3)
    first = services.register_existing_player(tournament=tournament, player=PlayerFactory())
    club = ClubFactory()
    second = services.register_new_player(
        tournament=tournament, first_name="Rosa", last_name="Schwär", category="woman", club=club
    )
    assert (first.number, second.number) == (4, 5)
    assert second.checked_in and second.category == "woman"
    assert Membership.objects.filter(player=second.player, club=club).exists()
    with pytest.raises(ValidationError) as error:
        services.register_existing_player(tournament=tournament, player=first.player)
    assert "player" in error.value.error_dict


def test_sequential_registrations_get_distinct_numbers():
    tournament, _ = tournament_with_players(0)
    numbers = [
        register_player(tournament=tournament, player=PlayerFactory()).number for _ in range(5)
    ]
    assert numbers == [1, 2, 3, 4, 5]


@pytest.mark.django_db(transaction=True)
def test_concurrent_registrations_get_distinct_numbers():
    if connection.vendor != "postgresql":
        pytest.skip("needs a database server that runs two connections at once")
    tournament, _ = tournament_with_players(2)
    players = [PlayerFactory() for _ in range(6)]
    barrier = threading.Barrier(len(players))
    failures = []

    def register(player):
        from django.db import connection as thread_connection

        try:
            barrier.wait()
            register_player(tournament=tournament, player=player)
        except Exception as error:  # pragma: no cover - reported below
            failures.append(error)
        finally:
            thread_connection.close()

    threads = [threading.Thread(target=register, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    numbers = sorted(tournament.entries.values_list("number", flat=True))
    assert numbers == list(range(1, 9))


def test_late_entry_page(staff_client):
    tournament, _ = tournament_with_players(2)
    known = PlayerFactory(first_name="Hubert", last_name="Kaltenbach")
    url = reverse("tournaments:late_entry", args=[tournament.pk])
    page = staff_client.get(url, {"q": "kalten"})
    assert page.status_code == 200
    assert list(page.context["found"]) == [known]
    response = staff_client.post(url, {"existing-player": known.pk, "existing-fee_paid": "on"})
    assert response.status_code == 302
    entry = Entry.objects.get(tournament=tournament, player=known)
    assert entry.number == 3 and entry.checked_in and entry.fee_paid
    # Already registered: not offered again.
    assert list(staff_client.get(url, {"q": "kalten"}).context["found"]) == []
    response = staff_client.post(
        url,
        {"new-first_name": "Lena", "new-last_name": "Ruf", "new-category": "youth"},
    )
    assert response.status_code == 302
    assert Entry.objects.get(tournament=tournament, player__last_name="Ruf").number == 4
    # A missing last name is shown next to the field.
    response = staff_client.post(url, {"new-first_name": "Lena", "new-category": "open"})
    assert response.status_code == 200
    assert response.context["new_form"].errors["last_name"]


def test_keep_apart_pairs_are_stored_in_order_once(staff_client):
    tournament, entries = tournament_with_players(4)
    pair = services.add_keep_apart(
        tournament=tournament, first=entries[2], second=entries[0], reason="Ehepaar"
    )
    assert (pair.first, pair.second) == (entries[0], entries[2])
    with pytest.raises(ValidationError):
        services.add_keep_apart(tournament=tournament, first=entries[0], second=entries[2])
    with pytest.raises(ValidationError):
        services.add_keep_apart(tournament=tournament, first=entries[1], second=entries[1])
    url = reverse("tournaments:keep_apart", args=[tournament.pk])
    assert staff_client.get(url).status_code == 200
    response = staff_client.post(url, {"first": entries[3].pk, "second": entries[1].pk})
    assert response.status_code == 302
    assert KeepApart.objects.filter(first=entries[1], second=entries[3]).exists()
    response = staff_client.post(url, {"first": entries[0].pk, "second": entries[2].pk})
    assert response.status_code == 200 and response.context["form"].errors["second"]
    remove = reverse("tournaments:keep_apart_remove", args=[tournament.pk, pair.pk])
    assert staff_client.post(remove).status_code == 302
    assert not KeepApart.objects.filter(pk=pair.pk).exists()


@pytest.fixture
def drawn_round():
    # 9 checked in and drawn at tables of 4 and 5 (bb2013), 2 more registered but not drawn.
    tournament, entries = tournament_with_players(
        11, rules_slug="bb2013", tables_of_5=True, deals_per_round=15
    )
    for entry in entries[9:]:
        entry.checked_in = False
        entry.save()
    round_ = draw_services.draw_next_round(tournament=tournament, number=1, seed=7)
    return round_, entries


def test_substitution_takes_a_seat_from_a_deal(drawn_round, organiser):
    round_, entries = drawn_round
    seat = Seat.objects.filter(round=round_).first()
    reserve = entries[9]
    sub = services.substitute_player(
        seat=seat, entry=reserve, from_deal=8, reason="krank", user=organiser
    )
    assert sub.from_deal == 8
    assert services.seat_occupant(seat=seat, deal_number=7) == seat.entry
    assert services.seat_occupant(seat=seat, deal_number=8) == reserve
    # The drawn player may come back later.
    services.substitute_player(seat=seat, entry=seat.entry, from_deal=12, reason="", user=None)
    assert services.seat_occupant(seat=seat, deal_number=12) == seat.entry


def test_substitution_validations(drawn_round):
    round_, entries = drawn_round
    seats = list(Seat.objects.filter(round=round_).order_by("table__number", "position"))
    reserve, other_reserve = entries[9], entries[10]

    def refused(field, **kwargs):
        args = {"seat": seats[0], "entry": reserve, "from_deal": 3, "reason": "", "user": None}
        args.update(kwargs)
        with pytest.raises(ValidationError) as error:
            services.substitute_player(**args)
        if field:
            assert field in error.value.error_dict
        return error.value

    refused("from_deal", from_deal=0)
    refused("from_deal", from_deal=16)
    refused("entry", entry=seats[1].entry)  # seated in this round already
    refused("entry", entry=seats[0].entry)  # sits there already
    services.substitute_player(seat=seats[0], entry=reserve, from_deal=3, reason="", user=None)
    refused("from_deal", entry=other_reserve)  # that seat already changes at deal 3
    refused("entry", seat=seats[1], from_deal=5)  # reserve is substituting elsewhere
    other_tournament, strangers = tournament_with_players(1)
    refused("entry", entry=strangers[0])
    round_.state = "closed"
    round_.save()
    refused(None, seat=seats[2], entry=other_reserve)
    assert Substitution.objects.count() == 1


def test_substitution_page(staff_client, drawn_round):
    round_, entries = drawn_round
    url = reverse("tournaments:substitute", args=[round_.tournament_id, round_.number])
    assert staff_client.get(url).status_code == 200
    seat = Seat.objects.filter(round=round_).first()
    response = staff_client.post(
        url, {"seat": seat.pk, "entry": entries[9].pk, "from_deal": 99, "reason": ""}
    )
    assert response.status_code == 200 and response.context["form"].errors["from_deal"]
    response = staff_client.post(
        url, {"seat": seat.pk, "entry": entries[9].pk, "from_deal": 4, "reason": "Zug"}
    )
    assert response.status_code == 302
    assert Substitution.objects.get().reason == "Zug"


def test_deals_do_not_block_substitutions(drawn_round):
    """A table that has scored deal 1 still takes a substitute from deal 2: the deal stays
    with the drawn player, deal 2 on is the substitute's."""
    round_, entries = drawn_round
    seat = Seat.objects.filter(round=round_).select_related("table", "entry").first()
    deal = add_total(seat.table)
    sub = services.substitute_player(seat=seat, entry=entries[9], from_deal=2, reason="", user=None)
    assert Substitution.objects.get() == sub and (sub.seat, sub.from_deal) == (seat, 2)
    assert services.seat_occupant(seat=seat, deal_number=deal.number) == seat.entry
    assert services.seat_occupant(seat=seat, deal_number=2) == entries[9]
