"""Tournament archives: export, import (CLI and upload), scoring checks, idempotence."""

import copy
import io
import json
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubs.models import Club, Membership, Player
from tests.factories import ClubFactory, EntryFactory, PlayerFactory
from tests.seasons.conftest import play, tournament_in
from tests.tournaments.standings.conftest import cego
from tournaments.archive_format import ArchiveError, parse_archive
from tournaments.models import Deal, DealChange, KeepApart, Substitution, Team, Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.selectors.standings import tournament_standings
from tournaments.services.archive_write import import_tournament_archive
from tournaments.services.desk_entry import annul_deal
from tournaments.services.phone_entry import revise_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(season, organiser):
    """A tournament with members (numbers), a team, a keep-apart pair, a substitution, a
    corrected and an annulled deal."""
    club = ClubFactory(short_name="CF Bräunlingen", name="Cegofreunde Bräunlingen")
    tournament = tournament_in(season, "Herbstturnier", 14, host_club=club)
    entries = []
    for index in range(4):
        player = PlayerFactory(first_name=f"Anna{index}", last_name="Faller")
        Membership.objects.create(player=player, club=club, member_number=f"M{index}")
        entries.append(EntryFactory(tournament=tournament, player=player, number=index + 1))
    spare = EntryFactory(tournament=tournament, number=5)
    team = Team.objects.create(tournament=tournament, name="Asse", club=club)
    entries[0].team = entries[1].team = team
    entries[0].save()
    entries[1].save()
    KeepApart.objects.create(tournament=tournament, first=entries[0], second=entries[1])
    table = play(tournament, entries, [(0, 45), (1, 34), (2, 45), (3, 50)])
    Substitution.objects.create(seat=table.seats.get(position=2), entry=spare, from_deal=4)
    deal = Deal.objects.get(table=table, number=2)
    revise_deal(
        deal=deal, inputs=cego(1, 46), expected_version=deal.version, user=organiser, reason="x"
    )
    annul_deal(deal=Deal.objects.get(table=table, number=3), reason="misdeal", user=organiser)
    return tournament


def copy_of(archive, name="Kopie"):
    """The archive as another server's tournament (new id, other name)."""
    other = copy.deepcopy(archive)
    other["archive_id"] = str(uuid.uuid4())
    other["tournament"]["name"] = name
    return other


def records(archive):
    return [
        (t["number"], d["number"], d["status"], d["record"], d["scores"])
        for r in archive["rounds"]
        for t in r["tables"]
        for d in t["deals"]
    ]


def test_the_archive_holds_every_deal_as_a_deal_record(played):
    archive = json.loads(json.dumps(tournament_archive(tournament=played)))
    assert archive["format"] == "cego-club/tournament-archive" and archive["version"] == 1
    assert archive["archive_id"] == str(played.archive_id)
    deals = archive["rounds"][0]["tables"][0]["deals"]
    assert [d["status"] for d in deals] == ["confirmed", "confirmed", "annulled", "confirmed"]
    assert deals[0]["record"] == {
        "id": "r1-t1-d1",
        "rules": "swm",
        "seats": 4,
        "contract": "cego",
        "declarer": 0,
        "declarer_points": 45,
    }
    assert [h["action"] for h in deals[1]["history"]] == ["created", "corrected"]
    assert archive["rounds"][0]["tables"][0]["substitutions"] == [
        {"position": 2, "entry": 5, "from_deal": 4, "reason": ""}
    ]
    assert archive["entries"][0]["team"] == "Asse"
    assert archive["keep_apart"][0]["first"] in (1, 2)


def test_import_recreates_the_tournament_and_exports_the_same_records(played):
    before_players = Player.objects.count()
    archive = json.loads(json.dumps(tournament_archive(tournament=played)))
    outcome = import_tournament_archive(data=copy_of(archive))
    assert outcome.created and outcome.deals == 4
    copy_ = outcome.tournament
    assert Player.objects.count() == before_players  # matched by member number / name
    assert records(tournament_archive(tournament=copy_)) == records(archive)
    original = tournament_standings(tournament=played)
    imported = tournament_standings(tournament=copy_)
    assert [(r.number, r.total) for r in imported.rows] == [
        (r.number, r.total) for r in original.rows
    ]
    assert copy_.teams.get().members.count() == 2
    assert DealChange.objects.filter(deal__table__round__tournament=copy_).count() == (
        DealChange.objects.filter(deal__table__round__tournament=played).count()
    )
    changed = DealChange.objects.filter(deal__table__round__tournament=copy_, action="corrected")
    assert changed.get().actor == "orga" and changed.get().reason == "x"
    first_times = sorted(
        DealChange.objects.filter(deal__table__round__tournament=played).values_list(
            "changed_at", flat=True
        )
    )
    copy_times = sorted(
        changed.model.objects.filter(deal__table__round__tournament=copy_).values_list(
            "changed_at", flat=True
        )
    )
    assert first_times == copy_times  # the history keeps its original times


def test_importing_the_same_archive_twice_gives_one_tournament(played):
    archive = copy_of(tournament_archive(tournament=played))
    first = import_tournament_archive(data=archive)
    second = import_tournament_archive(data=archive)
    assert first.created and not second.created
    assert second.tournament == first.tournament
    assert Tournament.objects.filter(name="Kopie").count() == 1
    # On the server it came from, the archive is the original tournament.
    assert not import_tournament_archive(data=tournament_archive(tournament=played)).created


def test_unknown_players_are_created_with_their_club_once_someone_says_so(played):
    archive = copy_of(tournament_archive(tournament=played))
    archive["players"][0].update(
        first_name="Neu", last_name="Spielerin", member_number="N1", uuid=str(uuid.uuid4())
    )
    archive["clubs"].append({"name": "Neuer Club", "short_name": "NC", "town": "Triberg"})
    archive["players"][0]["club"] = "NC"
    clubs = Club.objects.count()
    with pytest.raises(ArchiveError, match="Unknown club “Neuer Club”"):
        import_tournament_archive(data=archive)  # never a club created silently
    assert Club.objects.count() == clubs and not Tournament.objects.filter(name="Kopie")
    outcome = import_tournament_archive(data=archive, create_clubs=True)
    assert outcome.players_created == 1
    membership = Membership.objects.get(member_number="N1")
    assert membership.club.name == "Neuer Club" and membership.player.last_name == "Spielerin"


def test_a_score_that_the_rules_do_not_give_is_an_error_naming_the_deal(played):
    archive = copy_of(tournament_archive(tournament=played))
    archive["rounds"][0]["tables"][0]["deals"][3]["scores"] = [100, -100, 0, 0]
    count = Tournament.objects.count(), Player.objects.count(), Deal.objects.count()
    with pytest.raises(ArchiveError, match="Round 1, table 1, deal 4"):
        import_tournament_archive(data=archive)
    assert (Tournament.objects.count(), Player.objects.count(), Deal.objects.count()) == count


def test_an_inconsistent_archive_writes_nothing(played):
    archive = copy_of(tournament_archive(tournament=played))
    archive["rounds"][0]["tables"][0]["seats"][0] = 99  # no entry 99
    archive["players"][0].update(first_name="Nie", last_name="Gespeichert")
    count = Tournament.objects.count(), Player.objects.count()
    with pytest.raises(ArchiveError, match="refers to 99"):
        import_tournament_archive(data=archive)
    assert (Tournament.objects.count(), Player.objects.count()) == count


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json at all", "not a JSON file"),
        (b"[1, 2]", "not a Cego Club tournament archive"),
        (b'{"format": "cego-club/tournament-archive", "version": 7}', "version 7"),
        (b'{"format": "cego-club/tournament-archive", "version": 1}', "lacks archive_id"),
    ],
)
def test_bad_files_are_refused_clearly(content, message):
    with pytest.raises(ArchiveError, match=message):
        parse_archive(content)


def test_command_line_round_trip_and_errors(played, tmp_path, capsys):
    path = tmp_path / "archive.json"
    call_command("export_tournament", str(played.pk), "-o", str(path))
    archive = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(copy_of(archive, "Vom Laptop")), encoding="utf-8")
    with pytest.raises(CommandError, match="is not finished"):
        call_command("import_tournament", str(path))
    call_command("import_tournament", str(path), "--allow-unfinished")
    assert "Imported" in capsys.readouterr().out
    call_command("import_tournament", str(path), "--allow-unfinished")
    assert "imported before" in capsys.readouterr().out
    assert Tournament.objects.filter(name="Vom Laptop").count() == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cego-club/tournament-archive", "version": 2}')
    count = Tournament.objects.count()
    with pytest.raises(CommandError, match="version 2"):
        call_command("import_tournament", str(bad))
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_tournament", "999999", "-o", str(tmp_path / "x.json"))
    assert Tournament.objects.count() == count


def test_download_and_upload_in_the_app(client, organiser, visitor, played):
    download = reverse("tournaments:archive_download", kwargs={"pk": played.pk})
    upload = reverse("tournaments:archive_upload")
    assert client.get(download).status_code == 302
    client.force_login(visitor)
    assert client.get(upload).status_code == 403  # signed in without a role: refused
    client.force_login(organiser)
    response = client.get(download)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    archive = copy_of(json.loads(response.content), "Hochgeladen")
    file = io.BytesIO(json.dumps(archive).encode())
    file.name = "archive.json"
    response = client.post(upload, {"file": file})
    assert response.status_code == 200 and b"Preview" in response.content
    assert not Tournament.objects.filter(name="Hochgeladen").exists()  # nothing written yet
    content = response.context["content"]
    response = client.post(upload, {"content": content, "step": "confirm"})
    assert b"is not finished" in response.content
    assert not Tournament.objects.filter(name="Hochgeladen").exists()
    response = client.post(upload, {"content": content, "step": "confirm", "allow_unfinished": "1"})
    imported = Tournament.objects.get(name="Hochgeladen")
    assert response.status_code == 302 and response["Location"].endswith(
        f"/{imported.pk}/standings/"
    )
    broken = io.BytesIO(b"{broken")
    broken.name = "broken.json"
    count = Tournament.objects.count()
    response = client.post(upload, {"file": broken})
    assert response.status_code == 200 and b"not a JSON file" in response.content
    assert Tournament.objects.count() == count


def test_deals_typed_in_as_written_travel_and_are_checked(season, organiser):
    from tournaments.services.paper_sheets import WrittenRow, enter_written_deals

    tournament = tournament_in(season, "Vom Papier", 20)
    entries = [EntryFactory(tournament=tournament) for _ in range(4)]
    table = play(tournament, entries, [(0, 45)])
    enter_written_deals(
        table=table,
        rows=[WrittenRow(number=2, contract="cego", declarer=1, amounts=(-10, 30, None, None))],
        user=organiser,
    )
    archive = copy_of(json.loads(json.dumps(tournament_archive(tournament=tournament))), "Kopie")
    written = archive["rounds"][0]["tables"][0]["deals"][1]
    assert written["as_written"] and "declarer_points" not in written["record"]
    copy_ = import_tournament_archive(data=archive).tournament
    deal = Deal.objects.get(table__round__tournament=copy_, number=2)
    assert deal.as_written and deal.scores[:4] == [-10, 30, -10, -10]
    assert records(tournament_archive(tournament=copy_)) == records(archive)
    written["scores"] = [-10, 40, -20, -10]
    written_copy = copy_of(archive, "Falsch")
    with pytest.raises(ArchiveError, match="deal 2"):
        import_tournament_archive(data=written_copy)


def test_export_queries_do_not_grow_with_tables(played):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count():
        with CaptureQueriesContext(connection) as queries:
            tournament_archive(tournament=played)
        return len(queries)

    small = count()
    for number in (2, 3):
        play(
            played,
            [EntryFactory(tournament=played) for _ in range(4)],
            [(0, 45)],
            table_number=number,
        )
    assert count() == small


def test_a_deeply_nested_file_is_refused_clearly():
    """A file nested deeper than Python's parser goes (an HTTP 500 before)."""
    with pytest.raises(ArchiveError, match="nested too deeply"):
        parse_archive(b"[" * 100_000 + b"]" * 100_000)


@pytest.mark.parametrize("twice", ["deal", "seat"])
def test_a_number_given_twice_is_an_error_naming_it(played, twice):
    """A duplicate deal or seat number reached the database as a raw IntegrityError."""
    archive = copy_of(tournament_archive(tournament=played))
    table = archive["rounds"][0]["tables"][0]
    if twice == "deal":
        table["deals"][1]["number"] = table["deals"][0]["number"]
        wanted = "deal 1 twice"
    else:
        table["seats"][1] = table["seats"][0]
        wanted = "twice at table 1"
    count = Tournament.objects.count(), Deal.objects.count()
    with pytest.raises(ArchiveError, match=wanted) as raised:
        import_tournament_archive(data=archive)
    assert "UNIQUE" not in raised.value.message and "duplicate key" not in raised.value.message
    assert (Tournament.objects.count(), Deal.objects.count()) == count
