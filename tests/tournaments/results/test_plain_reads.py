"""The phone path's plain reads (``tournaments/selectors/plain.py``) give the instances the ORM
gives, and the deal form's shared fields (built once per rules, players and language) do not
carry one form's data or errors into another."""

import uuid

import pytest
from django.db import transaction
from django.utils import timezone, translation

from tests.tournaments.results.conftest import seat_table
from tournaments.models import Deal, Table
from tournaments.rule_snapshot import rule_source_of
from tournaments.selectors.plain import locked_table, table_by_token, table_deals
from tournaments.services import phone_entry

pytestmark = pytest.mark.django_db


def values(instance) -> dict:
    return {
        field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields
    }


def test_the_table_with_its_round_and_tournament_as_the_orm_reads_them(table):
    table.referee_called_at = timezone.now()
    table.void_reason = "x"
    table.save()
    expected = Table.objects.select_related("round__tournament").get(pk=table.pk)
    for found in (table_by_token(table.token), _locked(table.pk)):
        assert values(found) == values(expected)
        assert values(found.round) == values(expected.round)
        assert values(found.round.tournament) == values(expected.round.tournament)
        assert found.round.tournament.rules_snapshot == expected.round.tournament.rules_snapshot
        assert isinstance(
            found.round.tournament.created_at, type(expected.round.tournament.created_at)
        )
    assert table_by_token("no-such-token") is None
    with pytest.raises(Table.DoesNotExist), transaction.atomic():
        locked_table(10**9)


def _locked(pk):
    with transaction.atomic():
        return locked_table(pk)


def test_the_deals_as_the_orm_reads_them(table):
    for number in (2, 1):  # stored out of order: read by number
        phone_entry.enter_deal(
            table=table,
            number=number,
            inputs={"contract": "cego", "declarer": 0, "declarer_points": 40 + number},
            submission_key=uuid.uuid4(),
            via="table",
            entered_by_position=1,
        )
    expected = list(Deal.objects.filter(table=table).order_by("number"))
    found = table_deals(table)
    assert [deal.number for deal in found] == [1, 2]
    assert [values(deal) for deal in found] == [values(deal) for deal in expected]
    assert found[0].scores == expected[0].scores and found[0].details == expected[0].details
    assert found[0].table is table  # no query for it
    other = seat_table(tournament=table.round.tournament, table_number=2)
    assert table_deals(other) == []


def test_shared_deal_form_fields_keep_each_forms_own_data(table):
    from tournaments.forms.entry import DealForm

    rules = rule_source_of(table.round.tournament)
    names = ["A a", "B b", "C c", "D d"]

    def form(data=None, **kwargs):
        return DealForm(data, rules=rules, player_names=names, deals_per_round=24, **kwargs)

    bad = form({"number": "1", "contract": "cego", "declarer": "9"})
    assert not bad.is_valid()
    good = form({"number": "2", "contract": "cego", "declarer": "0", "declarer_points": "50"})
    assert good.is_valid(), good.errors
    assert good.deal_inputs()["declarer_points"] == 50
    assert "declarer" in bad.errors and not good.errors
    assert form().fields["number"] is good.fields["number"]  # shared, built once
    assert form(require_version=True).fields["expected_version"].required
    assert not form().fields["expected_version"].required
    assert form().initial["submission_key"] != form().initial["submission_key"]
    with translation.override("en"):
        english = str(form().fields["points_0"].widget.attrs["aria-label"])
    with translation.override("de"):
        german = str(form().fields["points_0"].widget.attrs["aria-label"])
    assert english != german


def test_a_plain_insert_stores_what_save_stores(table):
    from tournaments.models import DealChange
    from tournaments.services.plain_insert import insert

    deal = phone_entry.enter_deal(
        table=table,
        number=1,
        inputs={"contract": "cego", "declarer": 0, "declarer_points": 50},
        submission_key=uuid.uuid4(),
        via="table",
        entered_by_position=0,
    )
    fields = {
        "deal": deal,
        "action": DealChange.Action.CREATED,
        "before": {"a": [1, None], "ü": "ß"},
        "after": {"scores": [1, -1]},
        "actor": "Anna",
        "device": "d" * 32,
        "ip_address": "10.0.0.7",
    }
    saved = DealChange.objects.create(**fields)
    plain = DealChange(**fields)
    insert(plain)
    assert plain.pk is not None and not plain._state.adding and plain._state.db == "default"
    assert plain.changed_at is not None
    stored, expected = (DealChange.objects.get(pk=pk) for pk in (plain.pk, saved.pk))
    skip = {"id", "changed_at", "created_at"}
    assert {k: v for k, v in values(stored).items() if k not in skip} == {
        k: v for k, v in values(expected).items() if k not in skip
    }
    stored_deal, expected_deal = Deal.objects.get(pk=deal.pk), deal
    assert values(stored_deal) == values(expected_deal)
    with pytest.raises(ValueError, match="append-only"):
        plain.save()  # the instance is stored: the history refuses a change
