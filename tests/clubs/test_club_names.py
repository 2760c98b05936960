"""Member lists as clubs have them: club names spelt their own way, mapped or created once and
remembered; an organiser's import touches only players of her clubs (or of none)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import Club, ClubAlias, ClubRole, Membership, Player
from clubs.search import club_similarity
from clubs.services.imports import (
    CREATE,
    ERROR,
    MAP,
    MATCH,
    NEW,
    NO_CLUB,
    ClubChoice,
    apply_players,
    plan_players,
    propose_short_name,
)
from clubs.tabular import read_table

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"
LIST_FILES = ["mitgliederliste.csv", "mitgliederliste.xlsx"]
# The list's eight players (lines 4 and 11 have no last name, line 7 repeats line 5).
PLAYERS = {
    ("Kaltenbach", "Anna"),
    ("Faller", "Bernd"),
    ("Schwär", "Lena"),
    ("Kienzler", "Bernhard"),
    ("Dold", "Ursula"),
    ("Faller", "Otto"),
    ("Hettich", "Margarete"),
    ("Ketterer", "Franz"),
}
SPELLINGS = ["Cego-Club Bräunlingen", "Cegofreunde Triberg", "Cego Vöhrenbach e.V."]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def member_list(name: str = "mitgliederliste.csv"):
    return read_table((DATA / name).read_bytes(), name)


def players() -> set[tuple[str, str]]:
    return set(Player.objects.values_list("last_name", "first_name"))


@pytest.fixture
def demo_clubs(db):
    """The demo's clubs (tournaments.demo): the list spells every one differently."""
    return {
        short: Club.objects.create(name=name, short_name=short, town=town)
        for name, short, town in [
            ("Cegofreunde Bräunlingen", "CF Bräunlingen", "Bräunlingen"),
            ("Cegoclub Furtwangen", "CC Furtwangen", "Furtwangen"),
            ("Cegoclub Triberg", "CC Triberg", "Triberg"),
            ("Cegofreunde Furtwangen", "CF Furtwangen", "Furtwangen"),
            ("Cego-Runde Vöhrenbach", "CR Vöhrenbach", "Vöhrenbach"),
        ]
    }


def organiser_of(*clubs, name="orga"):
    user = get_user_model().objects.create_user(name, "", "pw")
    for club in clubs:
        ClubRole.objects.create(user=user, club=club)
    return user


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


# --- names -------------------------------------------------------------------------------


def test_the_town_decides_which_club_a_spelling_is():
    clubs = ["Cegofreunde Bräunlingen", "Cegoclub Triberg", "Cego-Runde Vöhrenbach"]
    for spelling, club in zip(SPELLINGS, clubs, strict=True):
        ranked = sorted(clubs, key=lambda c, s=spelling: club_similarity(s, c), reverse=True)
        assert ranked[0] == club
        assert club_similarity(spelling, club) >= 0.75
    # Same words, another town: not alike; a typo in the town: still alike.
    assert club_similarity("Cego-Club Bräunlingen", "Cego-Club Triberg") < 0.6
    assert club_similarity("Cegofreunde Trieberg", "Cegoclub Triberg") >= 0.75


def test_a_new_clubs_short_name_is_in_the_clubs_own_style():
    assert propose_short_name(name="Cego-Club Bräunlingen", taken=set()) == "CC Bräunlingen"
    assert propose_short_name(name="Cegofreunde Triberg e.V.", taken=set()) == "CF Triberg"
    assert (
        propose_short_name(name="Cego-Club Bräunlingen", taken={"cc braeunlingen"})
        == "CC Bräunlingen 2"
    )
    assert len(propose_short_name(name="Cegofreunde Hinterzarten-Breitnau", taken=set())) <= 20


def test_two_new_clubs_are_never_offered_one_short_name(db):
    rows = "Nachname;Vorname;Verein\r\nA;Anna;Cego-Club Triberg\r\nB;Bea;Cego Club Triberg eV\r\n"
    table = read_table(rows.encode("cp1252"), "t.csv")
    plan = plan_players(table=table)
    assert [u.short_name for u in plan.unknown_clubs] == ["CC Triberg", "CC Triberg 2"]


def test_unknown_clubs_are_listed_once_with_the_likely_club(demo_clubs):
    plan = plan_players(table=member_list())
    assert [(u.name, u.lines) for u in plan.unknown_clubs] == [
        ("Cego-Club Bräunlingen", 4),
        ("Cegofreunde Triberg", 4),
        ("Cego Vöhrenbach e.V.", 3),
    ]
    assert [u.suggestion.short_name for u in plan.unknown_clubs] == [
        "CF Bräunlingen",
        "CC Triberg",
        "CR Vöhrenbach",
    ]
    # Not chosen yet: each line naming one is an error naming the club.
    assert all(row.status == ERROR for row in plan.rows)
    assert "unknown club “Cegofreunde Triberg”" in plan.rows[4].messages


# --- the command line --------------------------------------------------------------------


@pytest.mark.parametrize("name", LIST_FILES)
def test_command_creates_the_clubs_and_imports_the_eight_players(db, name, capsys):
    path = str(DATA / name)
    with translation.override("de"):
        call_command("import_players", path, "--skip-errors")  # dry run
        out = capsys.readouterr().out
        assert "unbekannter Verein „Cego-Club Bräunlingen“" in out
        with pytest.raises(CommandError):  # unknown clubs are errors: nothing written
            call_command("import_players", path, "--commit")
    assert not Player.objects.exists() and not Club.objects.exists()

    call_command("import_players", path, "--commit", "--skip-errors", "--create-clubs")
    out = capsys.readouterr().out
    assert "8 new" in out and "3 skipped" in out and "3 clubs created" in out
    assert players() == PLAYERS and Player.objects.count() == 8
    assert sorted(Club.objects.values_list("name", "short_name")) == [
        ("Cego Vöhrenbach e.V.", "C Vöhrenbach"),
        ("Cego-Club Bräunlingen", "CC Bräunlingen"),
        ("Cegofreunde Triberg", "CF Triberg"),
    ]
    assert Club.objects.get(short_name="CC Bräunlingen").town == "Bräunlingen"
    assert Membership.objects.filter(club__short_name="CF Triberg").count() == 3
    assert not ClubRole.objects.exists()  # created without organisers

    # The next import knows the clubs: nothing new.
    call_command("import_players", path, "--commit", "--skip-errors")
    assert Player.objects.count() == 8 and Club.objects.count() == 3


def test_command_maps_a_spelling_to_an_existing_club_and_remembers_it(demo_clubs, capsys):
    path = str(DATA / "mitgliederliste.csv")
    call_command(
        "import_players",
        path,
        "--commit",
        "--skip-errors",
        "--create-clubs",
        "--map",
        "Cego-Club Bräunlingen=cf bräunlingen",
    )
    braeunlingen = demo_clubs["CF Bräunlingen"]
    assert ClubAlias.objects.get().club == braeunlingen
    assert braeunlingen.memberships.count() == 3
    assert Club.objects.count() == 7  # Triberg and Vöhrenbach created as spelt
    with pytest.raises(CommandError, match="NOPE"):
        call_command("import_players", path, "--map", "X=NOPE")
    with pytest.raises(CommandError):
        call_command("import_players", path, "--map", "no equals sign")


# --- choices, checked again on apply -----------------------------------------------------


def test_choices_map_create_and_no_club_then_remembered(demo_clubs):
    table = member_list("mitgliederliste.xlsx")
    choices = {
        "cego club braeunlingen": ClubChoice(MAP, club_id=demo_clubs["CF Bräunlingen"].pk),
        "cegofreunde triberg": ClubChoice(CREATE, short_name="Cegofr. Triberg"),
        "cego voehrenbach e v": ClubChoice(NO_CLUB),
    }
    plan = plan_players(table=table, club_choices=choices)
    assert [r.status for r in plan.rows].count(NEW) == 8
    assert plan.rows[4].club.short_name == "Cegofr. Triberg" and plan.rows[4].club.pk is None
    outcome = apply_players(table=table, skip_errors=True, club_choices=choices)
    assert (outcome.created, outcome.clubs_created, outcome.spellings_remembered) == (8, 1, 1)
    assert Player.objects.get(last_name="Hettich").memberships.count() == 0
    assert Club.objects.get(short_name="Cegofr. Triberg").name == "Cegofreunde Triberg"
    # Next time the spelling is known and the created club found by its name.
    again = plan_players(table=table)
    assert [u.name for u in again.unknown_clubs] == ["Cego Vöhrenbach e.V."]
    assert again.rows[0].club == demo_clubs["CF Bräunlingen"] and again.rows[0].status == MATCH


def test_a_choice_that_cannot_be_applied_stops_everything(demo_clubs):
    table = member_list()
    for choice in [
        ClubChoice(CREATE, short_name="CC Triberg"),  # taken
        ClubChoice(CREATE, short_name=" "),
        ClubChoice(CREATE, short_name="x" * 21),
        ClubChoice(MAP, club_id=999999),
        ClubChoice("guess"),
    ]:
        with pytest.raises(ValidationError) as error:
            apply_players(
                table=table, skip_errors=True, club_choices={"cegofreunde triberg": choice}
            )
        assert "Cegofreunde Triberg" in " ".join(error.value.messages)
    assert not Player.objects.exists() and Club.objects.count() == 5
    assert not ClubAlias.objects.exists()


# --- scope: an organiser's import touches her clubs' players only ------------------------


def test_another_clubs_player_is_never_touched(db):
    club_a = Club.objects.create(name="Cegoclub A-Dorf", short_name="CC A", town="A-Dorf")
    club_b = Club.objects.create(name="Cegoclub B-Dorf", short_name="CC B", town="B-Dorf")
    theirs = Player.objects.create(first_name="Hans", last_name="Müller", birth_year=1950)
    Membership.objects.create(player=theirs, club=club_a, member_number="7")
    rows = "Nachname;Vorname;Verein;Geburtsjahr;E-Mail\r\nMüller;Hans;CC B;1950;h@b.example\r\n"
    table = read_table(rows.encode("cp1252"), "b.csv")
    organiser_b = organiser_of(club_b)

    plan = plan_players(table=table, user=organiser_b)
    assert plan.rows[0].status == NEW and plan.rows[0].player is None
    assert "club you do not run" in " ".join(plan.rows[0].messages)
    # Without a club of hers the line would only make a second record: an error.
    clubless = read_table("Nachname;Vorname\r\nMüller;Hans\r\n".encode("cp1252"), "c.csv")
    row = plan_players(table=clubless, user=organiser_b).rows[0]
    assert row.status == ERROR and "left out" in " ".join(row.messages)
    apply_players(table=table, user=organiser_b)

    theirs.refresh_from_db()
    assert list(theirs.memberships.values_list("club__short_name", flat=True)) == ["CC A"]
    assert theirs.email == ""
    ours = Player.objects.exclude(pk=theirs.pk).get()
    assert ours.memberships.get().club == club_b and ours.email == "h@b.example"
    # A superuser's import sees every club: the same line matches the one record.
    assert plan_players(table=table).rows[0].status != NEW


def test_a_line_naming_another_club_is_an_error_and_clubless_players_are_everyones(db):
    club_a = Club.objects.create(name="Cegoclub A-Dorf", short_name="CC A", town="A-Dorf")
    club_b = Club.objects.create(name="Cegoclub B-Dorf", short_name="CC B", town="B-Dorf")
    guest = Player.objects.create(first_name="Rosa", last_name="Gast")  # entered at a desk
    rows = "Nachname;Vorname;Verein\r\nNeu;Nina;CC A\r\nGast;Rosa;CC B\r\n"
    table = read_table(rows.encode("cp1252"), "b.csv")
    organiser_b = organiser_of(club_b)
    plan = plan_players(table=table, user=organiser_b)
    assert plan.rows[0].status == ERROR
    assert "Cegoclub A-Dorf, which you do not run" in " ".join(plan.rows[0].messages)
    assert (plan.rows[1].status, plan.rows[1].player) == (MATCH, guest)
    # Nor may the club for lines without one be another's.
    default_a = plan_players(
        table=read_table(b"Nachname;Vorname\r\nNeu;Nina\r\n", "n.csv"),
        club=club_a,
        user=organiser_b,
    )
    assert default_a.rows[0].status == ERROR
    apply_players(table=table, user=organiser_b, skip_errors=True)
    assert not club_a.memberships.exists()
    assert guest.memberships.get().club == club_b


def test_an_organiser_maps_only_to_her_clubs_and_may_create(demo_clubs):
    organiser = organiser_of(demo_clubs["CF Bräunlingen"])
    table = member_list()
    plan = plan_players(table=table, user=organiser)
    defaults = {u.name: (u.default.action, u.suggestion_usable) for u in plan.unknown_clubs}
    assert defaults == {
        "Cego-Club Bräunlingen": (MAP, True),
        "Cegofreunde Triberg": (NO_CLUB, False),  # likely Cegoclub Triberg: not hers
        "Cego Vöhrenbach e.V.": (NO_CLUB, False),
    }
    triberg = demo_clubs["CC Triberg"]
    with pytest.raises(ValidationError):
        apply_players(
            table=table,
            user=organiser,
            skip_errors=True,
            club_choices={"cegofreunde triberg": ClubChoice(MAP, club_id=triberg.pk)},
        )
    assert not triberg.memberships.exists() and not ClubAlias.objects.exists()
    outcome = apply_players(
        table=table,
        user=organiser,
        skip_errors=True,
        club_choices={
            "cego club braeunlingen": ClubChoice(MAP, club_id=demo_clubs["CF Bräunlingen"].pk),
            "cegofreunde triberg": ClubChoice(NO_CLUB),
            "cego voehrenbach e v": ClubChoice(CREATE, short_name="CV Vöhrenbach"),
        },
    )
    assert (outcome.created, outcome.clubs_created, outcome.spellings_remembered) == (8, 1, 1)
    created = Club.objects.get(short_name="CV Vöhrenbach")
    assert created.memberships.count() == 2 and not created.roles.exists()
    assert ClubAlias.objects.get().added_by == organiser
    assert not triberg.memberships.exists()


# --- the web preview ---------------------------------------------------------------------


def upload(client, name):
    data = io.BytesIO((DATA / name).read_bytes())
    data.name = name
    return client.post(reverse("clubs:player_import"), {"file": data})


def confirm_data(page, **overrides) -> dict:
    """The confirm form as the browser sends it: the file and every choice as offered."""
    data = {"content": page.context["content"], "filename": page.context["filename"]}
    for block in page.context["club_blocks"]:
        i = block["index"]
        data[f"unknown-{i}-key"] = block["unknown"].key
        data[f"unknown-{i}-choice"] = next(o["value"] for o in block["options"] if o["selected"])
        data[f"unknown-{i}-short"] = block["short_name"]
    data.update(overrides)
    return data


@pytest.mark.parametrize("name", LIST_FILES)
def test_web_preview_on_a_fresh_database(db, name):
    client = client_for(get_user_model().objects.create_superuser("admin", "", "pw"))
    page = upload(client, name)
    html = page.content.decode()
    assert page.status_code == 200 and "Clubs not in the registry" in html
    assert html.count("create as new club “Cego-Club Bräunlingen”") == 1
    assert [b["short_name"] for b in page.context["club_blocks"]] == [
        "CC Bräunlingen",
        "CF Triberg",
        "C Vöhrenbach",
    ]
    assert page.context["plan_counts"] == {"new": 8, "match": 0, "ambiguous": 0, "error": 3}
    assert not Player.objects.exists() and not Club.objects.exists()

    # The organiser edits a short name; "update preview" shows it, still writing nothing.
    edited = confirm_data(page, **{"unknown-2-short": "CV Vöhrenbach", "commit": "0"})
    again = client.post(reverse("clubs:player_import"), edited)
    assert "CV Vöhrenbach" in again.content.decode() and not Club.objects.exists()

    done = client.post(
        reverse("clubs:player_import"), {**edited, "commit": "1", "skip_errors": "1"}
    )
    assert done.status_code == 302
    assert players() == PLAYERS
    assert set(Club.objects.values_list("short_name", flat=True)) == {
        "CC Bräunlingen",
        "CF Triberg",
        "CV Vöhrenbach",
    }


def test_web_confirm_checks_the_choices_again(demo_clubs):
    organiser = organiser_of(demo_clubs["CF Bräunlingen"])
    client = client_for(organiser)
    page = upload(client, "mitgliederliste.csv")
    blocks = page.context["club_blocks"]
    # Her own club first, suggested; another club's never offered.
    assert blocks[0]["options"][0]["label"] == "Cegofreunde Bräunlingen (suggested)"
    offered = {o["value"] for b in blocks for o in b["options"]}
    assert f"club-{demo_clubs['CC Triberg'].pk}" not in offered
    assert "Probably Cegoclub Triberg, a club you do not run" in page.content.decode()
    # A forged choice for another club: refused with the reason, nothing written.
    forged = confirm_data(
        page,
        **{
            "unknown-1-choice": f"club-{demo_clubs['CC Triberg'].pk}",
            "commit": "1",
            "skip_errors": "1",
        },
    )
    refused = client.post(reverse("clubs:player_import"), forged)
    assert refused.status_code == 200
    assert "choose one of your clubs" in refused.content.decode()
    assert not Player.objects.exists() and not ClubAlias.objects.exists()


def test_demo_list_maps_to_the_demo_clubs(db):
    call_command("load_demo", stdout=io.StringIO())
    before = Player.objects.count()
    kaltenbach = Player.objects.get(last_name="Kaltenbach", first_name="Anna")
    client = client_for(get_user_model().objects.create_superuser("admin", "", "pw"))
    page = upload(client, "mitgliederliste.xlsx")
    chosen = [
        next(o["label"] for o in b["options"] if o["selected"]) for b in page.context["club_blocks"]
    ]
    assert chosen == [
        "Cegofreunde Bräunlingen (suggested)",
        "Cegoclub Triberg (suggested)",
        "Cego-Runde Vöhrenbach (suggested)",
    ]
    plan = page.context["plan"]
    assert [r.player for r in plan.rows[:2]] == [
        kaltenbach,
        Player.objects.get(last_name="Faller", first_name="Bernd"),
    ]
    done = client.post(
        reverse("clubs:player_import"), {**confirm_data(page), "commit": "1", "skip_errors": "1"}
    )
    assert done.status_code == 302
    assert Player.objects.count() == before + 6  # two of the eight were demo players
    assert Club.objects.filter(name__in=SPELLINGS).count() == 0
    assert ClubAlias.objects.count() == 3
    assert Membership.objects.filter(
        club__short_name="CC Triberg", player__last_name="Kienzler"
    ).exists()
    assert kaltenbach.memberships.count() == 1  # already a member: nothing added
    # Remembered: the next upload asks nothing.
    assert upload(client, "mitgliederliste.xlsx").context["club_blocks"] == []


def test_the_audits_attack_through_the_import_page(db):
    """Club B's organiser imports a line with club A's player's name and club B, then would
    merge "her" record away: club A's player gains no membership and stays as it was."""
    club_a = Club.objects.create(name="Cegoclub A-Dorf", short_name="CC A", town="A-Dorf")
    club_b = Club.objects.create(name="Cegoclub B-Dorf", short_name="CC B", town="B-Dorf")
    theirs = Player.objects.create(first_name="Hans", last_name="Müller", birth_year=1950)
    Membership.objects.create(player=theirs, club=club_a)
    client = client_for(organiser_of(club_b))
    data = io.BytesIO("Nachname;Vorname;Verein;E-Mail\r\nMüller;Hans;CC B;x@b.example\r\n".encode())
    data.name = "b.csv"
    page = client.post(reverse("clubs:player_import"), {"file": data})
    assert page.status_code == 200
    client.post(
        reverse("clubs:player_import"),
        {"content": page.context["content"], "filename": "b.csv", "commit": "1"},
    )
    theirs.refresh_from_db()
    assert [m.club for m in theirs.memberships.all()] == [club_a] and theirs.email == ""
    assert Player.objects.filter(memberships__club=club_b).exclude(pk=theirs.pk).count() == 1


def test_a_remembered_spelling_suggests_its_own_club(demo_clubs):
    """A spelling remembered for one club (``ClubAlias``) makes that club the likeliest for a
    name written like it, not whichever club the registry lists last."""
    from clubs.search import club_key

    ClubAlias.objects.create(
        alias="Spielrunde Zähringer Hof",
        key=club_key("Spielrunde Zähringer Hof"),
        club=demo_clubs["CF Bräunlingen"],
    )
    rows = "Nachname;Vorname;Verein\r\nA;Anna;Spielrunde Zäringer Hof\r\n"
    plan = plan_players(table=read_table(rows.encode("cp1252"), "t.csv"))
    assert [u.suggestion.short_name for u in plan.unknown_clubs] == ["CF Bräunlingen"]
