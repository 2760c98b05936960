"""A tournament's results for the seasons are stored when it finishes or arrives (an archive
imported), once its transaction commits (``seasons.receivers``), not by the first reader."""

import io

import pytest
from django.core.management import call_command

from seasons.models import TournamentResult, TournamentResultSet
from seasons.selectors.results import fresh_results
from tests.factories import EntryFactory
from tests.seasons.conftest import play, tournament_in
from tests.seasons.test_archive import copy_of
from tournaments.models import Round, Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services.archive_write import import_tournament_archive
from tournaments.services.finish import finish_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(season):
    """A one-round tournament, played and closed, not finished yet."""
    tournament = tournament_in(season, "Herbst", 7, rounds=1)
    entries = [EntryFactory(tournament=tournament) for _ in range(4)]
    play(tournament, entries, [(0, 45), (1, 34), (2, 45)])
    Round.objects.filter(tournament=tournament).update(state=Round.State.CLOSED)
    tournament.refresh_from_db()
    return tournament


def stored_revision(tournament):
    stamp = TournamentResultSet.objects.filter(tournament=tournament).first()
    return stamp and stamp.revision


def test_finishing_stores_the_results_so_no_reader_works_them_out(
    closed, organiser, settings, django_capture_on_commit_callbacks
):
    settings.SEASON_RESULTS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        finish_tournament(tournament=closed, user=organiser)
    tournament = Tournament.objects.get(pk=closed.pk)
    assert stored_revision(tournament) == tournament.revision
    assert TournamentResult.objects.filter(tournament=tournament).count() == 4
    assert fresh_results(tournaments=[tournament]) == 0  # the first reader only reads


def test_an_imported_archive_arrives_with_its_results(
    closed, organiser, settings, django_capture_on_commit_callbacks
):
    settings.SEASON_RESULTS_AHEAD = "off"
    finish_tournament(tournament=closed, user=organiser)
    settings.SEASON_RESULTS_AHEAD = "inline"
    archive = copy_of(tournament_archive(tournament=closed))
    with django_capture_on_commit_callbacks(execute=True):
        outcome = import_tournament_archive(data=archive)
    tournament = Tournament.objects.get(pk=outcome.tournament.pk)
    assert tournament.finished_at is not None  # arrived finished
    assert stored_revision(tournament) == tournament.revision
    assert fresh_results(tournaments=[tournament]) == 0


def test_a_copy_published_deal_by_deal_waits_until_it_finishes(
    closed, settings, django_capture_on_commit_callbacks
):
    """The hall publishes a tournament in play after every deal: its season results are not
    worked out after each (nobody reads them before the tournament ends)."""
    settings.SEASON_RESULTS_AHEAD = "inline"
    archive = copy_of(tournament_archive(tournament=closed))
    with django_capture_on_commit_callbacks(execute=True):
        outcome = import_tournament_archive(data=archive)
    assert outcome.tournament.finished_at is None
    assert stored_revision(outcome.tournament) is None


def test_a_tournament_in_play_is_left_to_its_readers(
    closed, settings, django_capture_on_commit_callbacks
):
    settings.SEASON_RESULTS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        closed.name = "Herbstturnier"
        closed.save()  # neither finished nor imported: every deal would change it again
    assert stored_revision(closed) is None


def test_off_leaves_it_to_the_first_reader(
    closed, organiser, settings, django_capture_on_commit_callbacks
):
    settings.SEASON_RESULTS_AHEAD = "off"
    with django_capture_on_commit_callbacks(execute=True):
        finish_tournament(tournament=closed, user=organiser)
    assert stored_revision(closed) is None
    assert fresh_results(tournaments=[Tournament.objects.get(pk=closed.pk)]) == 1


def test_a_copy_published_in_play_stores_its_results_when_it_arrives_finished(
    closed, organiser, settings, django_capture_on_commit_callbacks
):
    """Live publishing changes the season server's copy in place (no save of the tournament):
    the batch that finishes it stores its results all the same."""
    settings.SEASON_RESULTS_AHEAD = "inline"
    archive = copy_of(tournament_archive(tournament=closed))
    with django_capture_on_commit_callbacks(execute=True):
        copy = import_tournament_archive(data=archive).tournament
    assert stored_revision(copy) is None
    settings.SEASON_RESULTS_AHEAD = "off"
    finish_tournament(tournament=closed, user=organiser)
    later = tournament_archive(tournament=Tournament.objects.get(pk=closed.pk))
    later = {**later, "archive_id": archive["archive_id"]}
    later["tournament"] = {**later["tournament"], "name": archive["tournament"]["name"]}
    settings.SEASON_RESULTS_AHEAD = "inline"
    with django_capture_on_commit_callbacks(execute=True):
        assert import_tournament_archive(data=later).replaced
    copy = Tournament.objects.get(pk=copy.pk)
    assert copy.finished_at is not None
    assert stored_revision(copy) == copy.revision


def test_results_stored_by_an_older_version_are_worked_out_again(closed, organiser, settings):
    """An upgrade that changes how results are worked out (this one unranked the no-shows):
    rows of the old method are stale whatever the revision, and ``migrate`` stores them anew."""
    settings.SEASON_RESULTS_AHEAD = "off"
    finish_tournament(tournament=closed, user=organiser)
    tournament = Tournament.objects.get(pk=closed.pk)
    assert fresh_results(tournaments=[tournament]) == 1
    assert fresh_results(tournaments=[tournament]) == 0
    TournamentResultSet.objects.filter(tournament=tournament).update(method=0)
    TournamentResult.objects.filter(tournament=tournament).update(place=99)
    settings.SEASON_RESULTS_AHEAD = "thread"
    out = io.StringIO()
    call_command("migrate", verbosity=1, stdout=out)
    assert "Saisonergebnisse neu berechnet: 1 Turnier." in out.getvalue()
    assert not TournamentResult.objects.filter(tournament=tournament, place=99).exists()
    assert fresh_results(tournaments=[tournament]) == 0
