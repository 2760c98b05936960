"""A deal left waiting is confirmed at the desk; two phones entering one deal; the log, the
preview's penalty and the draw's random number in plain words."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.deal_words import change_texts, deal_parts, scores_text
from tournaments.models import Deal, DealChange
from tournaments.rule_snapshot import rule_source_of
from tournaments.selectors.round_status import round_status
from tournaments.services.desk_entry import confirm_deal_at_desk
from tournaments.services.phone_entry import enter_deal, revise_deal
from tournaments.services.results_common import ResultError
from tournaments.services.round_state import set_round_state

pytestmark = pytest.mark.django_db

HALBE = {"contract": "halbe", "declarer": 1, "declarer_points": 50}


def names(table):
    return [s.entry.player.full_name for s in table.seats.order_by("position")]


def short_names(table):
    return [
        f"{s.entry.player.first_name} {s.entry.player.last_name[:1]}."
        for s in table.seats.order_by("position").select_related("entry__player")
    ]


def phone(client, table, position):
    url = reverse("tournaments:table_entry", args=[table.token])
    client.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": position})
    return url


def post(number=1, **fields):
    return {
        "number": number,
        **{k: v for k, v in HALBE.items()},
        "submission_key": str(uuid.uuid4()),
        **fields,
    }


@pytest.fixture
def pending(table):
    """Entered on one phone, changed on another, and never confirmed again."""
    deal = enter_deal(table=table, number=1, inputs=HALBE, via="table", entered_by_position=0)
    return revise_deal(
        deal=deal,
        inputs={**HALBE, "declarer_points": 55},
        expected_version=deal.version,
        entered_by_position=2,
    )


# --- the desk confirms a pending deal ------------------------------------------------------


def test_desk_confirms_a_pending_deal_and_the_log_says_who(table, pending, organiser):
    deal = confirm_deal_at_desk(deal=pending, user=organiser, expected_version=pending.version)
    assert deal.status == Deal.Status.CONFIRMED
    change = deal.changes.latest("pk")
    assert change.action == DealChange.Action.CONFIRMED and change.changed_by == organiser
    # a repeated click changes nothing; a stale or missing version is refused
    again = confirm_deal_at_desk(deal=pending, user=organiser, expected_version=pending.version)
    assert again.version == deal.version and deal.changes.count() == 3


def test_desk_confirm_refuses_stale_version_confirmed_deal_and_closed_round(
    table, pending, organiser
):
    with pytest.raises(ResultError):
        confirm_deal_at_desk(deal=pending, user=organiser, expected_version=pending.version - 1)
    with pytest.raises(ResultError):
        confirm_deal_at_desk(deal=pending, user=organiser, expected_version=None)
    done = enter_deal(table=table, number=2, inputs=HALBE)
    with pytest.raises(ResultError):
        confirm_deal_at_desk(deal=done, user=organiser, expected_version=done.version)
    set_round_state(round=table.round, state="closed", user=organiser, reason="x", close_open=True)
    with pytest.raises(ResultError):
        confirm_deal_at_desk(deal=pending, user=organiser, expected_version=pending.version)
    pending.refresh_from_db()
    assert pending.status == Deal.Status.PENDING


def test_desk_pages_offer_confirm_and_the_round_links_the_pending_deal(
    client, table, pending, organiser
):
    client.force_login(organiser)
    round_page = client.get(
        reverse("tournaments:desk_round", args=[table.round.tournament_id, 1])
    ).content.decode()
    correct = reverse("tournaments:deal_correct", args=[pending.pk])
    assert f'href="{correct}"' in round_page
    confirm = reverse("tournaments:deal_confirm", args=[pending.pk])
    assert confirm in client.get(correct).content.decode()
    desk = reverse("tournaments:desk_entry", args=[table.round.tournament_id, 1, table.number])
    assert confirm in client.get(desk).content.decode()
    response = client.post(confirm, {"version": pending.version})
    assert response.status_code == 302
    pending.refresh_from_db()
    assert pending.status == Deal.Status.CONFIRMED
    assert confirm not in client.get(desk).content.decode()


def test_round_status_lists_the_pending_deals_in_two_queries(
    table, pending, django_assert_num_queries
):
    enter_deal(table=table, number=3, inputs=HALBE, via="table", entered_by_position=1)
    with django_assert_num_queries(2):
        status = round_status(round=table.round)
    assert [n for _pk, n in status.tables[0].pending_deals] == [1, 3]


# --- two phones, one deal ------------------------------------------------------------------


def test_second_phone_sees_what_was_saved_and_may_confirm_it(client, table):
    first_url = phone(client, table, 0)
    client.post(first_url, post(2))
    second = Client()
    url = phone(second, table, 3)
    with translation.override("de"):
        response = second.post(url, post(2, declarer_points=55), HTTP_ACCEPT_LANGUAGE="de")
    html = response.content.decode()
    short = short_names(table)
    assert f"Spiel 2 hat {short[0]} schon eingetragen:" in html
    assert f"<b>Halbe</b> · <b>{short[1]}</b> · <b>50 Augen</b>" in html
    assert "(Ihr Wert: 55 Augen)" in html
    assert "stimmt – bestätigen" in html and "ändern" in html
    assert 'id="deal-form"' not in html  # no form inviting "number 3" for deal 2
    assert Deal.objects.count() == 1
    deal = Deal.objects.get()
    second.post(
        reverse("tournaments:table_entry_confirm", args=[table.token, deal.pk]),
        {"version": deal.version},
    )
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED and deal.declarer_points == 50


def test_the_phone_that_entered_a_deal_is_not_offered_to_confirm_it(client, table):
    url = phone(client, table, 0)
    client.post(url, post(1))
    response = client.post(url, post(1, declarer_points=40))
    html = response.content.decode()
    assert 'id="clash"' in html
    assert "table_entry_confirm" not in html and "/confirm/" not in html
    assert "/change/" in html


# --- words ---------------------------------------------------------------------------------


def test_the_log_writes_a_deal_in_plain_german_with_names(client, table, pending, organiser):
    confirm_deal_at_desk(deal=pending, user=organiser, expected_version=pending.version)
    pending.refresh_from_db()
    client.force_login(organiser)
    html = client.get(
        reverse("tournaments:tournament_log", args=[table.round.tournament_id]),
        HTTP_ACCEPT_LANGUAGE="de",
    ).content.decode()
    declarer = names(table)[1]
    scores = scores_text(pending.scores[:4])
    assert "\u2212" in scores
    expected = (
        f"Halbe, Alleinspieler {declarer}, 55 Augen: {scores}; wartete auf Bestätigung → bestätigt"
    )
    assert expected in html
    assert "as_written" not in html and "inputs:" not in html and "status:" not in html


def test_a_correction_shows_what_it_was_before(table):
    rules = rule_source_of(table.round.tournament)
    before = {
        "number": 1,
        "kind": "deal",
        "status": "pending",
        "scores": [-10, 30, -10, -10],
        "inputs": HALBE,
        "as_written": False,
    }
    after = {
        **before,
        "status": "confirmed",
        "inputs": {**HALBE, "declarer_points": 70},
        "scores": [-30, 90, -30, -30],
    }
    with translation.override("de"):
        was, now = change_texts(rules=rules, before=before, after=after, names=["A", "B", "C", "D"])
    assert was == "Halbe, Alleinspieler B, 50 Augen: \u221210 / +30 / \u221210 / \u221210"
    assert now == (
        "Halbe, Alleinspieler B, 70 Augen: \u221230 / +90 / \u221230 / \u221230; "
        "wartete auf Bestätigung → bestätigt"
    )


def test_deal_parts_name_a_penalty_and_a_raeuber(table):
    rules = rule_source_of(table.round.tournament)
    with translation.override("de"):
        parts = deal_parts(
            rules=rules,
            inputs={
                "contract": "raeuber",
                "declarer": 0,
                "points": [30, 20, 19, 10],
                "penalty": {"seat": 3, "kind": "revoke"},
            },
            names=["A", "B", "C", "D"],
        )
    # a penalty is named first, as what the deal is (issue 28), the game it replaced after it
    assert parts[0] == "Strafe gegen D (Nichtbedienen oder falsch gelegt), statt Räuber"
    assert parts[1] == "angesagt von A"
    assert "Augen: A 30, B 20, C 19, D 10" in parts


def test_preview_says_a_penalty_replaces_the_game(client, table):
    url = phone(client, table, 0)
    preview = reverse("tournaments:table_entry_preview", args=[table.token])
    plain = client.post(preview, post(1), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "penalty-note" not in plain
    html = client.post(
        preview, post(1, penalty_seat=2, penalty_kind="revoke"), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert 'id="penalty-note"' in html
    assert f"Strafe gegen {names(table)[2]}" in html
    assert "ersetzen das Ergebnis des Spiels" in html
    assert url


def test_draw_page_labels_the_random_number_and_the_seat_plan_drops_it(client, table, organiser):
    client.force_login(organiser)
    seed = "1234567890123456789"
    type(table.round).objects.filter(pk=table.round_id).update(draw_seed=int(seed))
    tournament = table.round.tournament_id
    draw = client.get(
        reverse("tournaments:round_draw", args=[tournament, 1]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert f"Zufallszahl der Auslosung (zum Nachprüfen): {seed}" in draw
    assert "Startwert" not in draw
    plan = client.get(
        reverse("tournaments:seat_plan", args=[tournament, 1]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Startwert" not in plan and "Zufallszahl" not in plan


def test_substitutes_link_is_named_as_an_action(client, table, organiser):
    client.force_login(organiser)
    tournament = table.round.tournament_id
    detail = client.get(
        reverse("tournaments:tournament_detail", args=[tournament]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Ersatzspieler einsetzen" in detail
    assert "Ersatzspieler eingesetzt" not in detail
