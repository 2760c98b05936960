"""An archive upload by an organiser of the host club only (issue 26, item 4): a club name
mapped to a club she does not run, and a known club she does not run. Memberships are only
given in clubs the uploader runs, so the preview says so before the import, refuses a mapping
she may not apply, and the log says what happened: never a club dropped silently."""

import io
import json
import uuid

import pytest
from django.urls import reverse

from clubs.models import ClubAlias, ClubRole, Membership, Player
from clubs.services.admin import save_club
from tests.factories import ClubFactory
from tests.seasons import test_archive
from tests.seasons.test_archive import copy_of
from tournaments.models import Tournament, TournamentChange
from tournaments.selectors.archive import tournament_archive
from tournaments.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db

UPLOAD = "tournaments:archive_upload"
played = test_archive.played  # the fixture: a played tournament of CF Bräunlingen


@pytest.fixture
def triberg(db):
    return ClubFactory(name="Cegoclub Triberg", short_name="CC Triberg", town="Triberg")


@pytest.fixture
def host_organiser(django_user_model, played):
    """An organiser of the host club (CF Bräunlingen) only, as in tests/authz."""
    user = django_user_model.objects.create_user("host", "", "pw")
    ClubRole.objects.create(user=user, club=played.host_club)
    return user


def _archive(played, club):
    """A copy of ``played`` with its first two players new and of ``club`` (name, short)."""
    archive = copy_of(tournament_archive(tournament=played), "Hochgeladen")
    name, short = club
    if short not in {c["short_name"] for c in archive["clubs"]}:
        archive["clubs"].append({"name": name, "short_name": short, "town": "Triberg"})
    for index, player in enumerate(archive["players"][:2]):
        player.update(
            first_name=f"Gast{index}",
            last_name="Triberger",
            member_number=f"T{index}",
            uuid=str(uuid.uuid4()),
            club=short,
        )
    return archive


def _preview(client, archive):
    file = io.BytesIO(json.dumps(archive).encode())
    file.name = "archive.json"
    response = client.post(reverse(UPLOAD), {"file": file})
    assert response.status_code == 200 and response.context["plan"] is not None
    return response


def _confirm(client, content, **choices):
    data = {"content": content, "step": "confirm", "allow_unfinished": "1", **choices}
    return client.post(reverse(UPLOAD), data)


def _guests():
    return Player.objects.filter(last_name="Triberger")


def test_mapping_to_a_club_the_uploader_does_not_run_is_refused_with_the_reason(
    client, played, triberg, host_organiser
):
    client.force_login(host_organiser)
    response = _preview(client, _archive(played, ("Cegofreunde Triberg", "CF Triberg")))
    (unknown,) = response.context["plan"].unknown_clubs
    assert unknown.suggestion == triberg and not unknown.suggestion_usable
    page = response.content.decode()
    # She is told before the import why the suggested club is not hers to map to ...
    assert "You do not run the club “Cegoclub Triberg”" in page
    assert "without a club membership" in page
    # ... and offered only the mappings she may apply (her club, a new club, no club).
    assert f'value="map:{triberg.pk}"' not in page
    assert f'value="map:{played.host_club.pk}"' in page

    # A mapping to Cegoclub Triberg sent anyway is refused, naming the reason: nothing written.
    response = _confirm(
        client,
        response.context["content"],
        **{"club-0-key": unknown.key},
        **{"club-0-choice": f"map:{triberg.pk}"},
    )
    assert response.status_code == 200
    assert "You do not run the club “Cegoclub Triberg”" in response.content.decode()
    assert not Tournament.objects.filter(name="Hochgeladen").exists()
    assert not _guests().exists() and not ClubAlias.objects.exists()


def test_no_club_is_taken_as_chosen_and_the_log_says_so(client, played, triberg, host_organiser):
    client.force_login(host_organiser)
    response = _preview(client, _archive(played, ("Cegofreunde Triberg", "CF Triberg")))
    (unknown,) = response.context["plan"].unknown_clubs
    response = _confirm(
        client, response.context["content"], **{"club-0-key": unknown.key, "club-0-choice": "none"}
    )
    assert response.status_code == 302
    imported = Tournament.objects.get(name="Hochgeladen")
    assert _guests().count() == 2 and not Membership.objects.filter(player__in=_guests())
    # The club's name is kept as the archive gives it, shown beside theirs until it is a
    # club here (then they are its guests, still without membership).
    assert set(_guests().values_list("guest_club_name", flat=True)) == {"Cegofreunde Triberg"}
    subjects = list(
        TournamentChange.objects.filter(tournament=imported).values_list("subject", flat=True)
    )
    assert any("Cegofreunde Triberg" in s and "without a club" in s for s in subjects)
    created = save_club(name="Cegofreunde Triberg", short_name="CF Triberg", town="Triberg")
    assert set(_guests().values_list("guest_club", flat=True)) == {created.pk}


def test_mapping_to_a_club_the_uploader_runs_gives_the_players_that_club(
    client, played, triberg, host_organiser
):
    ClubRole.objects.create(user=host_organiser, club=triberg)  # she runs Triberg too
    client.force_login(host_organiser)
    response = _preview(client, _archive(played, ("Cegofreunde Triberg", "CF Triberg")))
    (unknown,) = response.context["plan"].unknown_clubs
    assert unknown.suggestion == triberg and unknown.suggestion_usable
    assert f'value="map:{triberg.pk}"' in response.content.decode()
    response = _confirm(
        client,
        response.context["content"],
        **{"club-0-key": unknown.key, "club-0-choice": f"map:{triberg.pk}"},
    )
    assert response.status_code == 302
    memberships = Membership.objects.filter(player__in=_guests())
    assert sorted(memberships.values_list("club__short_name", "member_number")) == [
        ("CC Triberg", "T0"),
        ("CC Triberg", "T1"),
    ]
    assert ClubAlias.objects.get().club == triberg  # the spelling is remembered


def test_new_players_of_a_known_club_she_does_not_run_are_announced_and_logged(
    client, played, triberg, host_organiser
):
    """The archive names Cegoclub Triberg itself: its new players come without a membership
    (only Triberg's organisers give Triberg members): the preview and the log say so."""
    client.force_login(host_organiser)
    response = _preview(client, _archive(played, ("Cegoclub Triberg", "CC Triberg")))
    plan = response.context["plan"]
    assert plan.unknown_clubs == []
    page = response.content.decode()
    assert "You do not run the club “Cegoclub Triberg”: its new players (2)" in page
    response = _confirm(client, response.context["content"])
    assert response.status_code == 302
    imported = Tournament.objects.get(name="Hochgeladen")
    assert _guests().count() == 2 and not Membership.objects.filter(player__in=_guests())
    # Shown with Triberg all the same, as a guest without membership.
    assert set(_guests().values_list("guest_club", flat=True)) == {triberg.pk}
    clubs = {row.last_name: row.club for row in tournament_standings(tournament=imported).rows}
    assert clubs["Triberger"] == "CC Triberg"
    subjects = list(
        TournamentChange.objects.filter(tournament=imported).values_list("subject", flat=True)
    )
    assert any("Cegoclub Triberg" in s and "without a club membership" in s for s in subjects)


def test_the_warning_in_german(client, settings, played, triberg, host_organiser):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.force_login(host_organiser)
    response = _preview(client, _archive(played, ("Cegofreunde Triberg", "CF Triberg")))
    page = response.content.decode()
    assert "Sie führen den Verein „Cegoclub Triberg“ nicht" in page
    assert "ohne Vereinszugehörigkeit" in page
    (unknown,) = response.context["plan"].unknown_clubs
    response = _confirm(
        client,
        response.context["content"],
        **{"club-0-key": unknown.key, "club-0-choice": f"map:{triberg.pk}"},
    )
    assert (
        "„Cegofreunde Triberg“ kann ihm nicht zugeordnet werden "
        "(Mitglieder aufnehmen dürfen nur seine Organisatoren)" in response.content.decode()
    )
    assert not Tournament.objects.filter(name="Hochgeladen").exists()


def test_german_preview_and_log_for_a_known_club_she_does_not_run(
    client, settings, played, triberg, host_organiser
):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.force_login(host_organiser)
    response = _preview(client, _archive(played, ("Cegoclub Triberg", "CC Triberg")))
    assert (
        "Sie führen den Verein „Cegoclub Triberg“ nicht: seine neuen Spieler (2) werden ohne "
        "Vereinszugehörigkeit übernommen" in response.content.decode()
    )
    assert _confirm(client, response.context["content"]).status_code == 302
    imported = Tournament.objects.get(name="Hochgeladen")
    assert TournamentChange.objects.filter(
        tournament=imported,
        subject__startswith="Den Verein „Cegoclub Triberg“ führt nicht, wer importiert hat: "
        "seine neuen Spieler (2) wurden ohne Vereinszugehörigkeit übernommen",
    ).exists()
