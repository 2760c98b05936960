"""The database itself refuses rows that break an invariant, with a named constraint."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from clubs.models import ClubRole
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
)
from tournaments.models import SCORE_LIMIT, Deal, DealChange, KeepApart, Round, Seat, Table

pytestmark = pytest.mark.django_db


def assert_refused(constraint_name: str | tuple[str, ...], create) -> None:
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        create()
    # SQLite names CHECK constraints in its message; PostgreSQL names both kinds. For SQLite's
    # unique violations the message lists the columns instead, so accept either. A row that
    # breaks two checks is reported by whichever the database tests first.
    names = (constraint_name,) if isinstance(constraint_name, str) else constraint_name
    message = str(caught.value).lower()
    assert any(name in message for name in names) or "unique" in message, message


def test_player_in_two_clubs_but_once_per_club():
    player = PlayerFactory()
    first, second = ClubFactory(), ClubFactory()
    MembershipFactory(player=player, club=first, member_number="7")
    MembershipFactory(player=player, club=second, member_number="7")
    assert player.clubs.count() == 2
    assert_refused("membership_once_per_club", lambda: MembershipFactory(player=player, club=first))


def test_member_number_unique_within_club_only_when_given():
    club = ClubFactory()
    MembershipFactory(club=club, member_number="")
    MembershipFactory(club=club, member_number="")
    MembershipFactory(club=club, member_number="12")
    assert_refused(
        "membership_number_unique_in_club",
        lambda: MembershipFactory(club=club, member_number="12"),
    )


def test_season_cannot_end_before_it_starts():
    assert_refused(
        "season_ends_after_start",
        lambda: SeasonFactory(starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2026, 1, 1)),
    )


def test_birth_year_must_be_plausible():
    assert_refused("player_birth_year_plausible", lambda: PlayerFactory(birth_year=1850))


@pytest.mark.parametrize(
    ("constraint", "fields"),
    [
        ("tournament_rounds", {"rounds": 0}),
        ("tournament_deals_per_round", {"deals_per_round": 0}),
        ("tournament_preferred_size_allowed", {"preferred_table_size": 5, "tables_of_5": False}),
        (
            ("tournament_preferred_table_size", "tournament_preferred_size_allowed"),
            {"preferred_table_size": 6},
        ),
        ("tournament_entry_mode", {"entry_mode": "guess"}),
    ],
)
def test_tournament_format_checked(constraint, fields):
    assert_refused(constraint, lambda: TournamentFactory(**fields))


def test_player_registered_once_per_tournament():
    entry = EntryFactory()
    assert_refused(
        "entry_once_per_player",
        lambda: EntryFactory(tournament=entry.tournament, player=entry.player),
    )
    assert_refused(
        "entry_number_unique",
        lambda: EntryFactory(tournament=entry.tournament, number=entry.number),
    )


def test_keep_apart_pair_stored_once_in_order():
    tournament = TournamentFactory()
    a, b = EntryFactory(tournament=tournament), EntryFactory(tournament=tournament)
    KeepApart.objects.create(tournament=tournament, first=a, second=b)
    assert_refused(
        "keep_apart_ordered",
        lambda: KeepApart.objects.create(tournament=tournament, first=b, second=a),
    )


@pytest.fixture
def table():
    tournament = TournamentFactory()
    round_ = Round.objects.create(tournament=tournament, number=1, draw_seed=42)
    return Table.objects.create(round=round_, number=1)


def test_player_seated_once_per_round(table):
    entry = EntryFactory(tournament=table.round.tournament)
    Seat.objects.create(table=table, round=table.round, position=0, entry=entry)
    other_table = Table.objects.create(round=table.round, number=2)
    assert_refused(
        "seat_entry_once_per_round",
        lambda: Seat.objects.create(table=other_table, round=table.round, position=0, entry=entry),
    )


def test_seat_position_within_table_of_five(table):
    entry = EntryFactory(tournament=table.round.tournament)
    assert_refused(
        "seat_position_range",
        lambda: Seat.objects.create(table=table, round=table.round, position=5, entry=entry),
    )


def test_deal_scores_must_sum_to_zero(table):
    deal = Deal(table=table, number=1, contract="eine", declarer_position=2, declarer_points=41)
    deal.set_scores([-20, -20, 60, -20])
    deal.save()
    bad = Deal(table=table, number=2, contract="eine", declarer_position=2, declarer_points=41)
    bad.set_scores([-20, -20, 60, -10])
    assert_refused("deal_scores_sum_zero", bad.save)


def test_deal_number_unique_per_table(table):
    Deal.objects.create(table=table, number=1, contract="cego", declarer_position=0)
    assert_refused(
        "deal_number_unique",
        lambda: Deal.objects.create(table=table, number=1, contract="cego", declarer_position=1),
    )


def test_deal_declarer_seat_must_exist(table):
    assert_refused(
        "deal_declarer_position_range",
        lambda: Deal.objects.create(table=table, number=1, contract="cego", declarer_position=7),
    )


def test_voided_table_needs_reason(table):
    table.voided = True
    assert_refused("table_void_needs_reason", table.save)


def test_deal_history_is_append_only(table):
    deal = Deal.objects.create(table=table, number=1, contract="cego", declarer_position=0)
    change = DealChange.objects.create(deal=deal, action="created", after={"contract": "cego"})
    change.reason = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        change.save()
    with pytest.raises(ValueError, match="append-only"):
        change.delete()
    assert_refused(
        "deal_change_reason_required",
        lambda: DealChange.objects.create(deal=deal, action="corrected", reason=""),
    )


def test_deal_scores_are_bounded(table):
    """±SCORE_LIMIT: beyond it a number is a typing error (and an overflow further on)."""
    fine = Deal(table=table, number=1, kind="total")
    fine.set_scores([SCORE_LIMIT, -SCORE_LIMIT, 0, 0])
    fine.save()
    bad = Deal(table=table, number=2, kind="total")
    bad.set_scores([SCORE_LIMIT + 1, -SCORE_LIMIT - 1, 0, 0])
    assert_refused(("deal_score_0_bounded", "deal_score_1_bounded"), bad.save)


def test_club_role_given_once(django_user_model):
    user = django_user_model.objects.create_user("orga")
    club = ClubFactory()
    ClubRole.objects.create(user=user, club=club)
    assert_refused("club_role_once", lambda: ClubRole.objects.create(user=user, club=club))
    assert_refused(
        "club_role_valid", lambda: ClubRole.objects.create(user=user, club=club, role="king")
    )
