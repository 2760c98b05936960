"""Member lists and paper results from CSV and Excel: preview, confirm, idempotence, CLI."""

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from openpyxl import Workbook

from clubs.models import Club, Membership, Player
from clubs.services.imports import (
    AMBIGUOUS,
    ERROR,
    MATCH,
    NEW,
    ImportBlocked,
    apply_players,
    plan_players,
)
from clubs.tabular import TabularError, read_table
from seasons.selectors.standings import season_standings
from tests.factories import SeasonFactory, TournamentFactory
from tournaments.selectors.standings import tournament_standings
from tournaments.services.results_import import apply_results, plan_results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):  # the tests read English messages
        yield


GERMAN_ROWS = [
    ["Nachname", "Vorname", "Verein", "Kategorie", "Mitgliedsnummer", "Geburtsjahr", "E-Mail"],
    ["Weißhaar", "Anna", "CF Bräunlingen", "Damen", "101", "1961", "anna@example.org"],
    ["Müller", "Jürgen", "CF Bräunlingen", "", "102", "1950", ""],
    ["Schwär", "Lena", "CF Bräunlingen", "Jugend", "103", "2010", ""],
]


@pytest.fixture
def club(db):
    return Club.objects.create(
        name="Cegofreunde Bräunlingen", short_name="CF Bräunlingen", town="Bräunlingen"
    )


def csv_bytes(rows, *, delimiter=";", encoding="cp1252", title=True) -> bytes:
    lines = ["Mitgliederliste 2026;;;", ""] if title else []
    lines += [delimiter.join(row) for row in rows]
    return "\r\n".join(lines).encode(encoding)


def xlsx_bytes(rows, *, title=True) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    if title:
        sheet.append(["Mitgliederliste Cegofreunde"])
        sheet.append([])
    for row in rows:
        sheet.append([int(v) if v.isdigit() and len(v) == 4 else v for v in row])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "name", "first_line"),
    [
        (csv_bytes(GERMAN_ROWS), "liste.csv", 4),  # Windows-1252, semicolon, title line
        (csv_bytes(GERMAN_ROWS, delimiter=",", encoding="utf-8", title=False), "liste.csv", 2),
        (csv_bytes(GERMAN_ROWS, encoding="utf-8-sig"), "liste.CSV", 4),  # UTF-8 with BOM
        (xlsx_bytes(GERMAN_ROWS), "liste.xlsx", 4),
    ],
)
def test_every_file_variant_reads_the_same(club, data, name, first_line):
    table = read_table(data, name)
    assert set(table.columns) >= {"last_name", "first_name", "club", "birth_year", "email"}
    plan = plan_players(table=table)
    assert [row.status for row in plan.rows] == [NEW, NEW, NEW]
    assert [(r.last_name, r.first_name, r.category, r.birth_year) for r in plan.rows] == [
        ("Weißhaar", "Anna", "woman", 1961),
        ("Müller", "Jürgen", "open", 1950),
        ("Schwär", "Lena", "youth", 2010),
    ]
    assert plan.rows[0].line == first_line  # as the organiser sees it in the file


def test_english_headers_in_any_case(club):
    rows = [
        ["LAST NAME", "first name", "Club", "Member Number"],
        ["Faller", "Otto", "cf bräunlingen", "7"],
    ]
    plan = plan_players(table=read_table(csv_bytes(rows, delimiter=",", title=False), "x.csv"))
    assert plan.rows[0].status == NEW and plan.rows[0].club == club


def test_a_file_without_a_header_is_refused():
    with pytest.raises(TabularError):
        read_table(b"a;b\n1;2\n", "x.csv")
    with pytest.raises(TabularError):
        read_table(b"PK\x03\x04 broken", "x.xlsx")


def test_preview_writes_nothing_and_import_twice_creates_nothing_new(club):
    table = read_table(csv_bytes(GERMAN_ROWS), "liste.csv")
    plan_players(table=table)
    assert not Player.objects.exists()
    first = apply_players(table=table)
    assert (first.created, first.unchanged) == (3, 0)
    assert Membership.objects.filter(club=club).count() == 3
    again = plan_players(table=table)
    assert [row.status for row in again.rows] == [MATCH, MATCH, MATCH]
    assert all(not row.changes for row in again.rows)
    second = apply_players(table=table)
    assert (second.created, second.updated, second.unchanged) == (0, 0, 3)
    assert Player.objects.count() == 3 and Membership.objects.count() == 3


def test_matches_by_member_number_and_by_spelling_and_completes_blanks(club):
    known = Player.objects.create(first_name="Jürgen", last_name="Mueller")
    by_number = Player.objects.create(first_name="Anna", last_name="Weißhaar")
    Membership.objects.create(player=by_number, club=club, member_number="101")
    plan = plan_players(table=read_table(csv_bytes(GERMAN_ROWS), "l.csv"))
    assert [(r.status, r.player) for r in plan.rows[:2]] == [(MATCH, by_number), (MATCH, known)]
    assert "birth year" in [str(c) for c in plan.rows[1].changes]
    apply_players(table=read_table(csv_bytes(GERMAN_ROWS), "l.csv"))
    known.refresh_from_db()
    assert known.birth_year == 1950 and known.memberships.get().member_number == "102"
    assert Player.objects.count() == 3


def test_two_people_of_one_name_are_ambiguous_and_left_alone(club):
    Player.objects.create(first_name="Jürgen", last_name="Müller", birth_year=1950)
    Player.objects.create(first_name="Jürgen", last_name="Müller", birth_year=1980)
    rows = [GERMAN_ROWS[0], ["Müller", "Jürgen", "", "", "", "", ""]]
    table = read_table(csv_bytes(rows), "l.csv")
    plan = plan_players(table=table)
    assert plan.rows[0].status == AMBIGUOUS and len(plan.rows[0].candidates) == 2
    outcome = apply_players(table=table)
    assert (outcome.created, outcome.skipped) == (0, 1)
    assert Player.objects.count() == 2


def test_rows_with_errors_block_the_import_unless_skipped(club):
    rows = [
        *GERMAN_ROWS,
        ["", "Ohne", "CF Bräunlingen", "", "", "", ""],
        ["Falsch", "Jahr", "CF Bräunlingen", "", "", "neunzehn", ""],
        ["Fremd", "Verein", "Nirgendwo", "", "", "", ""],
        ["Kaputt", "Mail", "", "", "", "", "keine-mail"],
        ["Weißhaar", "Anna", "CF Bräunlingen", "", "", "", ""],  # repeats line 4
    ]
    table = read_table(csv_bytes(rows), "l.csv")
    plan = plan_players(table=table)
    errors = {
        row.line: " ".join(str(m) for m in row.messages) for row in plan.rows if row.status == ERROR
    }
    assert set(errors) == {7, 8, 9, 10, 11}
    assert "last name" in errors[7]
    assert "birth year" in errors[8]
    assert "Nirgendwo" in errors[9]
    assert "e-mail" in errors[10]
    assert "line 4" in errors[11]
    with pytest.raises(ImportBlocked):
        apply_players(table=table)
    assert not Player.objects.exists()
    outcome = apply_players(table=table, skip_errors=True)
    assert (outcome.created, outcome.skipped) == (3, 5)


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_command_dry_run_commit_and_errors(club, tmp_path, capsys):
    good = write(tmp_path, "gut.csv", csv_bytes(GERMAN_ROWS))
    call_command("import_players", good)
    out = capsys.readouterr().out
    assert "3 new" in out and "Dry run" in out and not Player.objects.exists()
    call_command("import_players", good, "--commit")
    assert Player.objects.count() == 3
    call_command("import_players", good, "--commit")
    assert Player.objects.count() == 3
    bad = write(
        tmp_path,
        "bad.xlsx",
        xlsx_bytes(
            [
                *GERMAN_ROWS[:1],
                ["Neu", "Nina", "", "", "", "1800", ""],
                ["Neu", "Paul", "", "", "", "", ""],
            ]
        ),
    )
    with pytest.raises(CommandError):
        call_command("import_players", bad, "--commit", "--club", "CF Bräunlingen")
    assert Player.objects.count() == 3
    call_command("import_players", bad, "--commit", "--skip-errors", "--club", "cf bräunlingen")
    assert Player.objects.filter(last_name="Neu").get().memberships.get().club == club
    with pytest.raises(CommandError):
        call_command("import_players", bad, "--club", "NOPE")


RESULT_ROWS = [
    ["Platz", "Nachname", "Vorname", "Verein", "Punkte"],
    ["1", "Weißhaar", "Anna", "CF Bräunlingen", "+120"],
    ["2", "Mueller", "Jürgen", "CF Bräunlingen", "-20"],
    ["3", "Schwär", "Lena", "CF Bräunlingen", "-100"],
]


def test_paper_results_count_in_the_tournament_and_the_season(club, tmp_path):
    Player.objects.create(first_name="Jürgen", last_name="Müller")
    season = SeasonFactory()
    paper = TournamentFactory(season=season, entry_mode="totals", host_club=club)
    path = write(tmp_path, "ergebnis.csv", csv_bytes(RESULT_ROWS))
    call_command("import_results", path, "--tournament", str(paper.pk))
    assert not paper.entries.exists()
    call_command("import_results", path, "--tournament", str(paper.pk), "--commit")
    standings = tournament_standings(tournament=paper)
    assert [(r.rank, r.last_name, r.total) for r in standings.rows] == [
        (1, "Weißhaar", 120),
        (2, "Müller", -20),
        (3, "Schwär", -100),
    ]
    assert Player.objects.count() == 3  # Mueller matched Müller
    season_rows = season_standings(season=season).rows
    assert [(r.last_name, r.total) for r in season_rows][0] == ("Weißhaar", 120)
    call_command("import_results", path, "--tournament", str(paper.pk), "--commit")
    assert paper.entries.count() == 3 and Player.objects.count() == 3


def test_results_need_a_totals_tournament_without_rounds(club):
    table = read_table(csv_bytes(RESULT_ROWS), "e.csv")
    every_deal = TournamentFactory(entry_mode="deals")
    assert plan_results(table=table, tournament=every_deal).warnings
    with pytest.raises(ImportBlocked):
        apply_results(table=table, tournament=every_deal)
    assert not every_deal.entries.exists()


def test_results_rows_need_a_total_and_warn_when_not_zero_sum(club):
    rows = [*RESULT_ROWS[:3], ["3", "Schwär", "Lena", "CF Bräunlingen", ""]]
    plan = plan_results(
        table=read_table(csv_bytes(rows), "e.csv"),
        tournament=TournamentFactory(entry_mode="totals"),
    )
    assert plan.rows[2].status == ERROR
    assert any("100" in str(w) for w in plan.warnings)  # 120 - 20 = 100, not 0


def test_upload_preview_and_confirm_pages(staff_client, club):
    url = reverse("clubs:player_import")
    upload = io.BytesIO(csv_bytes(GERMAN_ROWS))
    upload.name = "mitglieder.csv"
    page = staff_client.post(url, {"file": upload})
    html = page.content.decode()
    assert page.status_code == 200 and "Preview" in html and "Weißhaar" in html
    assert not Player.objects.exists()
    content = page.context["content"]
    done = staff_client.post(url, {"content": content, "filename": "mitglieder.csv", "commit": "1"})
    assert done.status_code == 302 and Player.objects.count() == 3
    staff_client.post(url, {"content": content, "filename": "mitglieder.csv", "commit": "1"})
    assert Player.objects.count() == 3


def test_results_upload_page(staff_client, club):
    paper = TournamentFactory(entry_mode="totals")
    upload = io.BytesIO(xlsx_bytes(RESULT_ROWS))
    upload.name = "ergebnis.xlsx"
    url = reverse("tournaments:results_import", args=[paper.pk])
    page = staff_client.post(url, {"file": upload})
    assert page.status_code == 200 and "Weißhaar" in page.content.decode()
    assert not paper.entries.exists()  # the preview writes nothing
    staff_client.post(
        url, {"content": page.context["content"], "filename": "ergebnis.xlsx", "commit": "1"}
    )
    assert sorted(paper.entries.values_list("paper_total", flat=True)) == [-100, -20, 120]


def test_a_member_number_twice_in_the_file_is_an_error(club):
    rows = [*GERMAN_ROWS[:2], ["Faller", "Otto", "CF Bräunlingen", "", "101", "", ""]]
    plan = plan_players(table=read_table(csv_bytes(rows), "l.csv"))
    assert plan.rows[1].status == ERROR and "line 4" in plan.rows[1].messages[0]


def test_a_paper_tournament_shows_on_every_standings_page(staff_client, club):
    season = SeasonFactory()
    paper = TournamentFactory(season=season, entry_mode="totals", host_club=club)
    apply_results(table=read_table(csv_bytes(RESULT_ROWS), "e.csv"), tournament=paper)
    for name, args in [
        ("tournaments:standings", [paper.pk]),
        ("tournaments:projector", [paper.pk]),
        ("exports:standings_xlsx", [paper.pk]),
        ("printing:print_standings", [paper.pk]),
        ("printing:print_prizes", [paper.pk]),
        ("seasons:season_standings", [season.pk]),
        ("tournaments:tournament_detail", [paper.pk]),
    ]:
        response = staff_client.get(reverse(name, args=args))
        assert response.status_code == 200, name
    html = staff_client.get(reverse("tournaments:standings", args=[paper.pk])).content.decode()
    assert "Weißhaar" in html and "120" in html


def test_an_oversized_upload_is_refused(staff_client, club):
    upload = io.BytesIO(csv_bytes(GERMAN_ROWS) + b" " * (1536 * 1024))
    upload.name = "gross.csv"
    page = staff_client.post(reverse("clubs:player_import"), {"file": upload})
    assert page.status_code == 200 and "1.5 MB" in page.content.decode()
    assert page.context["plan"] is None and not Player.objects.exists()


def test_a_control_character_makes_its_line_an_error_and_nothing_is_written(db):
    """A NUL byte from a broken export: planned as a new player before, and PostgreSQL then
    refused the row when it was written (an HTTP 500, a traceback on the command line)."""
    from clubs.models import Player
    from clubs.services.imports import ERROR, ImportBlocked, apply_players, plan_players
    from clubs.tabular import read_table

    data = "Nachname;Vorname\nMüller;Hans\nBau\x00er;Eva\n".encode()
    table = read_table(data, "liste.csv")
    plan = plan_players(table=table)
    broken = next(row for row in plan.rows if row.line == 3)
    assert broken.status == ERROR
    assert any("control character" in str(m) for m in broken.messages)
    with pytest.raises(ImportBlocked):
        apply_players(table=table)
    assert not Player.objects.exists()
    apply_players(table=table, skip_errors=True)
    assert list(Player.objects.values_list("last_name", flat=True)) == ["Müller"]


def test_the_consent_to_be_named_by_age_is_read_given_withdrawn_or_left(club):
    """A column "Als Jüngste/r/Älteste/r nennen": ja gives the consent, nein withdraws it
    (the one value a list changes rather than completes), an empty cell leaves the record as
    it is; the preview names each change first; anything else is an error of its line."""
    agreed = Player.objects.create(first_name="Anna", last_name="Weißhaar", named_for_age=True)
    unasked = Player.objects.create(first_name="Jürgen", last_name="Müller")
    kept = Player.objects.create(first_name="Lena", last_name="Schwär", named_for_age=True)
    header = [*GERMAN_ROWS[0], "Als Jüngste/r/Älteste/r nennen"]
    rows = [
        header,
        [*GERMAN_ROWS[1], "nein"],
        [*GERMAN_ROWS[2], "ja"],
        [*GERMAN_ROWS[3], ""],
        ["Neu", "Lea", "CF Bräunlingen", "Jugend", "104", "2012", "", "x"],
        ["Leer", "Paul", "CF Bräunlingen", "", "105", "1949", "", ""],
    ]
    table = read_table(csv_bytes(rows), "liste.csv")
    plan = plan_players(table=table)
    changes = [[str(c) for c in row.changes] for row in plan.rows]
    assert "no longer named as youngest or oldest" in changes[0]
    assert "may be named as youngest or oldest" in changes[1]
    assert not any("named" in c for c in changes[2])
    assert Player.objects.filter(named_for_age=True).count() == 2  # the preview wrote nothing
    apply_players(table=table)
    consent = dict(Player.objects.values_list("last_name", "named_for_age"))
    assert consent == {
        "Weißhaar": False,
        "Müller": True,
        "Schwär": True,
        "Neu": True,
        "Leer": False,
    }
    for player in (agreed, unasked, kept):
        player.refresh_from_db()
    assert (agreed.named_for_age, unasked.named_for_age, kept.named_for_age) == (False, True, True)

    wrong = [header, ["Weißhaar", "Anna", "CF Bräunlingen", "", "101", "", "", "vielleicht"]]
    plan = plan_players(table=read_table(csv_bytes(wrong), "l.csv"))
    assert plan.rows[0].status == ERROR
    assert (
        "“vielleicht” in “named as youngest/oldest” is neither ja nor nein" in plan.rows[0].messages
    )


def test_the_players_workbook_carries_the_consent_and_reads_back_in(club, staff_client):
    from openpyxl import load_workbook

    from clubs.exports import players_workbook

    Player.objects.create(first_name="Anna", last_name="Weißhaar", named_for_age=True)
    Player.objects.create(first_name="Jürgen", last_name="Müller")
    with translation.override("de"):
        data = players_workbook(Player.objects.order_by("last_name"))
    rows = list(load_workbook(io.BytesIO(data)).active.iter_rows(values_only=True))
    assert rows[0][-1] == "Als Jüngste/r/Älteste/r nennen"
    assert [(row[0], row[-1]) for row in rows[1:]] == [("Müller", "nein"), ("Weißhaar", "ja")]
    # the workbook read back as a member list: the column is known, nothing changes
    plan = plan_players(table=read_table(data, "spieler.xlsx"))
    assert [row.status for row in plan.rows] == [MATCH, MATCH]
    assert all(not row.changes for row in plan.rows)
