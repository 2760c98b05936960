"""Double entry of typed paper sheets: the first typing waits, a second agreeing typing counts,
differences are settled cell by cell (issue 28, item 7)."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from tests.tournaments.results.conftest import seat_table
from tournaments import sheet_compare
from tournaments.models import Deal, DealChange, SheetTyping, Tournament, TournamentChange
from tournaments.selectors.standings import tournament_standings
from tournaments.services import double_entry
from tournaments.services.double_entry import TypingConflict
from tournaments.services.paper_sheets import WrittenRow
from tournaments.services.results_common import ResultError

# Halbe at four (swm): won, 20 from each defender; lost, 40 to each.
HALBE_WON_1 = WrittenRow(1, "halbe", 1, (None, 60, None, None))
HALBE_LOST_2 = WrittenRow(2, "halbe", 2, (None, None, -120, None))
HALBE_WON_2 = WrittenRow(2, "halbe", 2, (None, None, 60, None))


@pytest.fixture(autouse=True)
def english(client):
    """The messages asserted here are the English source strings (German is the default)."""
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def double_table(swm_tournament):
    Tournament.objects.filter(pk=swm_tournament.pk).update(double_entry=True)
    return seat_table(tournament=Tournament.objects.get(pk=swm_tournament.pk))


@pytest.fixture
def helper(django_user_model):
    return django_user_model.objects.create_superuser("helferin", "", "pw")


def _revision(table) -> int:
    return Tournament.objects.get(pk=table.round.tournament_id).revision


def _total(table, position: int) -> int:
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    rows = {row.entry_id: row.total for row in tournament_standings(tournament=tournament).rows}
    entry_id = table.seats.get(position=position).entry_id
    return rows.get(entry_id, 0)


def test_agreeing_typings_count_once(double_table, organiser, helper):
    revision = _revision(double_table)
    first = double_entry.type_sheet(
        table=double_table,
        rows=[HALBE_WON_1, HALBE_LOST_2],
        user=organiser,
        typist="AB",
        expected_typing=None,
    )
    assert first.state == SheetTyping.State.AWAITING_SECOND
    assert not Deal.objects.filter(table=double_table).exists()  # not counted
    assert _total(double_table, 1) == 0
    assert _revision(double_table) > revision
    # the second typist writes the defenders' amounts too: the same row, no difference
    second = double_entry.type_sheet(
        table=double_table,
        rows=[WrittenRow(1, "halbe", 1, (-20, 60, -20, -20)), HALBE_LOST_2],
        user=helper,
        typist="CD",
        expected_typing=first.pk,
    )
    assert second.state == SheetTyping.State.COUNTED
    assert not second.same_person
    deals = Deal.objects.filter(table=double_table).order_by("number")
    assert [d.scores[:4] for d in deals] == [[-20, 60, -20, -20], [40, 40, -120, 40]]
    assert _total(double_table, 1) == 100
    actions = list(
        TournamentChange.objects.filter(tournament_id=double_table.round.tournament_id)
        .order_by("pk")
        .values_list("action", "actor", "changed_by__username")
    )
    assert ("sheet_typed", "AB", "orga") in actions
    assert ("sheet_retyped", "CD", "helferin") in actions
    # a third typing for this table is refused: the sheet counted
    with pytest.raises(TypingConflict):
        double_entry.type_sheet(
            table=double_table, rows=[HALBE_WON_1], user=helper, expected_typing=first.pk
        )
    assert Deal.objects.filter(table=double_table).count() == 2


def test_differing_typings_wait_then_count_with_the_settled_values(
    client, double_table, organiser, helper
):
    first = double_entry.type_sheet(
        table=double_table,
        rows=[HALBE_WON_1, HALBE_LOST_2],
        user=organiser,
        expected_typing=None,
    )
    second = double_entry.type_sheet(
        table=double_table,
        rows=[WrittenRow(1, "halbe", 0, (60, None, None, None)), HALBE_WON_2],
        user=helper,
        expected_typing=first.pk,
    )
    assert second.state == SheetTyping.State.DIFFERENCES
    assert not Deal.objects.filter(table=double_table).exists()
    found = sheet_compare.differences(second.first_rows, second.second_rows, seats=4)
    keys = {d.key for d in found}
    # deal 1: declarer and seats 1 and 2 (seat 0 and 3... see below); deal 2: every seat
    assert "1-declarer" in keys and "1-contract" not in keys
    assert {"2-seat0", "2-seat1", "2-seat2", "2-seat3"} <= keys
    by_key = {d.key: d for d in found}
    assert (by_key["2-seat2"].first, by_key["2-seat2"].second) == (-120, 60)
    # a difference left open: refused, nothing counted
    with pytest.raises(ResultError, match="still open"):
        double_entry.settle_sheet(typing=second, choices={}, user=organiser)
    assert not Deal.objects.filter(table=double_table).exists()
    choices = {key: (double_entry.FIRST, None) for key in keys}
    # deal 2 settled by typing the correct values (a Halbe won by seat 3's partner... typed)
    for seat, value in enumerate((-20, -20, 60, -20)):
        choices[f"2-seat{seat}"] = (double_entry.TYPED, value)
    settled = double_entry.settle_sheet(typing=second, choices=choices, user=organiser)
    assert settled.state == SheetTyping.State.COUNTED
    deals = Deal.objects.filter(table=double_table).order_by("number")
    assert [(d.declarer_position, d.scores[:4]) for d in deals] == [
        (1, [-20, 60, -20, -20]),
        (2, [-20, -20, 60, -20]),
    ]
    log = TournamentChange.objects.get(action="sheet_settled")
    assert log.changed_by == organiser
    cells = {(cell["deal"], cell["column"]): cell for cell in log.after["cells"]}
    assert cells[2, "Seat 3"]["settled_with"] == "typed at the desk"
    assert (cells[2, "Seat 3"]["first_value"], cells[2, "Seat 3"]["value"]) == (-120, 60)
    assert cells[1, "Declarer"]["settled_with"] == "first typing's value"
    assert DealChange.objects.filter(deal__table=double_table).count() == 2
    # the log page says it in words
    client.force_login(organiser)
    page = client.get(
        reverse("tournaments:tournament_log", args=[double_table.round.tournament_id])
    )
    html = page.content.decode()
    assert "differences of a paper sheet settled" in html
    assert "settled with: typed at the desk" in html


def test_a_settlement_the_engine_refuses_changes_nothing(double_table, organiser, helper):
    first = double_entry.type_sheet(
        table=double_table, rows=[HALBE_LOST_2], user=organiser, expected_typing=None
    )
    second = double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_2], user=helper, expected_typing=first.pk
    )
    # first for seat 2, second for the others: the row does not add up
    choices = {f"2-seat{p}": (double_entry.SECOND, None) for p in range(4)}
    choices["2-seat2"] = (double_entry.FIRST, None)
    with pytest.raises(ResultError, match="Deal 2"):
        double_entry.settle_sheet(typing=second, choices=choices, user=organiser)
    assert SheetTyping.objects.get(pk=second.pk).state == SheetTyping.State.DIFFERENCES
    assert not Deal.objects.filter(table=double_table).exists()
    assert not TournamentChange.objects.filter(action="sheet_settled").exists()
    with pytest.raises(ResultError, match="whole number"):
        double_entry.settle_sheet(
            typing=second,
            choices={**choices, "2-seat2": (double_entry.TYPED, "viel")},
            user=organiser,
        )


def test_one_organiser_alone_types_both_and_it_is_marked(double_table, organiser):
    first = double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_1], user=organiser, expected_typing=None
    )
    second = double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_1], user=organiser, expected_typing=first.pk
    )
    assert second.state == SheetTyping.State.COUNTED
    assert second.same_person
    assert TournamentChange.objects.get(action="sheet_retyped").after["same_person"] is True


def test_two_helpers_on_one_login_are_told_apart_by_their_initials(double_table, organiser):
    first = double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_1], user=organiser, typist="AB", expected_typing=None
    )
    second = double_entry.type_sheet(
        table=double_table,
        rows=[HALBE_WON_1],
        user=organiser,
        typist="CD",
        expected_typing=first.pk,
    )
    assert not second.same_person


def test_second_typing_made_for_an_old_state_is_refused(double_table, organiser, helper):
    first = double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_1], user=organiser, expected_typing=None
    )
    with pytest.raises(TypingConflict, match="first typing"):
        double_entry.type_sheet(
            table=double_table, rows=[HALBE_WON_1], user=helper, expected_typing=None
        )
    double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_1], user=helper, expected_typing=first.pk
    )
    with pytest.raises(TypingConflict, match="second typing"):
        double_entry.type_sheet(
            table=double_table, rows=[HALBE_WON_1], user=organiser, expected_typing=first.pk
        )
    assert Deal.objects.filter(table=double_table).count() == 1


def test_bad_typing_changes_nothing(double_table, organiser):
    revision = _revision(double_table)
    with pytest.raises(ResultError, match="Deal 1"):
        double_entry.type_sheet(
            table=double_table,
            rows=[WrittenRow(1, "halbe", 1, (None, 25, None, None))],
            user=organiser,
            expected_typing=None,
        )
    with pytest.raises(ResultError, match="too long"):
        double_entry.type_sheet(
            table=double_table,
            rows=[HALBE_WON_1],
            user=organiser,
            typist="x" * 41,
            expected_typing=None,
        )
    assert not SheetTyping.objects.exists()
    assert _revision(double_table) == revision


def test_setting_off_refuses_the_service_and_the_page_saves_at_once(client, table, organiser):
    with pytest.raises(ResultError):
        double_entry.type_sheet(
            table=table, rows=[HALBE_WON_1], user=organiser, expected_typing=None
        )
    client.force_login(organiser)
    url = reverse("tournaments:desk_written", args=[table.round.tournament_id, 1, 1])
    page = client.get(url).content.decode()
    assert "Typed by (name or initials)" not in page and "First typing" not in page
    data = {"contract_1": "halbe", "declarer_1": "1", "amount_1_1": "60", "action": "save"}
    assert client.post(url, data).status_code == 302
    assert Deal.objects.filter(table=table).count() == 1
    assert not SheetTyping.objects.exists()


def test_pages_walk_both_typings_and_the_settlement(client, double_table, organiser, helper):
    tournament_id = double_table.round.tournament_id
    url = reverse("tournaments:desk_written", args=[tournament_id, 1, 1])
    round_url = reverse("tournaments:desk_round", args=[tournament_id, 1])
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert "First typing" in page and 'name="typing" value=""' in page
    line = {"contract_1": "halbe", "declarer_1": "1", "amount_1_1": "60", "action": "save"}
    response = client.post(url, {**line, "typist": "AB", "typing": ""})
    assert response.status_code == 302
    typing = SheetTyping.objects.get()
    assert "Sheet waiting for its second typing" in client.get(round_url).content.decode()
    # the second typist's page is blind: no value of the first typing shows
    client.force_login(helper)
    page = client.get(url).content.decode()
    assert "Second typing" in page and f'name="typing" value="{typing.pk}"' in page
    assert 'value="60"' not in page and "+60" not in page
    response = client.post(url, {**line, "amount_1_1": "-120", "typing": str(typing.pk)})
    differences_url = reverse("tournaments:desk_written_differences", args=[tournament_id, 1, 1])
    assert response["Location"] == differences_url
    assert "Settle differences" in client.get(round_url).content.decode()
    assert client.get(url)["Location"] == differences_url  # the form waits for the settlement
    page = client.get(differences_url).content.decode()
    assert "≠" in page and "<mark>+60</mark>" in page and "<mark>-120</mark>" in page
    # an empty settlement: every open cell named, nothing counted
    page = client.post(differences_url, {"typing": str(typing.pk)}).content.decode()
    assert "nothing was changed" in page
    assert not Deal.objects.exists()
    # "all from the first typing" only fills in the choices
    page = client.post(differences_url, {"typing": str(typing.pk), "line": "first:1"})
    assert page.status_code == 200 and not Deal.objects.exists()
    assert page.content.decode().count('value="first" checked') == 4
    choices = {f"choice_1-seat{p}": "first" for p in range(4)}
    response = client.post(differences_url, {"typing": str(typing.pk), **choices})
    assert response.status_code == 302
    assert Deal.objects.get().scores[:4] == [-20, 60, -20, -20]
    assert "Settle differences" not in client.get(round_url).content.decode()
    # the stale settlement form of a second person: a clear message, nothing stored twice
    response = client.post(differences_url, {"typing": str(typing.pk), **choices}, follow=True)
    assert "no differences to settle" in response.content.decode()
    assert Deal.objects.count() == 1


def test_discarding_a_typing_needs_a_reason(client, double_table, organiser):
    typing = double_entry.type_sheet(
        table=double_table, rows=[HALBE_WON_1], user=organiser, expected_typing=None
    )
    client.force_login(organiser)
    url = reverse("tournaments:desk_written_discard", args=[double_table.round.tournament_id, 1, 1])
    client.post(url, {"typing": str(typing.pk), "reason": " "})
    assert SheetTyping.objects.get().state == SheetTyping.State.AWAITING_SECOND
    client.post(url, {"typing": str(typing.pk), "reason": "Tisch 2 getippt"})
    assert SheetTyping.objects.get().state == SheetTyping.State.DISCARDED
    assert TournamentChange.objects.get(action="sheet_discarded").reason == "Tisch 2 getippt"


def test_empty_post_to_the_differences_page_does_not_crash(client, double_table, organiser):
    client.force_login(organiser)
    url = reverse(
        "tournaments:desk_written_differences", args=[double_table.round.tournament_id, 1, 1]
    )
    assert client.post(url, {}).status_code == 302  # nothing to settle: back to the sheet
    assert User.objects.count() == 1


def test_the_setting_is_off_by_default_shown_in_german_and_logged(
    client, swm_tournament, organiser
):
    from tournaments.services.setup import update_tournament

    assert not swm_tournament.double_entry
    client.cookies["django_language"] = "de"
    client.force_login(organiser)
    page = client.get(reverse("tournaments:tournament_edit", args=[swm_tournament.pk]))
    assert "Doppelte Eingabe der Papierbögen" in page.content.decode()
    update_tournament(
        tournament=swm_tournament,
        name=swm_tournament.name,
        host_club=swm_tournament.host_club,
        date=swm_tournament.date,
        rules_slug=swm_tournament.rules_slug,
        rounds=swm_tournament.rounds,
        deals_per_round=swm_tournament.deals_per_round,
        double_entry=True,
        user=organiser,
    )
    assert Tournament.objects.get(pk=swm_tournament.pk).double_entry
    edited = TournamentChange.objects.filter(action="edited").last()
    assert edited.after["double_entry"] is True
