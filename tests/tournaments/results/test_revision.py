"""Every service that changes what a public page or printout shows bumps the tournament's
revision, inside its transaction (the cache keys of tournaments.caching rely on it)."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import EntryFactory, two_officials
from tournaments.models import Deal, Round, Tournament
from tournaments.services import (
    checkin,
    desk_entry,
    draws,
    fairness,
    phone_entry,
    results_common,
    round_state,
    setup,
)
from tournaments.services.standings import draw_lots

CEGO = {"contract": "cego", "declarer": 0, "declarer_points": 60}


def revision(tournament) -> int:
    return Tournament.objects.values_list("revision", flat=True).get(pk=tournament.pk)


@pytest.fixture
def bumps(swm_tournament):
    """Call a service and return how much it moved the revision."""

    def run(service, **kwargs):
        before = revision(swm_tournament)
        service(**kwargs)
        return revision(swm_tournament) - before

    return run


def test_deal_services_bump_the_revision(bumps, table, organiser):
    assert (
        bumps(
            phone_entry.enter_deal,
            table=table,
            number=1,
            inputs=CEGO,
            via="table",
            entered_by_position=0,
        )
        == 1
    )
    deal = Deal.objects.get(table=table, number=1)
    assert (
        bumps(
            phone_entry.revise_deal,
            deal=deal,
            inputs=CEGO | {"declarer_points": 70},
            expected_version=1,
            entered_by_position=0,
        )
        == 1
    )
    deal.refresh_from_db()
    assert (
        bumps(
            phone_entry.confirm_deal,
            deal=deal,
            confirmer_position=1,
            expected_version=deal.version,
        )
        == 1
    )
    deal.refresh_from_db()
    assert bumps(desk_entry.annul_deal, deal=deal, reason="x", user=organiser) == 1
    assert bumps(desk_entry.restore_deal, deal=deal, reason="x", user=organiser) == 1
    assert bumps(round_state.void_table, table=table, reason="x", user=organiser) == 1
    assert bumps(round_state.unvoid_table, table=table, reason="x", user=organiser) == 1
    assert (
        bumps(
            round_state.set_round_state,
            round=table.round,
            state=Round.State.CLOSED,
            user=organiser,
            close_open=True,
        )
        == 1
    )
    assert (
        bumps(
            round_state.set_round_state,
            round=table.round,
            state=Round.State.PLAYING,
            user=organiser,
            reason="typo",
        )
        == 1
    )


def test_refused_changes_leave_the_revision(bumps, table):
    phone_entry.enter_deal(table=table, number=1, inputs=CEGO)
    with pytest.raises(results_common.DealConflict):
        bumps(phone_entry.enter_deal, table=table, number=1, inputs=CEGO)
    assert revision(table.round.tournament) == 1


def test_seating_and_entries_bump_the_revision(bumps, swm_tournament, organiser):
    entries = [EntryFactory(tournament=swm_tournament, checked_in=True) for _ in range(8)]
    assert bumps(checkin.set_checked_in, entry=entries[0], checked_in=True) == 1
    round_ = draws.draw_next_round(tournament=swm_tournament, number=1, seed=1)
    assert revision(swm_tournament) == 2
    asking, approving = two_officials(swm_tournament)
    swap = fairness.request_swap(
        round=round_, first=entries[0], second=entries[5], reason="Licht", user=asking
    )
    assert revision(swm_tournament) == 2  # asked for: nothing public changed
    assert bumps(fairness.approve_swap, swap=swap, user=approving) == 1
    assert bumps(draws.redraw_round, round=round_, same_seed=True) == 1
    late = EntryFactory(tournament=swm_tournament)
    seat = round_.seats.first()
    assert bumps(checkin.substitute_player, seat=seat, entry=late, from_deal=3, reason="") == 1
    assert bumps(checkin.withdraw_entry, entry=late, after_round=1) == 1
    assert bumps(checkin.undo_withdrawal, entry=late) == 1
    assert bumps(draw_lots, tournament=swm_tournament, user=organiser, reason="tie at the top") == 1


def test_editing_and_registering_bump_the_revision(bumps, swm_tournament):
    t = swm_tournament
    assert (
        bumps(
            setup.update_tournament,
            tournament=t,
            name="Renamed",
            host_club=t.host_club,
            date=t.date,
            rules_slug=t.rules_slug,
        )
        == 1
    )
    player = EntryFactory(tournament=t).player
    other = setup.create_tournament(
        name="Other", host_club=t.host_club, date=t.date, rules_slug="swm"
    )
    assert bumps(setup.register_player, tournament=other, player=player) == 0
    assert revision(other) == 1


def test_a_stale_instance_saved_never_lowers_the_revision(swm_tournament, table):
    stale = Tournament.objects.get(pk=swm_tournament.pk)
    phone_entry.enter_deal(table=table, number=1, inputs=CEGO)
    phone_entry.enter_deal(table=table, number=2, inputs=CEGO)
    stale.venue = "Saal"
    stale.save()  # e.g. the admin, with the number it read before the two deals
    assert revision(swm_tournament) == 3
    assert stale.revision == 3


def test_a_failed_service_rolls_the_bump_back(swm_tournament):
    before = revision(swm_tournament)
    with pytest.raises(ValidationError):
        draws.draw_next_round(tournament=swm_tournament, number=2)
    assert revision(swm_tournament) == before


def test_fees_bulk_registration_and_the_round_clock_bump_the_revision(
    bumps, swm_tournament, table, organiser
):
    from tests.factories import PlayerFactory
    from tournaments.services.registration import register_players

    entry = table.seats.first().entry
    assert bumps(checkin.set_fee_paid, entry=entry, paid=True) == 1
    players = [PlayerFactory() for _ in range(3)]
    assert bumps(register_players, tournament=swm_tournament, players=players) == 1
    assert bumps(round_state.set_round_clock, round=table.round, minutes=90, user=organiser) == 1


def test_saving_chosen_fields_bumps_the_revision_too(swm_tournament):
    # e.g. the prize money or the finished step, saved with update_fields
    swm_tournament.prize_shares_cents = [3000, 2000]
    swm_tournament.save(update_fields=["prize_shares_cents"])
    assert revision(swm_tournament) == 1 == swm_tournament.revision
