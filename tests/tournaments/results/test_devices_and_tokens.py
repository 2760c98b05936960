"""Table tokens and the phones that use them: one device cannot enter and confirm the same
deal, the history keeps device and address, a closed round takes no more entries, a lost
token can be re-issued, and no change goes through without the version it was made on."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.results.conftest import seat_table
from tournaments.models import SCORE_LIMIT, Deal, DealChange, Round, TournamentChange
from tournaments.services.paper_sheets import enter_totals
from tournaments.services.phone_entry import confirm_deal, enter_deal, revise_deal
from tournaments.services.results_common import DealConflict, Device, ResultError
from tournaments.views.device import COOKIE

pytestmark = pytest.mark.django_db
EINE_WON = {"contract": "eine", "declarer": 1, "declarer_points": 41}


def deal_post(**fields):
    data = {"number": 1, "contract": "eine", "declarer": 2, "declarer_points": 41}
    data.update(fields)
    data.setdefault("submission_key", str(uuid.uuid4()))
    return data


def sit(client, table, position):
    client.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": position})
    return reverse("tournaments:table_entry", args=[table.token])


def test_one_phone_cannot_confirm_its_own_deal_from_another_seat(client, table):
    url = sit(client, table, 0)
    client.post(url, deal_post(), REMOTE_ADDR="192.0.2.10")
    deal = Deal.objects.get()
    device = client.cookies[COOKIE].value
    assert deal.entered_device == device and len(device) == 32
    # The same phone claims another seat and tries to confirm.
    sit(client, table, 2)
    confirm = reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk])
    response = client.post(confirm, {"version": deal.version}, follow=True)
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING
    assert "Dieses Handy hat das Spiel eingegeben" in response.content.decode()
    # Another phone confirms; the history has both devices and addresses.
    other = Client()
    sit(other, table, 3)
    other.post(confirm, {"version": deal.version}, REMOTE_ADDR="192.0.2.11")
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED
    assert deal.confirmed_device == other.cookies[COOKIE].value != device
    created, confirmed = deal.changes.order_by("pk")
    assert (created.device, created.ip_address) == (device, "192.0.2.10")
    assert (confirmed.device, confirmed.ip_address) == (deal.confirmed_device, "192.0.2.11")
    assert not deal.same_device


def test_the_device_cookie_is_kept_and_forged_values_replaced(client, table):
    sit(client, table, 0)
    client.get(reverse("tournaments:table_entry", args=[table.token]))
    first = client.cookies[COOKIE].value
    client.get(reverse("tournaments:table_entry", args=[table.token]))
    assert client.cookies[COOKIE].value == first
    client.cookies[COOKIE] = "<script>"
    client.post(reverse("tournaments:table_entry", args=[table.token]), deal_post())
    assert Deal.objects.get().entered_device not in ("", "<script>")


def test_the_desk_sees_deals_entered_and_confirmed_on_one_phone(client, table, organiser):
    """Stored before the refusal existed, or forged: the organiser sees it marked."""
    deal = enter_deal(
        table=table,
        number=1,
        inputs=EINE_WON,
        via="table",
        entered_by_position=0,
        device=Device(id="b" * 32),
    )
    Deal.objects.filter(pk=deal.pk).update(status="confirmed", confirmed_device="b" * 32)
    client.force_login(organiser)
    tournament = table.round.tournament
    html = client.get(
        reverse("tournaments:desk_round", args=[tournament.pk, table.round.number])
    ).content.decode()
    assert "1 auf einem Handy" in html
    html = client.get(
        reverse("tournaments:desk_entry", args=[tournament.pk, table.round.number, table.number])
    ).content.decode()
    assert 'class="same-device"' in html


def test_a_closed_round_takes_no_entry_or_confirmation_from_the_table(client, table):
    url = sit(client, table, 0)
    client.post(url, deal_post())
    deal = Deal.objects.get()
    Round.objects.filter(pk=table.round_id).update(state=Round.State.CLOSED)
    response = client.post(url, deal_post(number=2))
    assert response.status_code == 200
    assert Deal.objects.count() == 1
    other = Client()
    sit(other, table, 3)
    other.post(
        reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk]),
        {"version": deal.version},
    )
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING


def test_a_token_opens_only_its_own_table_and_round(client, table):
    tournament = table.round.tournament
    round_2 = seat_table(tournament=tournament, round_number=2)
    url = sit(client, table, 0)
    client.post(url, deal_post())
    deal = Deal.objects.get()
    # Round 2's token does not reach round 1's deal.
    for name in ("table_entry_confirm", "table_entry_revise"):
        response = client.post(reverse(f"tournaments:{name}", args=[round_2.token, deal.pk]))
        assert response.status_code == 404, name


def test_reissued_token_replaces_the_old_one(client, table, organiser):
    old, old_code = table.token, table.short_code
    client.force_login(organiser)
    response = client.post(reverse("tournaments:table_token", args=[table.pk]))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.token != old and table.short_code != old_code
    phone = Client()
    gone = phone.get(reverse("tournaments:table_entry", args=[old]))
    assert gone.status_code == 404
    assert "Turnierleitung" in gone.content.decode()  # says what to do, in German
    typed = phone.get(reverse("tournaments:table_short_code", args=[old_code]))
    assert typed.status_code == 404  # the typed short address is replaced too
    assert phone.get(reverse("tournaments:table_entry", args=[table.token])).status_code == 200
    change = TournamentChange.objects.get(action="token_reissued")
    assert change.changed_by == organiser
    # The desk page shows the new address and its QR code.
    html = client.get(response["Location"]).content.decode()
    assert f"/t/{table.token}/" in html and "data:image/svg+xml" in html


def test_confirmation_without_a_version_is_refused(table):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON, via="table", entered_by_position=0)
    with pytest.raises(TypeError):
        confirm_deal(deal=deal, confirmer_position=1)  # the keyword is required
    with pytest.raises(DealConflict):
        confirm_deal(deal=deal, confirmer_position=1, expected_version=None)
    with pytest.raises(DealConflict):
        confirm_deal(deal=deal, confirmer_position=1, expected_version=0)
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING


def test_confirmation_of_a_deal_changed_meanwhile_is_refused(table):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON, via="table", entered_by_position=0)
    revise_deal(
        deal=deal,
        inputs={**EINE_WON, "declarer_points": 50},
        expected_version=1,
        entered_by_position=0,
    )
    with pytest.raises(DealConflict):
        confirm_deal(deal=deal, confirmer_position=1, expected_version=1)


def test_correction_without_a_version_is_refused(table, organiser):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    with pytest.raises(TypeError):
        revise_deal(deal=deal, inputs=EINE_WON, user=organiser, reason="x")  # required keyword
    with pytest.raises(DealConflict):
        revise_deal(deal=deal, inputs=EINE_WON, expected_version=None, user=organiser, reason="x")


def test_the_correction_form_needs_the_version(client, table, organiser):
    deal = enter_deal(table=table, number=1, inputs=EINE_WON)
    client.force_login(organiser)
    url = reverse("tournaments:deal_correct", args=[deal.pk])
    data = deal_post(declarer_points=50, reason="Tippfehler")
    response = client.post(url, data)
    assert response.status_code == 200
    assert "expected_version" in response.context["form"].errors
    deal.refresh_from_db()
    assert deal.declarer_points == 41 and deal.version == 1
    # With the version it is applied; with a stale one it is refused.
    client.post(url, {**deal_post(declarer_points=50, reason="Tippfehler"), "expected_version": 1})
    deal.refresh_from_db()
    assert deal.declarer_points == 50 and deal.version == 2
    client.post(url, {**deal_post(declarer_points=60, reason="nochmal"), "expected_version": 1})
    deal.refresh_from_db()
    assert deal.declarer_points == 50
    assert DealChange.objects.filter(deal=deal, action="corrected").count() == 1


def test_the_phone_revise_form_needs_the_version(client, table):
    url = sit(client, table, 0)
    client.post(url, deal_post())
    deal = Deal.objects.get()
    revise = reverse("tournaments:table_entry_revise", args=[table.token, deal.pk])
    response = client.post(revise, deal_post(declarer_points=45))
    assert response.status_code == 200
    deal.refresh_from_db()
    assert deal.declarer_points == 41


@pytest.fixture
def totals_table(swm_tournament):
    swm_tournament.entry_mode = "totals"
    swm_tournament.save()
    return seat_table(tournament=swm_tournament)


@pytest.mark.parametrize("huge", [99_999_999_999, SCORE_LIMIT + 1])
def test_totals_out_of_bounds_are_refused_by_the_service(totals_table, organiser, huge):
    with pytest.raises(ResultError) as error:
        enter_totals(table=totals_table, totals=[huge, -huge, 0, 0], user=organiser)
    assert error.value.field == "totals"
    assert not Deal.objects.exists()


def test_totals_form_refuses_huge_numbers_without_a_server_error(client, totals_table, organiser):
    client.force_login(organiser)
    tournament = totals_table.round.tournament
    url = reverse("tournaments:desk_entry", args=[tournament.pk, 1, totals_table.number])
    data = {
        "total_0": 99_999_999_999,
        "total_1": -99_999_999_999,
        "total_2": 0,
        "total_3": 0,
        "submission_key": str(uuid.uuid4()),
    }
    response = client.post(url, data)
    assert response.status_code == 200
    assert "total_0" in response.context["form"].errors
    assert not Deal.objects.exists()
    data.update(total_0=SCORE_LIMIT, total_1=-SCORE_LIMIT)
    assert client.post(url, data).status_code == 302
    assert Deal.objects.get().scores[:2] == [SCORE_LIMIT, -SCORE_LIMIT]
