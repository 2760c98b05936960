"""A backup after a closed round says where it went; a missing backup folder (the USB stick
pulled out) is said on the desk page, when a round closes and in the venue's terminal, and
nothing is written to the laptop's disk instead."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.servers import clean_env, start_venue
from tests.venue.test_backups import played  # noqa: F401 (fixture)
from tournaments.models import Round
from venue import backups

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def organiser_client(client, played):  # noqa: F811
    user = get_user_model().objects.create_superuser("leitung", "", "pw")
    client.force_login(user)  # German: no language cookie
    return client


def reopen_and_close(client, tournament):
    """The organiser reopens round 1 and closes it again at the desk; the page it lands on."""
    url = reverse("tournaments:round_state", args=[tournament.pk, 1])
    client.post(url, {"state": Round.State.PLAYING, "reason": "nachgetragen"})
    response = client.post(url, {"state": Round.State.CLOSED, "close_open": "1"}, follow=True)
    assert response.status_code == 200
    assert Round.objects.get(tournament=tournament, number=1).state == Round.State.CLOSED
    return response.content.decode()


def test_closing_a_round_says_where_the_backup_went(
    organiser_client,
    played,  # noqa: F811
    settings,
    tmp_path,
):
    settings.VENUE_BACKUP_DIR = str(tmp_path / "stick" / "cego")
    (tmp_path / "stick").mkdir()
    page = reopen_and_close(organiser_client, played)
    [written] = (tmp_path / "stick" / "cego").iterdir()
    assert f"Sicherung gespeichert: {written}" in page
    assert 'id="backup-problem"' not in page


def test_a_pulled_stick_is_said_on_closing_and_on_the_desk_page(
    organiser_client,
    played,  # noqa: F811
    settings,
    tmp_path,
):
    stick = tmp_path / "media" / "STICK"  # its mount point is gone with the stick
    settings.VENUE_BACKUP_DIR = str(stick / "cego")
    page = reopen_and_close(organiser_client, played)
    assert "Sicherung gespeichert" not in page
    warning = f"Der Sicherungsordner {stick / 'cego'} fehlt: Ist der USB-Stick eingesteckt?"
    assert page.count(warning) == 2  # the message of the close and the desk page's warning
    assert 'id="backup-problem"' in page
    assert not (tmp_path / "media").exists()  # nothing written to the laptop's disk instead
    desk = organiser_client.get(reverse("tournaments:desk_round", args=[played.pk, 1]))
    assert warning in desk.content.decode()


def test_backup_folder_problem(settings, tmp_path):
    settings.VENUE_BACKUP_DIR = ""
    assert backups.backup_folder_problem() is None  # not in venue mode
    settings.VENUE_BACKUP_DIR = str(tmp_path / "backups")
    assert backups.backup_folder_problem() is None  # made at the first backup
    settings.VENUE_BACKUP_DIR = str(tmp_path / "gone" / "backups")
    assert "gone" in backups.backup_folder_problem()
    (tmp_path / "file").write_text("no folder")
    settings.VENUE_BACKUP_DIR = str(tmp_path / "file")
    assert backups.backup_folder_problem()


@pytest.mark.servers
def test_the_venue_terminal_warns_of_a_missing_backup_folder(tmp_path):
    missing = tmp_path / "media" / "STICK"
    server = start_venue(
        tmp_path / "day",
        log=tmp_path / "venue.log",
        env=clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings"),
        extra=("--backup-dir", str(missing)),
    )
    try:
        text = server.log.read_text()
    finally:
        server.stop()
    assert f"{missing}" in text and "USB" in text
