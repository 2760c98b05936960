"""The desk and phone entry pages through the test client."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, DealChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def desk_url(table):
    return reverse(
        "tournaments:desk_entry",
        args=[table.round.tournament_id, table.round.number, table.number],
    )


def deal_post(**fields):
    data = {"number": 1, "contract": "eine", "declarer": 2, "declarer_points": 41}
    data.update(fields)
    data.setdefault("submission_key", str(uuid.uuid4()))
    return data


def test_desk_pages_need_a_login(client, table):
    response = client.get(desk_url(table))
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=")


def test_desk_entry_saves_and_advances_the_deal_number(staff_client, table):
    page = staff_client.get(desk_url(table))
    assert page.status_code == 200
    assert page.context["form"].initial["number"] == 1
    response = staff_client.post(desk_url(table), deal_post())
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.scores[:4] == [-20, -20, 60, -20]
    follow = staff_client.get(desk_url(table))
    assert follow.context["form"].initial["number"] == 2
    assert follow.context["sheet"].totals == (-20, -20, 60, -20)


def test_desk_bad_points_show_next_to_the_field_and_save_nothing(staff_client, table):
    response = staff_client.post(desk_url(table), deal_post(declarer_points=85))
    assert response.status_code == 200
    assert "declarer_points" in response.context["form"].errors
    assert Deal.objects.count() == 0


def test_desk_contract_not_in_rule_source_is_refused(staff_client, table):
    response = staff_client.post(desk_url(table), deal_post(contract="dreier"))
    assert "contract" in response.context["form"].errors
    assert Deal.objects.count() == 0


def test_desk_double_submit_stores_once(staff_client, table):
    data = deal_post()
    staff_client.post(desk_url(table), data)
    staff_client.post(desk_url(table), data)
    assert Deal.objects.count() == 1


def test_desk_stale_second_form_for_the_same_number_gets_a_conflict(staff_client, table):
    staff_client.post(desk_url(table), deal_post())
    response = staff_client.post(desk_url(table), deal_post(declarer_points=20))
    assert response.status_code == 200
    assert "number" in response.context["form"].errors
    assert Deal.objects.get().declarer_points == 41


def test_preview_shows_scores_without_saving(staff_client, table):
    response = staff_client.post(reverse("tournaments:desk_preview", args=[table.pk]), deal_post())
    assert response.status_code == 200
    assert response.context["scores"][2][1] == 60
    assert Deal.objects.count() == 0


def test_correction_with_reason_and_history(staff_client, table):
    staff_client.post(desk_url(table), deal_post())
    deal = Deal.objects.get()
    url = reverse("tournaments:deal_correct", args=[deal.pk])
    assert staff_client.get(url).status_code == 200
    missing_reason = staff_client.post(url, deal_post(declarer_points=34, expected_version=1))
    assert "reason" in missing_reason.context["reason_form"].errors
    staff_client.post(
        url, {**deal_post(declarer_points=34, expected_version=1), "reason": "Zählfehler"}
    )
    deal.refresh_from_db()
    assert deal.declarer_points == 34 and deal.version == 2
    assert DealChange.objects.filter(deal=deal, action="corrected", reason="Zählfehler").exists()
    annul = staff_client.post(
        reverse("tournaments:deal_annul", args=[deal.pk]), {"reason": "vergeben"}
    )
    assert annul.status_code == 302
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED


def test_void_table_needs_reason(staff_client, table):
    url = reverse("tournaments:table_void", args=[table.pk])
    staff_client.post(url, {"reason": ""})
    table.refresh_from_db()
    assert not table.voided
    staff_client.post(url, {"reason": "Blatt unleserlich"})
    table.refresh_from_db()
    assert table.voided
    staff_client.post(url, {"undo": "1", "reason": ""})
    table.refresh_from_db()
    assert table.voided  # counting it again needs a reason too
    staff_client.post(url, {"undo": "1", "reason": "Blatt rekonstruiert"})
    table.refresh_from_db()
    assert not table.voided
    round_page = staff_client.get(
        reverse("tournaments:desk_round", args=[table.round.tournament_id, table.round.number])
    )
    html = round_page.content.decode()
    assert html.count("Blatt rekonstruiert") == 1  # once, in the page's history section
    head = html[: html.index("</head>")]
    assert "<section" not in head and "Blatt" not in head


def test_totals_only_desk(staff_client, db):
    table = seat_table(tournament=TournamentFactory(entry_mode="totals"))
    url = desk_url(table)
    bad = staff_client.post(url, {"total_0": 10, "total_1": 0, "total_2": 0, "total_3": 0})
    assert bad.status_code == 200 and Deal.objects.count() == 0
    staff_client.post(url, {"total_0": 10, "total_1": -10, "total_2": 30, "total_3": -30})
    assert Deal.objects.get().scores[:4] == [10, -10, 30, -30]


def phone(client, table, position):
    client.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": position})
    return reverse("tournaments:table_entry", args=[table.token])


def test_phone_entry_needs_confirmation_from_another_seat(client, table):
    url = phone(client, table, 0)
    assert client.get(url).status_code == 200
    client.post(url, deal_post())
    deal = Deal.objects.get()
    assert deal.status == Deal.Status.PENDING and deal.entered_by_position == 0
    confirm = reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk])
    client.post(confirm, {"version": deal.version})
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING  # the same player cannot confirm
    second = Client()  # a second phone: its own session
    phone(second, table, 3)
    second.post(confirm, {"version": deal.version})
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED
    assert deal.changes.last().actor.startswith(table.seats.get(position=3).entry.player.full_name)


def test_phone_token_opens_only_its_table(client, table):
    assert client.get(reverse("tournaments:table_entry", args=["not-a-token"])).status_code == 404
    other = seat_table(tournament=table.round.tournament, table_number=2)
    phone(client, other, 0)
    client.post(reverse("tournaments:table_entry", args=[other.token]), deal_post())
    deal = Deal.objects.get()
    response = client.post(
        reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk]), {"version": 1}
    )
    assert response.status_code == 404


def test_phone_double_tap_and_conflict(client, table):
    url = phone(client, table, 1)
    data = deal_post()
    client.post(url, data)
    client.post(url, data)
    assert Deal.objects.count() == 1
    second = Client()
    second_url = phone(second, table, 2)
    response = second.post(second_url, deal_post(declarer_points=30))
    assert response.status_code == 200
    # not an error under the number field: what was saved, to confirm or change
    assert response.context["clash"].deal == Deal.objects.get()
    assert Deal.objects.get().declarer_points == 41


def test_phone_revise_pending_then_other_confirms(client, table):
    url = phone(client, table, 0)
    client.post(url, deal_post())
    deal = Deal.objects.get()
    second = Client()
    phone(second, table, 1)
    revise = reverse("tournaments:table_entry_revise", args=[table.token, deal.pk])
    second.post(revise, deal_post(declarer_points=45, expected_version=1))
    deal.refresh_from_db()
    assert deal.declarer_points == 45 and deal.entered_by_position == 1
    client.post(
        reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk]),
        {"version": deal.version},
    )
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED


def test_phone_pending_list_names_the_players_beside_their_numbers(client, table):
    from tournaments.services import phone_entry

    seats = list(table.seats.order_by("position").select_related("entry__player"))
    short = [f"{s.entry.player.first_name} {s.entry.player.last_name[:1]}." for s in seats]
    phone_entry.enter_deal(
        table=table,
        number=1,
        inputs={"contract": "raeuber", "declarer": 1, "points": [30, 20, 19, 10]},
        via="table",
        entered_by_position=1,
    )
    phone_entry.enter_deal(table=table, number=2, inputs=deal_post(number=2), via="table")
    url = phone(client, table, 0)
    page = client.get(url).content.decode()
    pending = page[page.index('id="pending-1"') : page.index('id="pending-2"')]
    entered = pending[pending.index('class="pending-points"') :].split("</p>")[0]
    for name, points in zip(short, [30, 20, 19, 10], strict=True):
        assert f"{name} <b>{points}</b>" in entered
    assert entered.count(" · ") == 3
    head = pending[pending.index('class="pending-head"') :].split("</p>")[0]
    assert f"· {short[1]}" in head
    scores = pending[pending.index('class="pending-scores"') :].split("</p>")[0]
    assert scores.count("<span>") == 4 and all(name in scores for name in short)
    second = page[page.index('id="pending-2"') :]
    assert "pending-points" not in second.split("</div>")[0]
    assert f"· {short[2]}" in second.split("</p>")[0]
