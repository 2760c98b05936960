"""Double entry covers every paper path (issue 39, item 6): a sheet of round totals only is
typed twice like a sheet of deals as written, and a table whose sheet waits for its second
typing takes no deal from the desk's form or a phone."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tournaments import sheet_compare
from tournaments.models import Deal, SheetTyping, Tournament, TournamentChange
from tournaments.selectors.round_status import round_status
from tournaments.selectors.standings import tournament_standings
from tournaments.services import double_entry, paper_sheets, phone_entry
from tournaments.services.double_entry import TypingConflict
from tournaments.services.paper_sheets import WrittenRow
from tournaments.services.results_common import ResultError

pytestmark = pytest.mark.django_db

TOTALS = [30, -10, -40, 20]
HALBE_WON_1 = WrittenRow(1, "halbe", 1, (None, 60, None, None))
# the German messages the desk and the phone show in place of the deal form
WAITS_DE = "Der Papierbogen dieses Tisches wartet auf seine Zweiteingabe am Laptop"
DIFFERS_DE = "Die beiden Eingaben des Papierbogens dieses Tisches weichen ab"
NOT_SAVED_DE = "Das Spiel wurde nicht gespeichert."


@pytest.fixture
def double_table(swm_tournament):
    Tournament.objects.filter(pk=swm_tournament.pk).update(double_entry=True)
    return seat_table(tournament=Tournament.objects.get(pk=swm_tournament.pk))


@pytest.fixture
def helper(django_user_model):
    return django_user_model.objects.create_superuser("helferin", "", "pw")


def _totals(table) -> list[int]:
    """Each seat's total in the tournament's standings (0 for a player without a result)."""
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    rows = {row.entry_id: row.total for row in tournament_standings(tournament=tournament).rows}
    return [rows.get(seat.entry_id, 0) for seat in table.seats.order_by("position")]


def _table_open(table) -> bool:
    status = round_status(round=table.round)
    return next(t for t in status.tables if t.table_id == table.pk).is_open


def _revision(table) -> int:
    return Tournament.objects.get(pk=table.round.tournament_id).revision


def _args(table) -> list[int]:
    return [table.round.tournament_id, table.round.number, table.number]


def _totals_post(totals, **extra):
    return {**{f"total_{p}": str(t) for p, t in enumerate(totals)}, **extra}


def deal_post(**fields):
    data = {"number": 1, "contract": "eine", "declarer": 2, "declarer_points": 41}
    data.update(fields)
    data.setdefault("submission_key", str(uuid.uuid4()))
    return data


# --- a sheet of round totals only, typed twice --------------------------------------------


def test_one_save_of_the_totals_page_does_not_count(client, double_table, organiser):
    """The bug: "Dieses Blatt hat nur Rundensummen" saved once counted at once."""
    client.force_login(organiser)
    url = reverse("tournaments:desk_table_totals", args=_args(double_table))
    client.post(url, _totals_post(TOTALS, typing=""))
    assert not Deal.objects.filter(table=double_table).exists()
    assert _totals(double_table) == [0, 0, 0, 0]
    assert _table_open(double_table)


def test_totals_typed_once_do_not_count(double_table, organiser):
    typing = double_entry.type_totals(
        table=double_table, totals=TOTALS, user=organiser, typist="AB", expected_typing=None
    )
    assert typing.kind == SheetTyping.Kind.TOTALS
    assert typing.state == SheetTyping.State.AWAITING_SECOND
    assert not Deal.objects.filter(table=double_table).exists()
    assert _totals(double_table) == [0, 0, 0, 0]
    assert _table_open(double_table)  # the round is not finished
    logged = TournamentChange.objects.get(action="sheet_typed")
    assert logged.actor == "AB"
    assert not any(str(t) in str(logged.after) for t in (30, -10, -40))  # blind: no values
    # a single entry of new totals is refused by the service itself, not only by the page
    with pytest.raises(ResultError, match="doppelt"):
        paper_sheets.enter_totals(table=double_table, totals=TOTALS, user=organiser)
    assert not Deal.objects.filter(table=double_table).exists()


def test_an_agreeing_second_totals_typing_counts(double_table, organiser, helper):
    first = double_entry.type_totals(
        table=double_table, totals=TOTALS, user=organiser, expected_typing=None
    )
    revision = _revision(double_table)
    second = double_entry.type_totals(
        table=double_table, totals=TOTALS, user=helper, typist="CD", expected_typing=first.pk
    )
    assert second.state == SheetTyping.State.COUNTED and not second.same_person
    deal = Deal.objects.get(table=double_table)
    assert deal.kind == Deal.Kind.TOTAL and deal.scores[:4] == TOTALS
    assert _totals(double_table) == TOTALS
    assert not _table_open(double_table)  # the table is finished
    assert _revision(double_table) > revision
    assert TournamentChange.objects.get(action="sheet_retyped").after["counted"] is True
    # a third typing is refused: the totals count (a correction takes a reason instead)
    with pytest.raises(TypingConflict):
        double_entry.type_totals(
            table=double_table, totals=TOTALS, user=helper, expected_typing=first.pk
        )
    with pytest.raises(ResultError):
        double_entry.type_totals(
            table=double_table, totals=TOTALS, user=helper, expected_typing=None
        )
    assert Deal.objects.filter(table=double_table).count() == 1


def test_a_disagreeing_totals_typing_is_held_until_settled(double_table, organiser, helper):
    first = double_entry.type_totals(
        table=double_table, totals=TOTALS, user=organiser, expected_typing=None
    )
    second = double_entry.type_totals(
        table=double_table,
        totals=[30, -40, -10, 20],  # two cells swapped
        user=helper,
        expected_typing=first.pk,
    )
    assert second.state == SheetTyping.State.DIFFERENCES
    assert not Deal.objects.filter(table=double_table).exists()
    assert _totals(double_table) == [0, 0, 0, 0]
    assert _table_open(double_table)
    found = sheet_compare.differences(second.first_rows, second.second_rows, seats=4)
    assert [(d.key, d.first, d.second) for d in found] == [
        ("1-seat1", -10, -40),
        ("1-seat2", -40, -10),
    ]
    # settled so that the totals do not add up to 0: refused, nothing counted
    mixed = {"1-seat1": (double_entry.FIRST, None), "1-seat2": (double_entry.FIRST, None)}
    mixed["1-seat2"] = (double_entry.TYPED, -30)
    with pytest.raises(ResultError, match="0"):
        double_entry.settle_sheet(typing=second, choices=mixed, user=organiser)
    assert SheetTyping.objects.get(pk=second.pk).state == SheetTyping.State.DIFFERENCES
    assert not Deal.objects.filter(table=double_table).exists()
    choices = {"1-seat1": (double_entry.FIRST, None), "1-seat2": (double_entry.FIRST, None)}
    settled = double_entry.settle_sheet(typing=second, choices=choices, user=organiser)
    assert settled.state == SheetTyping.State.COUNTED
    assert Deal.objects.get(table=double_table).scores[:4] == TOTALS
    assert _totals(double_table) == TOTALS
    assert not _table_open(double_table)
    cells = TournamentChange.objects.get(action="sheet_settled").after["cells"]
    assert [(c["first_value"], c["second_value"]) for c in cells] == [(-10, -40), (-40, -10)]


def test_bad_totals_typing_changes_nothing(double_table, organiser):
    revision = _revision(double_table)
    for bad in ([10, -10, 5, 0], [10, -10], [2_000_000, -2_000_000, 0, 0]):
        with pytest.raises(ResultError):
            double_entry.type_totals(
                table=double_table, totals=bad, user=organiser, expected_typing=None
            )
    assert not SheetTyping.objects.exists()
    assert _revision(double_table) == revision


def test_a_sheet_is_typed_the_same_way_twice(double_table, organiser, helper):
    totals = double_entry.type_totals(
        table=double_table, totals=TOTALS, user=organiser, expected_typing=None
    )
    with pytest.raises(ResultError, match="waren seine Rundensummen"):
        double_entry.type_sheet(
            table=double_table, rows=[HALBE_WON_1], user=helper, expected_typing=totals.pk
        )
    double_entry.discard_typing(typing=totals, user=organiser, reason="falscher Bogen")
    deals = double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_1], user=organiser, expected_typing=None
    )
    with pytest.raises(ResultError, match="Spiele wie geschrieben"):
        double_entry.type_totals(
            table=double_table, totals=TOTALS, user=helper, expected_typing=deals.pk
        )
    assert SheetTyping.objects.get(pk=deals.pk).state == SheetTyping.State.AWAITING_SECOND
    assert not Deal.objects.filter(table=double_table).exists()


def test_totals_pages_walk_both_typings(client, double_table, organiser, helper):
    """The page says "Dieses Blatt hat nur Rundensummen": one save no longer counts."""
    totals_url = reverse("tournaments:desk_table_totals", args=_args(double_table))
    round_url = reverse("tournaments:desk_round", args=_args(double_table)[:2])
    client.force_login(organiser)
    page = client.get(totals_url).content.decode()
    assert "Erste Eingabe" in page and 'name="typing" value=""' in page
    response = client.post(totals_url, _totals_post(TOTALS, typist="AB", typing=""))
    assert response.status_code == 302 and response["Location"] == totals_url
    assert not Deal.objects.filter(table=double_table).exists()
    typing = SheetTyping.objects.get()
    assert typing.kind == SheetTyping.Kind.TOTALS
    assert "Bogen wartet auf Zweiteingabe (Rundensummen)" in client.get(round_url).content.decode()
    # the second typist's page is blind: no total of the first typing shows
    client.force_login(helper)
    page = client.get(totals_url).content.decode()
    assert "Zweite Eingabe" in page and f'name="typing" value="{typing.pk}"' in page
    assert 'value="30"' not in page and 'value="-40"' not in page
    # the written page sends the second typist to the totals page
    written = client.get(reverse("tournaments:desk_written", args=_args(double_table)))
    assert written["Location"] == totals_url
    response = client.post(totals_url, _totals_post(TOTALS, typist="CD", typing=str(typing.pk)))
    assert response["Location"] == reverse("tournaments:desk_entry", args=_args(double_table))
    assert Deal.objects.get(table=double_table).scores[:4] == TOTALS
    assert "Bogen wartet auf Zweiteingabe" not in client.get(round_url).content.decode()


def test_totals_pages_hold_and_settle_a_difference(client, double_table, organiser, helper):
    totals_url = reverse("tournaments:desk_table_totals", args=_args(double_table))
    differences_url = reverse("tournaments:desk_written_differences", args=_args(double_table))
    client.force_login(organiser)
    client.post(totals_url, _totals_post(TOTALS, typing=""))
    typing = SheetTyping.objects.get()
    client.force_login(helper)
    response = client.post(totals_url, _totals_post([30, -40, -10, 20], typing=str(typing.pk)))
    assert response["Location"] == differences_url
    assert client.get(totals_url)["Location"] == differences_url  # the form waits
    assert not Deal.objects.exists()
    page = client.get(differences_url).content.decode()
    assert "≠" in page and "Rundensummen" in page
    assert "<mark>-10</mark>" in page and "<mark>-40</mark>" in page
    # the whole line of the second typing, then settled with it
    page = client.post(differences_url, {"typing": str(typing.pk), "line": "second:1"})
    assert page.content.decode().count('value="second" checked') == 2
    assert not Deal.objects.exists()
    choices = {"choice_1-seat1": "second", "choice_1-seat2": "second"}
    response = client.post(differences_url, {"typing": str(typing.pk), **choices})
    assert response.status_code == 302
    assert Deal.objects.get().scores[:4] == [30, -40, -10, 20]


def test_totals_only_tournament_types_every_sheet_twice(client, organiser, helper):
    tournament = TournamentFactory(entry_mode="totals", double_entry=True)
    table = seat_table(tournament=tournament)
    url = reverse("tournaments:desk_entry", args=_args(table))
    client.force_login(organiser)
    assert "Erste Eingabe" in client.get(url).content.decode()
    client.post(url, _totals_post(TOTALS, typing=""))
    assert not Deal.objects.exists()
    assert _table_open(table)
    typing = SheetTyping.objects.get()
    client.force_login(helper)
    client.post(url, _totals_post(TOTALS, typing=str(typing.pk)))
    assert Deal.objects.get().scores[:4] == TOTALS
    assert not _table_open(table)
    # counted totals are corrected once, with a reason (as a counted deal is)
    deal = Deal.objects.get()
    client.post(
        url,
        _totals_post([20, 0, -40, 20], expected_version=deal.version, reason="Summe verschrieben"),
    )
    assert Deal.objects.get().scores[:4] == [20, 0, -40, 20]
    assert SheetTyping.objects.count() == 1


# --- a waiting sheet: no deal from the desk's form or a phone -----------------------------


def _typed_once(table, user, kind: str) -> SheetTyping:
    if kind == "totals":
        return double_entry.type_totals(table=table, totals=TOTALS, user=user, expected_typing=None)
    return double_entry.type_sheet(table=table, rows=[HALBE_WON_1], user=user, expected_typing=None)


@pytest.mark.parametrize("kind", ["deals", "totals"])
def test_the_desk_offers_no_deal_form_while_the_sheet_waits(client, double_table, organiser, kind):
    _typed_once(double_table, organiser, kind)
    url = reverse("tournaments:desk_entry", args=_args(double_table))
    client.force_login(organiser)
    with translation.override("de"):
        page = client.get(url).content.decode()
    assert 'id="deal-form"' not in page
    assert WAITS_DE in page
    revision = _revision(double_table)
    response = client.post(url, deal_post(number=5))
    assert response.status_code == 409
    html = response.content.decode()
    assert NOT_SAVED_DE in html and WAITS_DE in html and 'id="deal-form"' not in html
    assert not Deal.objects.filter(table=double_table).exists()
    assert _revision(double_table) == revision


@pytest.mark.parametrize("kind", ["deals", "totals"])
def test_the_phone_offers_no_deal_form_while_the_sheet_waits(client, double_table, organiser, kind):
    _typed_once(double_table, organiser, kind)
    client.post(reverse("tournaments:table_entry_seat", args=[double_table.token]), {"position": 0})
    url = reverse("tournaments:table_entry", args=[double_table.token])
    page = client.get(url).content.decode()
    assert 'id="deal-form"' not in page
    assert WAITS_DE in page
    revision = _revision(double_table)
    response = client.post(url, deal_post(number=5))
    assert response.status_code == 409
    html = response.content.decode()
    assert NOT_SAVED_DE in html and WAITS_DE in html
    assert not Deal.objects.filter(table=double_table).exists()
    assert _revision(double_table) == revision


def test_differences_to_settle_also_keep_the_deal_forms_away(
    client, double_table, organiser, helper
):
    first = _typed_once(double_table, organiser, "totals")
    double_entry.type_totals(
        table=double_table, totals=[30, -40, -10, 20], user=helper, expected_typing=first.pk
    )
    client.force_login(organiser)
    desk = client.post(
        reverse("tournaments:desk_entry", args=_args(double_table)), deal_post(number=5)
    )
    assert desk.status_code == 409 and DIFFERS_DE in desk.content.decode()
    phone = Client()
    phone.post(reverse("tournaments:table_entry_seat", args=[double_table.token]), {"position": 1})
    answer = phone.post(reverse("tournaments:table_entry", args=[double_table.token]), deal_post())
    assert answer.status_code == 409 and DIFFERS_DE in answer.content.decode()
    assert not Deal.objects.exists()


def test_the_service_refuses_a_deal_while_the_sheet_waits_and_takes_it_after(
    double_table, organiser
):
    typing = _typed_once(double_table, organiser, "deals")
    for via in ("desk", "table"):
        with pytest.raises(ResultError, match="wartet auf seine Zweiteingabe"):
            phone_entry.enter_deal(
                table=double_table,
                number=5,
                inputs={"contract": "eine", "declarer": 2, "declarer_points": 41},
                via=via,
                user=organiser,
            )
    assert not Deal.objects.exists()
    double_entry.discard_typing(typing=typing, user=organiser, reason="falscher Bogen")
    deal = phone_entry.enter_deal(
        table=double_table,
        number=5,
        inputs={"contract": "eine", "declarer": 2, "declarer_points": 41},
        via="table",
    )
    assert deal.status == Deal.Status.PENDING
