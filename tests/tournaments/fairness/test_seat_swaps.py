"""The drawn seat belongs to the player (issue 39, item 8): a swap after the draw is asked for
by one official and changes the seats only once a second, different official of the
tournament approves it (``tournaments.services.fairness``); every step is logged, approved
swaps are public, and the phones follow the seats."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from clubs.models import ClubRole
from tests.factories import ClubFactory, TournamentFactory, two_officials
from tests.tournaments.setup.factories import tournament_with_players
from tournaments.models import Seat, SeatSwap, Tournament, TournamentChange
from tournaments.services import draws, fairness

pytestmark = pytest.mark.django_db


def seating(round_) -> dict[int, tuple[int, int]]:
    """Each entry's (table number, position) in the round."""
    return {
        entry_id: (table, position)
        for entry_id, table, position in Seat.objects.filter(round=round_).values_list(
            "entry_id", "table__number", "position"
        )
    }


def revision(tournament) -> int:
    return Tournament.objects.values_list("revision", flat=True).get(pk=tournament.pk)


@pytest.fixture
def drawn():
    """A tournament of 8 drawn at two tables, its round, entries and two officials."""
    tournament, entries = tournament_with_players(8)
    round_ = draws.draw_next_round(tournament=tournament, number=1, seed=7)
    by_table = {}
    for seat in Seat.objects.filter(round=round_).select_related("table", "entry"):
        by_table.setdefault(seat.table.number, []).append(seat.entry)
    asking, approving = two_officials(tournament)
    return {
        "tournament": tournament,
        "round": round_,
        "a": by_table[1][0],  # at table 1
        "b": by_table[2][0],  # at table 2
        "asking": asking,
        "approving": approving,
    }


def ask(drawn, **extra):
    return fairness.request_swap(
        round=drawn["round"],
        first=drawn["a"],
        second=drawn["b"],
        reason=extra.pop("reason", "Rollstuhl: Tisch am Eingang"),
        user=extra.pop("user", drawn["asking"]),
    )


def test_a_request_changes_no_seat_until_a_second_official_approves(drawn):
    tournament, round_ = drawn["tournament"], drawn["round"]
    before, rev = seating(round_), revision(tournament)
    swap = ask(drawn)
    assert swap.state == SeatSwap.State.REQUESTED
    assert seating(round_) == before and revision(tournament) == rev
    asked = TournamentChange.objects.get(action=TournamentChange.Action.SWAP_REQUESTED)
    assert asked.changed_by == drawn["asking"] and asked.reason == "Rollstuhl: Tisch am Eingang"

    fairness.approve_swap(swap=swap, user=drawn["approving"])
    after = seating(round_)
    a, b = drawn["a"].pk, drawn["b"].pk
    assert (after[a], after[b]) == (before[b], before[a])
    assert revision(tournament) == rev + 1
    swap.refresh_from_db()
    assert swap.state == SeatSwap.State.APPROVED and swap.decided_by == drawn["approving"]
    done = TournamentChange.objects.get(action=TournamentChange.Action.SWAPPED)
    assert done.changed_by == drawn["approving"] and done.reason == swap.reason
    assert done.after["requested_by"] == "Lea" and done.after["approved_by"] == "Sepp"


def test_the_official_who_asked_cannot_approve(drawn):
    swap = ask(drawn)
    before = seating(drawn["round"])
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        fairness.approve_swap(swap=swap, user=drawn["asking"])
    assert "zweiter" in refused.value.messages[0]
    swap.refresh_from_db()
    assert swap.state == SeatSwap.State.REQUESTED and seating(drawn["round"]) == before


def test_an_approved_swap_cannot_be_approved_again(drawn):
    swap = ask(drawn)
    fairness.approve_swap(swap=swap, user=drawn["approving"])
    once = seating(drawn["round"])
    third = get_user_model().objects.create_user("dritte")
    drawn["tournament"].referees.add(third)
    with pytest.raises(ValidationError):
        fairness.approve_swap(swap=swap, user=third)
    assert seating(drawn["round"]) == once  # not swapped back
    assert TournamentChange.objects.filter(action="swapped").count() == 1


def test_the_database_refuses_an_approval_by_the_one_who_asked(drawn):
    swap = ask(drawn)
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatSwap.objects.filter(pk=swap.pk).update(
            state=SeatSwap.State.APPROVED,
            decided_at=timezone.now(),
            decided_by=drawn["asking"],
            decided_name="Lea",
        )


@pytest.mark.parametrize("who", ["nobody", "other_club_organiser", "other_referee", None])
def test_a_non_official_cannot_approve_nor_ask(drawn, who):
    users = get_user_model().objects
    if who is None:
        user = None
    else:
        user = users.create_user(who)
        if who == "other_club_organiser":
            ClubRole.objects.create(user=user, club=ClubFactory())
        elif who == "other_referee":
            TournamentFactory().referees.add(user)
    swap = ask(drawn)
    before = seating(drawn["round"])
    with pytest.raises(ValidationError):
        fairness.approve_swap(swap=swap, user=user)
    with pytest.raises(ValidationError):
        fairness.decline_swap(swap=swap, user=user)
    with pytest.raises(ValidationError):
        ask(drawn, user=user)
    swap.refresh_from_db()
    assert swap.state == SeatSwap.State.REQUESTED and seating(drawn["round"]) == before
    assert SeatSwap.objects.count() == 1


def test_refused_and_withdrawn_swaps_change_no_seat_and_are_logged(drawn):
    before = seating(drawn["round"])
    refused = fairness.decline_swap(swap=ask(drawn), user=drawn["approving"], note="unnötig")
    assert refused.state == SeatSwap.State.REFUSED
    withdrawn = fairness.decline_swap(swap=ask(drawn), user=drawn["asking"])
    assert withdrawn.state == SeatSwap.State.WITHDRAWN
    assert seating(drawn["round"]) == before
    actions = list(
        TournamentChange.objects.filter(action__startswith="swap").values_list("action", flat=True)
    )
    assert actions == ["swap_requested", "swap_refused", "swap_requested", "swap_withdrawn"]
    with pytest.raises(ValidationError):  # decided: no second decision
        fairness.approve_swap(swap=withdrawn, user=drawn["approving"])


def test_a_request_needs_a_reason_and_one_waiting_request_per_player(drawn):
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        ask(drawn, reason="   ")
    assert "reason" in refused.value.message_dict
    ask(drawn)
    with pytest.raises(ValidationError):
        ask(drawn)  # the same players again while the first waits
    assert SeatSwap.objects.count() == 1


def test_seats_that_moved_since_the_request_are_not_swapped(drawn):
    swap = ask(drawn)
    asked = (swap.first_table, swap.first_position)
    moved = seating(drawn["round"])
    while moved[drawn["a"].pk] == asked:  # another draw, until it moves the first player
        draws.redraw_round(round=drawn["round"], same_seed=False)
        moved = seating(drawn["round"])
    with pytest.raises(ValidationError):
        fairness.approve_swap(swap=swap, user=drawn["approving"])
    assert seating(drawn["round"]) == moved


def test_a_started_round_is_not_swapped(drawn):
    from tests.tournaments.setup.factories import add_total

    swap = ask(drawn)
    add_total(drawn["round"].tables.first())
    before = seating(drawn["round"])
    with pytest.raises(ValidationError):
        fairness.approve_swap(swap=swap, user=drawn["approving"])
    assert seating(drawn["round"]) == before


# --- the pages ---------------------------------------------------------------------------


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_asked_at_the_draw_page_and_approved_on_the_second_officials_own_device(drawn):
    tournament, round_ = drawn["tournament"], drawn["round"]
    before = seating(round_)
    desk = logged_in(drawn["asking"])
    response = desk.post(
        reverse("tournaments:round_draw", args=[tournament.pk, 1]),
        {"action": "swap", "first": drawn["a"].pk, "second": drawn["b"].pk, "reason": "Licht"},
    )
    assert response.status_code == 302 and seating(round_) == before
    swap = SeatSwap.objects.get()
    page = desk.get(reverse("tournaments:seat_swaps", args=[tournament.pk])).content.decode()
    assert "Platztausch beantragt" in page and "Licht" in page
    url = reverse("tournaments:seat_swap_decide", args=[tournament.pk, swap.pk])
    desk.post(url, {"action": "approve"})  # the same login: refused
    assert seating(round_) == before
    referee = logged_in(drawn["approving"])
    assert referee.post(url, {"action": "approve"}).status_code == 302
    assert seating(round_) != before
    swap.refresh_from_db()
    assert swap.decided_by == drawn["approving"]


def test_the_second_official_types_their_password_at_the_same_laptop(drawn):
    tournament, round_ = drawn["tournament"], drawn["round"]
    drawn["approving"].set_password("geheim-2")
    drawn["approving"].save()
    swap = ask(drawn)
    before = seating(round_)
    desk = logged_in(drawn["asking"])
    url = reverse("tournaments:seat_swap_decide", args=[tournament.pk, swap.pk])
    prefix = f"s{swap.pk}"
    wrong = desk.post(
        url,
        {"action": "approve", f"{prefix}-username": drawn["approving"].username,
         f"{prefix}-password": "falsch"},
    )  # fmt: skip
    assert wrong.status_code == 400 and "Passwort stimmt nicht" in wrong.content.decode()
    assert seating(round_) == before
    # a valid login of someone who is no official of the tournament: refused too
    get_user_model().objects.create_user("zuschauer", password="geheim-3")
    desk.post(
        url,
        {"action": "approve", f"{prefix}-username": "zuschauer", f"{prefix}-password": "geheim-3"},
    )
    assert seating(round_) == before
    # the asking official typing their own password: not a second official
    drawn["asking"].set_password("geheim-1")
    drawn["asking"].save()
    desk.force_login(drawn["asking"])
    desk.post(
        url,
        {"action": "approve", f"{prefix}-username": drawn["asking"].username,
         f"{prefix}-password": "geheim-1"},
    )  # fmt: skip
    assert seating(round_) == before
    response = desk.post(
        url,
        {"action": "approve", f"{prefix}-username": drawn["approving"].username,
         f"{prefix}-password": "geheim-2"},
    )  # fmt: skip
    assert response.status_code == 302 and seating(round_) != before
    done = TournamentChange.objects.get(action="swapped")
    assert done.changed_by == drawn["approving"]
    assert done.after["signed_at_login_of"] == drawn["asking"].username
    # the desk is still the asking official's login
    assert (
        desk.get(reverse("tournaments:seat_swaps", args=[tournament.pk])).context["user"]
        == drawn["asking"]
    )


def test_the_public_page_lists_approved_swaps_and_the_reason_only_for_officials(drawn):
    tournament = drawn["tournament"]
    url = reverse("tournaments:standings", args=[tournament.pk])
    waiting = ask(drawn)
    assert "Platztausch" not in Client().get(url).content.decode()  # asked only
    fairness.approve_swap(swap=waiting, user=drawn["approving"])
    public = Client().get(url).content.decode()
    assert "Platztausch Tisch 1 ↔ Tisch 2" in public
    assert "beantragt von Lea, genehmigt von Sepp" in public
    assert "Rollstuhl" not in public
    official = logged_in(drawn["asking"]).get(url).content.decode()
    assert "Platztausch Tisch 1 ↔ Tisch 2" in official and "Rollstuhl" in official


def test_the_phone_follows_the_seats_after_a_swap(drawn):
    round_ = drawn["round"]
    table_1 = round_.tables.get(number=1)
    a = drawn["a"]
    position = Seat.objects.get(round=round_, entry=a).position
    phone = Client()
    page = reverse("tournaments:table_entry", args=[table_1.token])
    phone.post(
        reverse("tournaments:table_entry_seat", args=[table_1.token]), {"position": position}
    )
    assert a.player.full_name in phone.get(page).content.decode()
    fairness.approve_swap(swap=ask(drawn), user=drawn["approving"])
    after = phone.get(page)
    text = after.content.decode()
    # the table's page names who sits there now, and asks this phone again who it is: its
    # player has moved to table 2 (it claimed to be the newcomer before)
    assert drawn["b"].player.full_name in text and a.player.full_name not in text
    assert after.templates[0].name == "tournaments/entry/phone_choose_seat.html"
