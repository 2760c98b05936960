"""Archives into their season: revisions and content hash, the unfinished tick, players by
registry id and uncertain players decided in the preview (issue 21, item 3)."""

import copy
import json
import uuid

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club, Membership, Player
from seasons.models import Season
from tests.factories import PlayerFactory, SeasonFactory
from tests.seasons.test_archive import played  # noqa: F401 (the fixture)
from tests.tournaments.standings.conftest import cego
from tournaments.archive_format import ArchiveError
from tournaments.models import Deal, Tournament, TournamentChange
from tournaments.selectors.archive import archive_hash, tournament_archive
from tournaments.services.archive_diff import REPLACE
from tournaments.services.archive_plan import plan_archive
from tournaments.services.archive_players import NEW_PLAYER
from tournaments.services.archive_write import import_tournament_archive
from tournaments.services.phone_entry import revise_deal

pytestmark = pytest.mark.django_db


def as_laptop(archive, archive_id):
    """The archive as the laptop's tournament (its own id and name): the same tournament in
    every revision the test exports."""
    other = json.loads(json.dumps(archive))
    other["archive_id"] = str(archive_id)
    other["tournament"]["name"] = "Vom Laptop"
    return other


def test_the_same_content_has_the_same_hash_whatever_the_revision(played):  # noqa: F811
    played.refresh_from_db()
    first = tournament_archive(tournament=played)
    second = tournament_archive(tournament=played)
    assert first["content_hash"] == second["content_hash"] == archive_hash(first)
    assert first["revision"] == played.revision
    played.save()  # a new revision, nothing else
    third = tournament_archive(tournament=played)
    assert third["revision"] > first["revision"] and third["content_hash"] == first["content_hash"]


def test_a_corrected_archive_replaces_the_copy_and_says_what_changed(played, organiser):  # noqa: F811
    laptop_id = uuid.uuid4()
    first = as_laptop(tournament_archive(tournament=played), laptop_id)
    copy_ = import_tournament_archive(data=first).tournament
    deal = Deal.objects.get(table__round__tournament=played, number=1)
    revise_deal(
        deal=deal, inputs=cego(0, 34), expected_version=deal.version, user=organiser, reason="y"
    )
    played.refresh_from_db()
    second = as_laptop(tournament_archive(tournament=played), laptop_id)
    assert second["revision"] > first["revision"]
    assert plan_archive(data=second).action == REPLACE
    outcome = import_tournament_archive(data=second)
    assert outcome.replaced and outcome.tournament.pk == copy_.pk
    assert Tournament.objects.filter(archive_id=laptop_id).count() == 1
    replaced = Deal.objects.get(table__round__tournament=copy_, number=1)
    assert replaced.scores[:4] == [-30, 10, 10, 10]
    log = TournamentChange.objects.get(tournament=copy_, action="archive_replaced")
    assert log.after["changed"] == ["r1-t1-d1"] and log.after["added"] == []
    assert "1 changed" in log.subject
    # The same corrected archive again: nothing changes.
    again = import_tournament_archive(data=second)
    assert not again.created and not again.replaced
    # The older archive never overwrites the newer one.
    with pytest.raises(ArchiveError, match="older archive never replaces"):
        import_tournament_archive(data=first)
    assert Deal.objects.get(table__round__tournament=copy_, number=1).scores[:4] == [
        -30,
        10,
        10,
        10,
    ]


def test_the_command_line_refuses_an_older_archive_with_an_error(played, organiser, tmp_path):  # noqa: F811
    laptop_id = uuid.uuid4()
    older = tmp_path / "older.json"
    newer = tmp_path / "newer.json"
    older.write_text(json.dumps(as_laptop(tournament_archive(tournament=played), laptop_id)))
    deal = Deal.objects.get(table__round__tournament=played, number=1)
    revise_deal(
        deal=deal, inputs=cego(0, 34), expected_version=deal.version, user=organiser, reason="y"
    )
    newer.write_text(json.dumps(as_laptop(tournament_archive(tournament=played), laptop_id)))
    call_command("import_tournament", str(newer), "--allow-unfinished")
    with pytest.raises(CommandError, match="older archive never replaces"):
        call_command("import_tournament", str(older), "--allow-unfinished")


def test_an_unfinished_tournament_needs_the_tick(played):  # noqa: F811
    archive = as_laptop(tournament_archive(tournament=played), uuid.uuid4())
    assert not plan_archive(data=archive).finished
    with pytest.raises(ArchiveError, match="is not finished"):
        import_tournament_archive(data=archive, allow_unfinished=False)
    assert not Tournament.objects.filter(name="Vom Laptop").exists()
    assert import_tournament_archive(data=archive, allow_unfinished=True).created


def test_the_archive_joins_the_season_it_is_imported_into(played):  # noqa: F811
    other = SeasonFactory(name="Schwarzwald-Cup 2027")
    archive = as_laptop(tournament_archive(tournament=played), uuid.uuid4())
    archive["tournament"]["season"] = {
        "name": "Laptop-Saison",
        "starts_on": "2026-01-01",
        "ends_on": "2026-12-31",
    }
    outcome = import_tournament_archive(data=archive, season=other)
    assert outcome.tournament.season == other
    assert not Season.objects.filter(name="Laptop-Saison").exists()


def test_players_are_matched_by_registry_id_first_and_namesakes_are_asked(played):  # noqa: F811
    archive = as_laptop(tournament_archive(tournament=played), uuid.uuid4())
    # The first player's name was spelt differently at the venue: the registry id decides.
    first = Player.objects.get(uuid=archive["players"][0]["uuid"])
    archive["players"][0]["first_name"] = "Anni"
    # A new player at the venue whose name another club's player has here.
    namesake = PlayerFactory(first_name="Hans", last_name="Müller")
    Membership.objects.create(player=namesake, club=Club.objects.create(name="X", short_name="X"))
    archive["players"][1].update(
        uuid=str(uuid.uuid4()), first_name="Hans", last_name="Mueller", member_number=""
    )
    plan = plan_archive(data=archive)
    rows = {row.key: row for row in plan.players}
    assert rows["p1"].status == "match" and rows["p1"].player == first
    assert rows["p2"].status == "ambiguous" and rows["p2"].candidates == [namesake]
    assert rows["p2"].player is None  # offered as new: another club's namesake
    players = Player.objects.count()
    copy_ = import_tournament_archive(data=archive).tournament
    assert Player.objects.count() == players + 1  # the new Hans Müller
    new = copy_.entries.get(number=2).player
    assert new != namesake and str(new.uuid) == archive["players"][1]["uuid"]
    # Chosen in the preview as the same person: matched.
    chosen = copy.deepcopy(archive)
    chosen["archive_id"] = str(uuid.uuid4())
    chosen["tournament"]["name"] = "Noch eins"
    players = Player.objects.count()
    outcome = import_tournament_archive(data=chosen, player_choices={"p2": namesake.pk})
    assert outcome.tournament.entries.get(number=2).player == new  # found by its registry id
    chosen["players"][1]["uuid"] = str(uuid.uuid4())
    chosen["archive_id"] = str(uuid.uuid4())
    chosen["tournament"]["name"] = "Und noch eins"
    outcome = import_tournament_archive(data=chosen, player_choices={"p2": namesake.pk})
    assert outcome.tournament.entries.get(number=2).player == namesake
    assert Player.objects.count() == players
    assert NEW_PLAYER == "new"


def test_uploaded_on_the_season_page_it_joins_that_season_after_the_preview(
    client,
    organiser,
    played,  # noqa: F811
):
    import io

    from django.urls import reverse

    target = SeasonFactory(name="Schwarzwald-Cup 2027")
    archive = as_laptop(tournament_archive(tournament=played), uuid.uuid4())
    archive["clubs"].append({"name": "Cegofreunde Triberg", "short_name": "CF Triberg"})
    archive["players"][0].update(club="CF Triberg", uuid=str(uuid.uuid4()), member_number="")
    namesake = PlayerFactory(first_name="Anna1", last_name="Faller")  # no club
    archive["players"][1].update(uuid=str(uuid.uuid4()), member_number="")
    client.force_login(organiser)
    url = reverse("tournaments:archive_upload_season", kwargs={"season_pk": target.pk})
    file = io.BytesIO(json.dumps(archive).encode())
    file.name = "a.json"
    response = client.post(url, {"file": file})
    page = response.content.decode()
    assert "Cegofreunde Triberg" in page and "not finished" in page
    assert "Players to check" in page and f'value="{namesake.pk}"' in page
    content = response.context["content"]
    confirm = {
        "content": content,
        "step": "confirm",
        "allow_unfinished": "1",
        "club-0-key": response.context["plan"].unknown_clubs[0].key,
        "club-0-choice": "",
        "player-p2": "new",
    }
    clubs = Club.objects.count()
    response = client.post(url, confirm)
    assert "Unknown club" in response.content.decode() and Club.objects.count() == clubs
    response = client.post(
        url, {**confirm, "club-0-choice": "create", "club-0-short": "CF Triberg"}
    )
    assert response.status_code == 302
    imported = Tournament.objects.get(name="Vom Laptop")
    assert imported.season == target
    assert Club.objects.get(short_name="CF Triberg").name == "Cegofreunde Triberg"
    assert imported.entries.get(number=2).player != namesake
    assert target.tournaments.count() == 1


def test_another_servers_version_never_replaces_the_original(played):  # noqa: F811
    played.refresh_from_db()
    archive = json.loads(json.dumps(tournament_archive(tournament=played)))
    assert not import_tournament_archive(data=archive).created  # its own archive: nothing
    archive["revision"] += 10
    archive["tournament"]["venue"] = "anderswo"
    with pytest.raises(ArchiveError, match="was played on this server"):
        import_tournament_archive(data=archive)
    played.refresh_from_db()
    assert played.venue != "anderswo"
