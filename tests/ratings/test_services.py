"""Storing the ratings: the tables read as matches, an incremental step for the newest
tournament, a replay from an older one that arrives or changes, and both agreeing with a
replay from the first season."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command

from clubs.models import Player
from ratings.models import PlayerRating, RatedTournament, RatingChange, RatingRun
from ratings.rating import NEWCOMER, Rater
from ratings.selectors import player_rating, tournament_matches
from ratings.services import bring_up_to_date
from tests.factories import PlayerFactory
from tests.ratings.conftest import a_tournament, played
from tournaments.models import Deal, Entry, Seat, Table, Tournament
from tournaments.services.finish import finish_tournament, reopen_tournament

pytestmark = pytest.mark.django_db


def stored() -> tuple[list, list]:
    """Every stored rating and change, comparable across runs."""
    ratings = list(
        PlayerRating.objects.order_by("player_id").values_list(
            "player_id",
            "mu",
            "sigma",
            "display",
            "tournaments",
            "last_tournament_id",
            "last_change",
        )
    )
    changes = list(
        RatingChange.objects.order_by("player_id", "date", "tournament_id").values_list(
            "player_id",
            "tournament_id",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "display_before",
            "display_after",
            "matches",
        )
    )
    return ratings, changes


def test_the_tables_are_read_as_matches_voided_and_unconfirmed_left_out(people):
    tournament = a_tournament(people, day=7)
    matches = tournament_matches(tournament_ids=[tournament.pk])[tournament.pk]
    assert len(matches) == 4
    first = matches[0]
    assert (first.round_number, first.table_number) == (1, 1)
    assert dict(first.points) == {
        people[0].pk: 30,
        people[1].pk: 10,
        people[2].pk: -10,
        people[3].pk: -30,
    }
    tied = matches[2]
    assert tied.ranks[people[0].pk] == tied.ranks[people[4].pk] == 1
    Table.objects.filter(round__tournament=tournament, round__number=2, number=2).update(
        voided=True, void_reason="Kartenfehler"
    )
    Deal.objects.filter(
        table__round__tournament=tournament, table__round__number=1, table__number=2
    ).update(status=Deal.Status.PENDING)
    assert len(tournament_matches(tournament_ids=[tournament.pk])[tournament.pk]) == 2


def test_the_newest_tournament_is_one_incremental_step(people):
    first = a_tournament(people, day=7)
    run = bring_up_to_date(reason="test")
    assert run.kind == RatingRun.Kind.FULL and run.tournaments == 1
    second = a_tournament(people, day=14, shift=3)
    run = bring_up_to_date(reason="test")
    assert run.kind == RatingRun.Kind.INCREMENTAL
    assert run.tournaments == 1 and run.from_tournament_id == second.pk
    assert bring_up_to_date(reason="nothing new") is None
    assert RatedTournament.objects.count() == 2
    winner = PlayerRating.objects.get(player=people[0])
    assert winner.tournaments == 2 and winner.last_tournament_id == second.pk
    change = RatingChange.objects.get(player=people[0], tournament=second)
    assert winner.last_change == change.display_after - change.display_before
    assert RatingChange.objects.get(player=people[0], tournament=first).display_before == 1000


def test_incremental_steps_equal_a_replay_from_the_first_season(people):
    for day, shift in ((7, 0), (14, 3), (21, 5), (28, 2)):
        a_tournament(people, day=day, shift=shift)
        bring_up_to_date(reason="one by one")
    one_by_one = stored()
    assert len(one_by_one[1]) == 4 * 8
    run = bring_up_to_date(reason="all", full=True)
    assert run.kind == RatingRun.Kind.FULL and run.tournaments == 4
    assert stored() == one_by_one


def test_the_stored_ratings_are_the_pure_replay(people):
    tournaments = [a_tournament(people, day=d, shift=s) for d, s in ((7, 1), (14, 4))]
    bring_up_to_date(reason="test")
    matches = tournament_matches(tournament_ids=[t.pk for t in tournaments])
    skills, _outcomes = Rater().replay({}, [(t.pk, matches[t.pk]) for t in tournaments])
    for player in people:
        rating = PlayerRating.objects.get(player=player)
        assert (rating.mu, rating.sigma) == (skills[player.pk].mu, skills[player.pk].sigma)
        assert rating.display == skills[player.pk].display


def test_an_older_tournament_arriving_replays_from_it(people):
    january = a_tournament(people, day=9, month=1, year=2027, shift=2)
    march = a_tournament(people, day=6, month=3, year=2027, shift=5)
    bring_up_to_date(reason="test")
    january_changes = list(RatingChange.objects.filter(tournament=january).order_by("pk").values())
    march_before = stored()
    # A tournament of February arrives late (an archive imported on the season server)
    february = a_tournament(people, day=13, month=2, year=2027, shift=1)
    run = bring_up_to_date(reason="archive arrived")
    assert run.kind == RatingRun.Kind.REPLAY
    assert run.from_tournament_id == february.pk and run.tournaments == 2
    assert stored() != march_before  # March now starts from February's ratings
    kept = list(RatingChange.objects.filter(tournament=january).order_by("pk").values())
    assert kept == january_changes  # before it, nothing was touched
    replayed = stored()
    bring_up_to_date(reason="all", full=True)
    assert stored() == replayed
    history = player_rating(player_id=people[0].pk)
    assert [h.tournament_id for h in history.history] == [march.pk, february.pk, january.pk]
    assert history.history[-1].before == NEWCOMER.display
    assert history.history[0].before == history.history[1].after  # one chain
    assert history.history[1].before == history.history[2].after


def test_a_correction_in_an_older_tournament_replays_from_it_a_rename_does_not(people):
    a_tournament(people, day=1, shift=3)
    older = a_tournament(people, day=7, shift=1)
    a_tournament(people, day=14, shift=2)
    bring_up_to_date(reason="test")
    Tournament.objects.filter(pk=older.pk).update(revision=older.revision + 5, name="Umbenannt")
    assert bring_up_to_date(reason="renamed") is None  # same tables, same points
    assert RatedTournament.objects.get(pk=older.pk).revision == older.revision + 5
    deal = Deal.objects.filter(table__round__tournament=older).order_by("pk").first()
    deal.set_scores([-30, 10, -10, 30])
    deal.save()
    Tournament.objects.filter(pk=older.pk).update(revision=older.revision + 6)
    run = bring_up_to_date(reason="corrected")
    assert run.kind == RatingRun.Kind.REPLAY and run.from_tournament_id == older.pk
    corrected = stored()
    bring_up_to_date(reason="all", full=True)
    assert stored() == corrected


def test_a_reopened_tournament_leaves_the_ratings(people, django_user_model):
    user = django_user_model.objects.create_superuser("orga", "", "pw")
    a_tournament(people, day=7)
    newcomer = PlayerFactory()
    last = played(
        [[[(people[0], 20), (newcomer, -20)]]], date=dt.date(2026, 11, 14), finished=False
    )
    finish_tournament(tournament=last, user=user)
    bring_up_to_date(reason="finished")
    assert PlayerRating.objects.get(player=newcomer).tournaments == 1
    reopen_tournament(tournament=Tournament.objects.get(pk=last.pk), user=user, reason="Fehler")
    run = bring_up_to_date(reason="reopened")
    assert run.kind == RatingRun.Kind.REPLAY
    assert not PlayerRating.objects.filter(player=newcomer).exists()
    assert PlayerRating.objects.get(player=people[0]).tournaments == 1
    assert not RatedTournament.objects.filter(pk=last.pk).exists()


def test_finishing_rates_the_tournament_once_it_commits(
    people, django_user_model, settings, django_capture_on_commit_callbacks
):
    user = django_user_model.objects.create_superuser("orga", "", "pw")
    settings.RATINGS_AHEAD = "inline"
    tournament = played(
        [[[(people[0], 30), (people[1], -30)]]], date=dt.date(2026, 11, 7), finished=False
    )
    assert not PlayerRating.objects.exists()  # not while it is played
    with django_capture_on_commit_callbacks(execute=True):
        finish_tournament(tournament=tournament, user=user)
    assert RatedTournament.objects.filter(pk=tournament.pk).exists()
    assert PlayerRating.objects.get(player=people[0]).display > 1000


def test_an_older_tournament_finishing_triggers_a_replay(
    people, django_user_model, settings, django_capture_on_commit_callbacks
):
    user = django_user_model.objects.create_superuser("orga", "", "pw")
    first = a_tournament(people, day=1)
    a_tournament(people, day=21, shift=3)
    bring_up_to_date(reason="test")
    settings.RATINGS_AHEAD = "inline"
    older = played(
        [[[(people[7], 30), (people[0], -30)]]], date=dt.date(2026, 11, 7), finished=False
    )
    with django_capture_on_commit_callbacks(execute=True):
        finish_tournament(tournament=older, user=user)
    run = RatingRun.objects.latest("pk")
    assert run.kind == RatingRun.Kind.REPLAY and run.from_tournament_id == older.pk
    assert run.tournaments == 2
    after_first = RatingChange.objects.get(player=people[7], tournament=first).display_after
    assert (
        RatingChange.objects.get(player=people[7], tournament=older).display_before == after_first
    )


def test_merging_two_records_replays_everything(
    people, django_user_model, settings, django_capture_on_commit_callbacks
):
    from clubs.services.players import merge_players

    user = django_user_model.objects.create_superuser("orga", "", "pw")
    twin = PlayerFactory(first_name=people[0].first_name, last_name=people[0].last_name + "x")
    a_tournament(people, day=7)
    played([[[(twin, 30), (people[1], -30)]]], date=dt.date(2026, 11, 14))
    bring_up_to_date(reason="test")
    settings.RATINGS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        merge_players(keep=people[0], remove=twin, user=user)
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert PlayerRating.objects.get(player=people[0]).tournaments == 2
    assert RatingRun.objects.latest("pk").kind == RatingRun.Kind.FULL


def test_the_command_replays_from_the_first_season(people, capsys):
    a_tournament(people, day=7)
    a_tournament(people, day=14, shift=1)
    call_command("recompute_ratings")
    assert "2 Turniere" in capsys.readouterr().out
    assert RatingRun.objects.get().kind == RatingRun.Kind.FULL
    call_command("recompute_ratings", "--changed-only")
    assert "neuesten Stand" in capsys.readouterr().out


def test_a_tournament_of_paper_totals_is_rated_without_changes(people):
    a_tournament(people, day=7)
    paper = played([], date=dt.date(2026, 11, 14))
    bring_up_to_date(reason="test")
    assert RatedTournament.objects.get(pk=paper.pk).players == 0
    assert not RatingChange.objects.filter(tournament=paper).exists()


def test_a_deleted_tournament_is_replayed_away(
    people, settings, django_capture_on_commit_callbacks
):
    a_tournament(people, day=1)
    gone = a_tournament(people, day=7, shift=2)
    last = a_tournament(people, day=14, shift=4)
    bring_up_to_date(reason="test")
    settings.RATINGS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        # (nothing in the app deletes a played tournament; the admin could, bit by bit)
        Deal.objects.filter(table__round__tournament=gone).delete()
        Seat.objects.filter(round__tournament=gone).delete()
        Entry.objects.filter(tournament=gone).delete()
        Tournament.objects.get(pk=gone.pk).delete()
    run = RatingRun.objects.latest("pk")
    assert run.kind == RatingRun.Kind.REPLAY and run.from_tournament_id == last.pk
    assert PlayerRating.objects.get(player=people[0]).tournaments == 2
    replayed = stored()
    bring_up_to_date(reason="all", full=True)
    assert stored() == replayed
