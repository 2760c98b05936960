"""House rules in the admin, their tariff card, and the snapshot a tournament pins."""

import datetime as dt
import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from rules.builtin_sources import builtin_data
from rules.models import HouseRuleSource
from rules.registry import get_rule_source, rule_source_data
from scoring import deal_from_record, score_deal
from tests.factories import ClubFactory
from tests.rules.conftest import house_data
from tournaments.rule_snapshot import rule_source_of
from tournaments.services.setup import create_tournament

pytestmark = pytest.mark.django_db

ADD = reverse("admin:rules_houserulesource_add")


def post(client, url, **fields):
    form = {key: json.dumps(v) if isinstance(v, dict) else v for key, v in fields.items()}
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client.post(url, form)


def errors(response) -> str:
    """The text of the form's error lists."""
    html = response.content.decode()
    return " | ".join(re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, re.S))


def test_add_with_empty_parameters_copies_the_builtin(staff_client):
    club = ClubFactory()
    response = post(staff_client, ADD, club=club.pk, slug="ccb_2026", based_on="bb2013", data="")
    assert response.status_code == 302, errors(response)
    house = HouseRuleSource.objects.get()
    assert house.data == {**builtin_data("bb2013"), "slug": "ccb_2026"}
    assert get_rule_source("ccb_2026").contracts == get_rule_source("bb2013").contracts


def test_add_with_an_added_fixed_contract(staff_client, client):
    club = ClubFactory(name="Cegofreunde Hinterzarten")
    data = house_data(slug="anything")  # the row's slug wins
    response = post(staff_client, ADD, club=club.pk, slug="cfh", based_on="swm", data=data)
    assert response.status_code == 302, errors(response)
    house = HouseRuleSource.objects.get()
    assert house.data["slug"] == "cfh"
    assert house.data["contracts"]["trio"]["amount"] == 20
    record = {"rules": "cfh", "seats": 4, "contract": "trio", "declarer": 0, "won": False}
    assert score_deal(get_rule_source("cfh"), deal_from_record(record)).scores == (-60, 20, 20, 20)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    card = client.get(reverse("rules:tariff_card", args=["cfh"]))
    html = card.content.decode()
    assert "House rules of Cegofreunde Hinterzarten" in html
    assert re.search(r"<th>Trio</th><td>20</td>", html)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["contracts"]["trio"].update(amount=-5),
            "contracts.trio.amount: must be a positive whole number",
        ),
        (
            lambda d: d["contracts"]["trio"].update(amout=5),
            "contracts.trio.amout: is not a known parameter",
        ),
        (lambda d: d["counting"].update(win_at=90), "counting.win_at: must not be more than"),
        (
            lambda d: d["tables"]["4"].update(forbidden=["quarto"]),
            "tables.4.forbidden: names a contract this rule source lacks (quarto)",
        ),
        (lambda d: d.pop("unit"), "unit: is required"),
    ],
)
def test_add_with_invalid_parameters_shows_path_and_message(staff_client, change, message):
    club = ClubFactory()
    data = house_data()
    change(data)
    response = post(staff_client, ADD, club=club.pk, slug="cc_x", based_on="swm", data=data)
    assert response.status_code == 200
    assert message in errors(response)
    assert not HouseRuleSource.objects.exists()


def test_add_with_broken_json_is_refused(staff_client):
    club = ClubFactory()
    response = post(staff_client, ADD, club=club.pk, slug="cc_x", based_on="swm", data="{oops")
    assert response.status_code == 200
    assert "Enter a valid JSON" in errors(response)
    assert not HouseRuleSource.objects.exists()


@pytest.mark.parametrize("slug", ["swm", "dreierles"])
def test_a_builtin_slug_is_refused(staff_client, slug):
    club = ClubFactory()
    response = post(staff_client, ADD, club=club.pk, slug=slug, based_on="swm", data="")
    assert response.status_code == 200
    assert "This name belongs to a built-in rule source." in errors(response)
    assert not HouseRuleSource.objects.exists()


def test_a_malformed_slug_is_refused_without_a_parameter_error(staff_client):
    club = ClubFactory()
    response = post(staff_client, ADD, club=club.pk, slug="Club-X", based_on="swm", data="")
    assert response.status_code == 200
    text = errors(response)
    assert "Use lower-case letters" in text
    assert "slug:" not in text  # the parameters themselves are fine
    assert not HouseRuleSource.objects.exists()


def test_change_valid_and_invalid(staff_client, house_rules):
    url = reverse("admin:rules_houserulesource_change", args=[house_rules.pk])
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = staff_client.get(url)
    assert page.status_code == 200
    assert '"trio": {' in page.content.decode()  # the parameters shown indented, readable
    assert reverse("rules:tariff_card", args=[house_rules.slug]) in page.content.decode()

    bad = json.loads(json.dumps(house_rules.data))
    bad["normal"]["over"] = 45
    fields = {"club": house_rules.club_id, "slug": house_rules.slug, "based_on": "swm"}
    response = post(staff_client, url, **fields, data=bad)
    assert response.status_code == 200
    assert "normal.over: must be less than 40" in errors(response)
    house_rules.refresh_from_db()
    assert house_rules.data["normal"]["over"] == 39

    good = json.loads(json.dumps(house_rules.data))
    good["contracts"]["trio"]["amount"] = 25
    response = post(staff_client, url, **fields, data=good)
    assert response.status_code == 302, errors(response)
    house_rules.refresh_from_db()
    assert house_rules.data["contracts"]["trio"]["amount"] == 25


def test_house_rules_changelist_links_the_tariff_card(staff_client, house_rules):
    response = staff_client.get(reverse("admin:rules_houserulesource_changelist"))
    assert response.status_code == 200
    assert reverse("printing:tariff_card_pdf", args=[house_rules.slug]) in response.content.decode()


# ---------------------------------------------------------------- the tournament's snapshot


def test_tournament_pins_the_house_rules_and_later_edits_change_nothing(staff_client, house_rules):
    tournament = create_tournament(
        name="Hausturnier",
        host_club=house_rules.club,
        date=dt.date(2026, 12, 5),
        rules_slug=house_rules.slug,
    )
    pinned = rule_source_data(house_rules.slug)
    assert tournament.rules_snapshot == pinned
    trio = {"rules": house_rules.slug, "seats": 4, "contract": "trio", "declarer": 2, "won": True}
    eine = {"rules": house_rules.slug, "seats": 4, "contract": "eine", "declarer": 0,
            "declarer_points": 52}  # fmt: skip
    before = [
        score_deal(rule_source_of(tournament), deal_from_record(r)).scores for r in (trio, eine)
    ]
    assert before == [(-20, -20, 60, -20), (150, -50, -50, -50)]

    # the club changes its house rules through the admin after the tournament was created
    changed = json.loads(json.dumps(house_rules.data))
    changed["contracts"]["trio"]["amount"] = 50
    changed["normal"]["per_step"] = 10  # every normal game doubles
    url = reverse("admin:rules_houserulesource_change", args=[house_rules.pk])
    fields = {"club": house_rules.club_id, "slug": house_rules.slug, "based_on": "swm"}
    response = post(staff_client, url, **fields, data=changed)
    assert response.status_code == 302, errors(response)
    assert get_rule_source(house_rules.slug).contracts["trio"].amount == 50
    fresh = get_rule_source(house_rules.slug)
    assert score_deal(fresh, deal_from_record(eine)).scores == (270, -90, -90, -90)

    tournament.refresh_from_db()
    assert tournament.rules_snapshot == pinned
    after = [
        score_deal(rule_source_of(tournament), deal_from_record(r)).scores for r in (trio, eine)
    ]
    assert after == before
    # a tournament created now pins the new rules
    later = create_tournament(
        name="Nächstes Turnier",
        host_club=house_rules.club,
        date=dt.date(2027, 1, 9),
        rules_slug=house_rules.slug,
    )
    assert rule_source_of(later).contracts["trio"].amount == 50
