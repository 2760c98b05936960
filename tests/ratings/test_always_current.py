"""Ratings always current (issue 39 item 7): a tournament arriving finished by live publishing
or by archive is rated once it commits; deleting, reopening, moving a tournament's date and
merging two players give exactly what a full replay gives; the merge's log names the players."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import call_command

from ratings.models import PlayerRating, RatedTournament, RatingLock, RatingRun
from ratings.rating import METHOD
from ratings.services import bring_up_to_date
from tests.factories import EntryFactory, PlayerFactory
from tests.ratings.conftest import a_tournament, played
from tests.ratings.test_services import stored
from tests.seasons.conftest import play
from tests.seasons.test_archive import copy_of
from tournaments.models import Deal, Entry, Round, Seat, Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services.archive_write import import_tournament_archive
from tournaments.services.finish import finish_tournament, reopen_tournament

pytestmark = pytest.mark.django_db


def full_replay() -> tuple[list, list]:
    bring_up_to_date(reason="compare", full=True)
    return stored()


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("orga", "", "pw")


def test_a_copy_that_arrives_unfinished_and_finishes_later_is_rated(
    organiser, settings, django_capture_on_commit_callbacks
):
    """Live publishing: the season server's copy exists from the first deal on, and the
    batch that finishes it changes the copy in place (no save of the tournament)."""
    settings.RATINGS_AHEAD = "off"
    tournament = played([], date=dt.date(2026, 11, 7), finished=False)
    entries = [EntryFactory(tournament=tournament) for _ in range(4)]
    play(tournament, entries, [(0, 45), (1, 34), (2, 45)])
    Round.objects.filter(tournament=tournament).update(state=Round.State.CLOSED)
    archive = copy_of(tournament_archive(tournament=Tournament.objects.get(pk=tournament.pk)))
    settings.RATINGS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        copy = import_tournament_archive(data=archive).tournament
    assert copy.finished_at is None and not RatedTournament.objects.exists()

    settings.RATINGS_AHEAD = "off"
    finish_tournament(tournament=Tournament.objects.get(pk=tournament.pk), user=organiser)
    later = tournament_archive(tournament=Tournament.objects.get(pk=tournament.pk))
    later = {**later, "archive_id": archive["archive_id"]}
    later["tournament"] = {**later["tournament"], "name": archive["tournament"]["name"]}
    settings.RATINGS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        outcome = import_tournament_archive(data=later)
    assert outcome.replaced and Tournament.objects.get(pk=copy.pk).finished_at is not None
    assert RatedTournament.objects.filter(pk=copy.pk).exists()
    assert PlayerRating.objects.filter(player__entries__tournament=copy).count() == 4


def test_deleting_a_tournament_forgets_the_players_who_played_only_it(
    settings, django_capture_on_commit_callbacks
):
    people = [PlayerFactory() for _ in range(8)]
    only_there = [PlayerFactory() for _ in range(2)]
    a_tournament(people, day=1)
    gone = played(
        [[[(only_there[0], 30), (only_there[1], -10), (people[0], -20)]]],
        date=dt.date(2026, 11, 7),
    )
    a_tournament(people, day=14, shift=4)
    bring_up_to_date(reason="test")
    assert PlayerRating.objects.filter(player__in=only_there).count() == 2
    settings.RATINGS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        # (nothing in the app deletes a played tournament; the admin could, bit by bit)
        Deal.objects.filter(table__round__tournament=gone).delete()
        Seat.objects.filter(round__tournament=gone).delete()
        Entry.objects.filter(tournament=gone).delete()
        Tournament.objects.get(pk=gone.pk).delete()
    assert not PlayerRating.objects.filter(player__in=only_there).exists()
    incremental = stored()
    assert incremental == full_replay()


@pytest.mark.parametrize(
    "moved_to", [dt.date(2026, 10, 1), dt.date(2026, 11, 10), dt.date(2026, 12, 24)]
)
def test_a_finished_tournament_whose_date_changes_equals_a_full_replay(
    moved_to, settings, django_capture_on_commit_callbacks
):
    people = [PlayerFactory() for _ in range(8)]
    a_tournament(people, day=1)
    moving = a_tournament(people, day=7, shift=2)
    a_tournament(people, day=14, shift=4)
    a_tournament(people, day=21, shift=5)
    bring_up_to_date(reason="test")
    settings.RATINGS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        tournament = Tournament.objects.get(pk=moving.pk)
        tournament.date = moved_to
        tournament.save()
    assert RatedTournament.objects.get(pk=moving.pk).date == moved_to
    incremental = stored()
    assert incremental == full_replay()


def test_reopening_and_finishing_again_equals_a_full_replay(
    organiser, settings, django_capture_on_commit_callbacks
):
    people = [PlayerFactory() for _ in range(8)]
    newcomer = PlayerFactory()
    a_tournament(people, day=1)
    middle = played(
        [[[(people[0], 20), (newcomer, -20)]]], date=dt.date(2026, 11, 7), finished=False
    )
    a_tournament(people, day=14, shift=4)
    settings.RATINGS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        finish_tournament(tournament=middle, user=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        reopen_tournament(
            tournament=Tournament.objects.get(pk=middle.pk), user=organiser, reason="Fehler"
        )
    assert not PlayerRating.objects.filter(player=newcomer).exists()
    reopened = stored()
    assert reopened == full_replay()
    with django_capture_on_commit_callbacks(execute=True):
        finish_tournament(tournament=Tournament.objects.get(pk=middle.pk), user=organiser)
    again = stored()
    assert again == full_replay()


def test_a_merge_equals_a_full_replay_and_its_log_names_the_players(
    organiser, settings, django_capture_on_commit_callbacks
):
    from clubs.services.players import merge_players

    people = [PlayerFactory(first_name=f"Vorname{i}", last_name=f"Spieler{i}") for i in range(8)]
    twin = PlayerFactory(first_name="Vorname0", last_name="Spieler0x")
    a_tournament(people, day=7)
    played([[[(twin, 30), (people[1], -30)]]], date=dt.date(2026, 11, 14))
    bring_up_to_date(reason="test")
    settings.RATINGS_AHEAD = "inline"
    twin_pk = twin.pk
    with django_capture_on_commit_callbacks(execute=True):
        merge_players(keep=people[0], remove=twin, user=organiser)
    run = RatingRun.objects.latest("pk")
    assert "None" not in run.reason
    assert f"Spieler0x, Vorname0 ({twin_pk})" in run.reason and f"({people[0].pk})" in run.reason
    merged = stored()
    assert merged == full_replay()


def test_migrate_rates_what_was_left_unrated(settings):
    """An upgrade (or a server where the ratings were off): ``migrate`` brings them up to
    date by itself, nobody has to know about ``recompute_ratings``."""
    people = [PlayerFactory() for _ in range(8)]
    a_tournament(people, day=1)
    a_tournament(people, day=7, shift=3)
    assert not PlayerRating.objects.exists()
    settings.RATINGS_AHEAD = "thread"
    out = io.StringIO()
    call_command("migrate", verbosity=1, stdout=out)
    assert RatedTournament.objects.count() == 2
    assert "Wertungszahlen: 2 Turniere gewertet" in out.getvalue()
    rated = stored()
    assert rated == full_replay()
    call_command("migrate", verbosity=1, stdout=io.StringIO())
    assert RatingRun.objects.count() == 2  # the one above and the comparison: nothing new


def test_ratings_stored_by_an_older_method_are_replayed_on_migrate(settings):
    people = [PlayerFactory() for _ in range(8)]
    a_tournament(people, day=1)
    bring_up_to_date(reason="test")
    RatingLock.objects.filter(id=1).update(method="an older way")
    settings.RATINGS_AHEAD = "thread"
    call_command("migrate", verbosity=0)
    run = RatingRun.objects.latest("pk")
    assert run.kind == RatingRun.Kind.FULL and "an older way" in run.reason
    assert RatingLock.objects.get().method == METHOD


def test_migrate_on_an_empty_database_writes_nothing(settings):
    settings.RATINGS_AHEAD = "thread"
    call_command("migrate", verbosity=0)
    assert not RatingRun.objects.exists() and not RatingLock.objects.exists()
