"""What each persona *sees*: the second half of the authorisation matrix.

``test_matrix.py`` checks who gets a page at all; this file checks what a page, search or
export contains for each persona. Marker records are planted (``plant``): a player of club A,
a player of club B, and B's "twin" of A's player (same name, another person). Each marker is
a unique string: a birth year, a member number, an e-mail, a name. A row of ``CONTENTS``
names a URL (with its query or POST data) and, per persona, the markers the answer must
contain; every other marker of the row must be absent. Personas left out of a row must be
refused. HTML and JSON are read as text, workbooks with openpyxl, PDFs with pypdf.

The rule (``clubs.permissions``, docs/architecture/security.md, "Who sees what"): a player's personal
data (birth year, member number, e-mail, fees) only for the organisers of the player's
clubs (any club's organisers for a player of no club) and superusers; names and clubs as on
the public standings; a club's member list only for that club.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from tests.authz.conftest import PERSONAS, World, client_for
from tests.authz.test_matrix import MATRIX, refused
from tests.conftest import WEASYPRINT_URLS, require_weasyprint
from tournaments.services import setup

MARKS = {
    # club A's player: Anna Markeraa
    "a_born": "1931",
    "a_no": "A-4711",
    "a_mail": "anna@markeraa.example",
    # club B's player: Berta Markerbb (registered nowhere)
    "b_name": "Markerbb",
    "b_born": "1932",
    "b_no": "B-0815",
    "b_mail": "berta@markerbb.example",
    # club B's Anna Markeraa, another person of the same name (a guest at club A's day)
    "t_born": "1934",
    "t_no": "B-7734",
    "t_mail": "anna@twin.example",
    # Dora Markerdd, a member of both clubs: each club's number is that club's business
    "d_a_no": "A-2222",
    "d_b_no": "B-3333",
    # a change in club B's tournament (its log)
    "b_log": "Geheimsaal B",
    # the clubs
    "club_a": "Cegofreunde A",
    "club_b": "Cegoclub B",
}
A = frozenset({"a_born", "a_no", "a_mail"})
B = frozenset({"b_name", "b_born", "b_no", "b_mail"})
T = frozenset({"t_born", "t_no", "t_mail"})
D = frozenset({"d_a_no", "d_b_no"})
PRIVATE = A | (B - {"b_name"}) | T | D
NOTHING: frozenset[str] = frozenset()


@dataclass
class Planted:
    a: Player
    b: Player
    twin: Player
    dora: Player


def plant(world: World) -> Planted:
    def player(first: str, last: str, born: str, mail: str, club, number: str) -> Player:
        p = Player.objects.create(
            first_name=first, last_name=last, birth_year=int(MARKS[born]), email=MARKS[mail]
        )
        Membership.objects.create(player=p, club=club, member_number=MARKS[number])
        return p

    a = player("Anna", "Markeraa", "a_born", "a_mail", world.club_a, "a_no")
    b = player("Berta", MARKS["b_name"], "b_born", "b_mail", world.club_b, "b_no")
    twin = player("Anna", "Markeraa", "t_born", "t_mail", world.club_b, "t_no")
    dora = Player.objects.create(first_name="Dora", last_name="Markerdd")
    Membership.objects.create(player=dora, club=world.club_b, member_number=MARKS["d_b_no"])
    Membership.objects.create(player=dora, club=world.club_a, member_number=MARKS["d_a_no"])
    for guest in (a, twin):
        setup.register_player(tournament=world.day, player=guest)
    b_day = world.elsewhere
    setup.update_tournament(
        tournament=b_day,
        name=b_day.name,
        host_club=b_day.host_club,
        date=b_day.date,
        rules_slug=b_day.rules_slug,
        venue=MARKS["b_log"],
        rounds=b_day.rounds,
        deals_per_round=b_day.deals_per_round,
    )
    world.club_b.public_player_pages = True  # Berta's results page is public
    world.club_b.save()
    return Planted(a=a, b=b, twin=twin, dora=dora)


@dataclass(frozen=True)
class Row:
    name: str
    kwargs: Callable[[World, Planted], dict]
    sees: dict[str, frozenset[str]]  # persona → markers present; the others are refused
    query: str = ""
    post: dict | Callable[[], dict] | None = None  # POST these data instead of a GET
    format: str = "text"  # text (HTML, JSON), xlsx, pdf
    checked: frozenset[str] = field(default=PRIVATE)  # besides those named in ``sees``
    matrix: bool = True  # a GET: the same personas as the status matrix let in

    @property
    def marks(self) -> frozenset[str]:
        return self.checked.union(*self.sees.values())


def same(personas: frozenset[str] | tuple, marks: frozenset[str]) -> dict:
    return dict.fromkeys(personas, marks)


def no_kwargs(w: World, p: Planted) -> dict:
    return {}


def day(w: World, p: Planted) -> dict:
    return {"pk": w.day.pk}


def round_1(w: World, p: Planted) -> dict:
    return {"pk": w.day.pk, "round_number": 1}


def season(w: World, p: Planted) -> dict:
    return {"pk": w.season.pk}


def club_a_fees(w: World, p: Planted) -> dict:
    return {"pk": w.club_a.pk, "season_pk": w.season.pk}


def anna(w: World, p: Planted) -> dict:
    return {"pk": p.a.pk}


EVERYONE = PERSONAS
HOST = ("organiser", "superuser")  # club A's organisers: the host of ``day``
DESK = ("organiser", "referee", "superuser")
# the registry's lists: each club's organiser her own members; referees nothing
REGISTRY = {
    "organiser": frozenset({"a_born", "a_no", "d_a_no"}),
    "gast": frozenset({"b_name", "b_born", "b_no", "t_born", "t_no", "d_b_no"}),
    "referee": NOTHING,
    "other_referee": NOTHING,
    "superuser": frozenset({"a_born", "a_no", "b_name", "b_born", "b_no", "t_born", "t_no"}) | D,
}
EXPORT = {
    "organiser": A | {"d_a_no"},
    "gast": B | T | {"d_b_no"},
    "superuser": A | B | T | D,
}


def member_list() -> dict:
    """A member list naming Anna and Berta (no club, no birth year): its preview, matched
    against the importer's records, shows nobody's registry data."""
    upload = io.BytesIO(b"Nachname;Vorname\r\nMarkeraa;Anna\r\nMarkerbb;Berta\r\n")
    upload.name = "mitglieder.csv"
    return {"file": upload}


NEW_ANNA = {"first_name": "Anna", "last_name": "Markeraa", "category": "open"}

CONTENTS: tuple[Row, ...] = (
    # the registry: lists, searches, exports
    Row("clubs:player_list", no_kwargs, REGISTRY, query="q=Marker"),
    # a club filter offers one's own clubs only: another club's is not applied
    Row(
        "clubs:player_list",
        no_kwargs,
        {**REGISTRY, "superuser": REGISTRY["gast"] | {"d_a_no"}},
        query="q=Marker&club={club_b}",
    ),
    Row("exports:player_export_xlsx", no_kwargs, EXPORT, query="q=Marker", format="xlsx"),
    Row(
        "exports:player_export_xlsx",
        no_kwargs,
        {**EXPORT, "superuser": EXPORT["gast"] | {"d_a_no"}},
        query="q=Marker&club={club_b}",
        format="xlsx",
    ),
    Row(
        "printing:player_export_pdf",
        no_kwargs,
        {persona: marks - {"a_mail", "b_mail", "t_mail"} for persona, marks in EXPORT.items()},
        query="q=Marker",
        format="pdf",
    ),
    # a player's record: her own data; the merge search and the same-name list only the
    # records the user may merge (her clubs' and clubless ones)
    Row(
        "clubs:player_detail",
        anna,
        {"organiser": A, "superuser": A | {"b_name", "b_born", "t_born"}},
        query="q=Marker",
    ),
    # a player of both clubs: each club's organisers see their own club's membership
    Row(
        "clubs:player_detail",
        lambda w, p: {"pk": p.dora.pk},
        {"organiser": frozenset({"d_a_no"}), "gast": frozenset({"d_b_no"}), "superuser": D},
        matrix=False,  # the matrix opens a player of club A only
    ),
    Row(
        "clubs:player_edit",
        lambda w, p: {"pk": p.dora.pk},
        # the form edits one membership: the first the user may see (B's came first)
        {
            "organiser": frozenset({"d_a_no"}),
            "gast": frozenset({"d_b_no"}),
            "superuser": frozenset({"d_b_no"}),
        },
        matrix=False,
    ),
    Row("clubs:player_edit", anna, {"organiser": A, "superuser": A | {"t_born", "t_no"}}),
    # a duplicate offer names every club's record of the name, the data only of one's own
    Row(
        "clubs:player_create",
        no_kwargs,
        {
            "organiser": frozenset({"a_born", "a_no"}),
            "gast": frozenset({"t_born", "t_no"}),
            "superuser": frozenset({"a_born", "a_no", "t_born", "t_no"}),
        },
        post=NEW_ANNA,
    ),
    Row(
        "tournaments:late_entry",
        day,
        {"organiser": frozenset({"a_born"}), "superuser": frozenset({"a_born", "t_born"})},
        post={f"new-{key}": value for key, value in NEW_ANNA.items()},
    ),
    # a member list's preview
    Row(
        "clubs:player_import",
        no_kwargs,
        same(("organiser", "gast", "superuser"), NOTHING),
        post=member_list,
    ),
    # searching players to register: every club's (guests come), by name and club only
    Row("tournaments:late_entry", day, same(HOST, frozenset({"b_name"})), query="q=Marker"),
    Row("tournaments:registration", day, same(HOST, frozenset({"b_name"})), query="q=Marker"),
    # … but a club's member list only for that club (the club filter)
    Row(
        "tournaments:registration",
        day,
        {"organiser": NOTHING, "superuser": frozenset({"b_name"})},
        query="club={club_b}",
    ),
    # the tournament's archive: its players, the data of the host's own members only
    Row(
        "tournaments:archive_download",
        day,
        {
            "organiser": frozenset({"a_born", "a_no"}),
            "superuser": frozenset({"a_born", "a_no", "t_born", "t_no"}),
        },
    ),
    # a public results page (club B opted in): the name, never the birth year, not even for
    # the player's club (its organisers follow the link to the registry entry)
    Row(
        "seasons:player_detail",
        lambda w, p: {"pk": p.b.pk},
        same(EVERYONE, frozenset({"b_name"})),
        matrix=False,  # the matrix opens a private club's page
    ),
    # clubs and fees: one's own clubs
    Row(
        "treasury:club_list",
        no_kwargs,
        {
            "organiser": frozenset({"club_a"}),
            "gast": frozenset({"club_b"}),
            "referee": NOTHING,
            "other_referee": NOTHING,
            "superuser": frozenset({"club_a", "club_b"}),
        },
    ),
    Row("treasury:treasurer", club_a_fees, same(HOST, frozenset({"a_no", "d_a_no"}))),
    Row(
        "exports:treasurer_xlsx",
        club_a_fees,
        same(HOST, frozenset({"a_no", "d_a_no"})),
        format="xlsx",
    ),
    # the day's and season's pages and printouts: names and clubs, never personal data
    Row("tournaments:tournament_detail", day, same(DESK, NOTHING)),
    Row("tournaments:checkin", day, same(HOST, NOTHING)),
    Row("tournaments:desk_round", round_1, same(DESK, NOTHING)),
    Row("tournaments:standings", day, same(EVERYONE, NOTHING)),
    Row("tournaments:projector", day, same(EVERYONE, NOTHING)),
    # a player's own page and its search: names, clubs, tables, never personal data
    Row("tournaments:my_seat_search", day, same(EVERYONE, NOTHING), query="q=a"),
    Row("tournaments:my_seat", lambda w, p: {"pk": w.day.pk, "number": 1}, same(EVERYONE, NOTHING)),
    # the change log: one tournament's, for its host
    Row("tournaments:tournament_log", day, same(HOST, NOTHING), checked=PRIVATE | {"b_log"}),
    Row(
        "tournaments:tournament_log",
        lambda w, p: {"pk": w.elsewhere.pk},
        same(("gast", "superuser"), frozenset({"b_log"})),
        matrix=False,  # club B's tournament
    ),
    Row("printing:print_seat_plan", round_1, same(HOST, NOTHING), format="pdf"),
    Row("printing:print_table_cards", round_1, same(HOST, NOTHING), format="pdf"),
    Row("printing:print_score_sheets", round_1, same(HOST, NOTHING), format="pdf"),
    Row("exports:standings_xlsx", day, same(HOST, NOTHING), format="xlsx"),
    Row("printing:print_standings", day, same(HOST, NOTHING), format="pdf"),
    Row("printing:print_prizes", day, same(HOST, NOTHING), format="pdf"),
    Row("seasons:season_standings", season, same(EVERYONE, NOTHING)),
    Row("seasons:season_projector", season, same(EVERYONE, NOTHING)),
    Row("seasons:season_press", season, same(HOST, NOTHING)),
    Row("seasons:tournament_press", day, same(HOST, NOTHING)),
    Row("seasons:season_statistics", season, same(EVERYONE, NOTHING)),
    Row("exports:season_standings_xlsx", season, same(HOST, NOTHING), format="xlsx"),
    # online sign-ups: what people typed into the public form, never the registry's data
    Row("signups:organiser_list", day, same(HOST, NOTHING)),
    Row("exports:signups_xlsx", day, same(HOST, NOTHING), format="xlsx"),
    Row("exports:signups_csv", day, same(HOST, NOTHING)),
    Row("printing:season_pdf", season, same(HOST, NOTHING), format="pdf"),
    Row("seasons:season_list", no_kwargs, same(MATRIX["seasons:season_list"].allowed, NOTHING)),
    Row("tournaments:home", no_kwargs, same(EVERYONE, NOTHING)),
    # the rating list: names and clubs as the public standings show them, nothing private
    Row("ratings:rating_list", no_kwargs, same(EVERYONE, NOTHING)),
)


def shows(text: str, mark: str) -> bool:
    """Whether ``mark`` is in ``text`` as itself, not inside a longer number or word: a birth
    year such as 1934 also turned up inside a timestamp's digits of a JSON archive, and 1931
    inside a player's id (hex: "…-a1931f…")."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(mark)}(?![0-9A-Za-z])", text) is not None


def text_of(response, format: str) -> str:  # noqa: A002
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if format == "xlsx":
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(body), read_only=True)
        return "\n".join(
            " ".join("" if value is None else str(value) for value in row)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
        )
    if format == "pdf":
        from pypdf import PdfReader

        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    return body.decode()


def row_id(row: Row) -> str:
    return f"{'POST ' if row.post else ''}{row.name}{'?' + row.query if row.query else ''}"


def test_every_list_search_and_export_has_a_content_row():
    """The inventory: every page that lists, searches or exports has at least one row."""
    listed = {row.name for row in CONTENTS}
    assert not listed - set(MATRIX), "content rows for URLs that no longer exist"
    inventory = {
        name
        for name in MATRIX
        if name.startswith(("exports:", "printing:player", "printing:season", "treasury:club"))
        or name.endswith(("_list", "_xlsx", "_pdf", "registration", "archive_download"))
    } - {"printing:tariff_card_pdf"}  # a rule source's card: no club's data at all
    assert not inventory - listed, "lists and exports without a content row"


def test_get_rows_agree_with_the_matrix():
    for row in CONTENTS:
        if row.post is None and row.matrix and "club=" not in row.query:
            assert set(row.sees) == set(MATRIX[row.name].allowed), row_id(row)


@pytest.mark.django_db
@pytest.mark.parametrize("row", CONTENTS, ids=row_id)
def test_what_each_persona_sees(world, row):
    if row.name in WEASYPRINT_URLS:
        require_weasyprint()  # the personas who see it get the PDF
    planted = plant(world)
    url = reverse(row.name, kwargs=row.kwargs(world, planted))
    if row.query:
        url += "?" + row.query.format(club_b=world.club_b.pk)
    problems = []
    for persona in PERSONAS:
        client = client_for(world, persona)
        data = row.post() if callable(row.post) else row.post
        response = client.post(url, data) if data is not None else client.get(url)
        if persona not in row.sees:
            if not refused(response, persona):
                problems.append(f"{persona}: {response.status_code}, not refused")
            continue
        if response.status_code != 200:
            problems.append(f"{persona}: {response.status_code}, wanted 200")
            continue
        text = text_of(response, row.format)
        shown = {mark for mark in row.marks if shows(text, MARKS[mark])}
        if shown != row.sees[persona]:
            problems.append(
                f"{persona}: leaks {sorted(shown - row.sees[persona])}, "
                f"misses {sorted(row.sees[persona] - shown)}"
            )
    assert not problems, f"{row_id(row)}:\n" + "\n".join(problems)


@pytest.mark.django_db
def test_registering_another_clubs_members_at_once_is_refused(world):
    """ "Register the club's active members" took any club: the host's organiser could put
    club B's whole member list on her tournament and read it off the entries; now only her
    own clubs' members (another club's guests she finds by name)."""
    plant(world)
    client = client_for(world, "organiser")
    url = reverse("tournaments:register_many", kwargs={"pk": world.day.pk})
    response = client.post(url, {"source": "club", "club": world.club_b.pk})
    assert response.status_code == 404
    assert not world.day.entries.filter(player__last_name=MARKS["b_name"]).exists()
    response = client_for(world, "superuser").post(url, {"source": "club", "club": world.club_b.pk})
    assert world.day.entries.filter(player__last_name=MARKS["b_name"]).exists()


@pytest.mark.django_db
def test_an_archive_upload_neither_reads_nor_adds_to_another_clubs_members(world):
    """An uploaded archive's player was matched by member number in any club: club B's
    organiser, naming "Xaver Unbekannt, CF A, A-4711", got club A's Anna Markeraa onto her
    tournament's standings (a member number read off as a name), and an unknown number made
    a new member of club A. Now numbers and memberships only in her own clubs; another
    club's guest is matched by name or entered without a club."""
    import json
    import uuid

    from tournaments.models import Tournament
    from tournaments.selectors.archive import tournament_archive

    planted = plant(world)
    archive = tournament_archive(tournament=world.day)  # the command line's: everything
    archive["archive_id"] = str(uuid.uuid4())
    archive["tournament"].update(name="Turnier B2", host_club="CC B", season=None)
    first, second = archive["players"][:2]
    anna = next(p for p in archive["players"] if p["member_number"] == MARKS["a_no"])
    anna.update(first_name="Xaver", last_name="Unbekannt")
    # someone new here: of club A (not hers), and of club B (hers: a new member)
    first.update(first_name="Neu", last_name="Gast", club="CF A", member_number="A-NEU")
    second.update(first_name="Neu", last_name="Mitglied", club="CC B", member_number="B-NEU")
    upload = io.BytesIO(json.dumps(archive).encode())
    upload.name = "archiv.json"
    gast = client_for(world, "gast")
    url = reverse("tournaments:archive_upload")
    preview = gast.post(url, {"file": upload})
    assert preview.status_code == 200, preview.content.decode()[:2000]
    # the preview matched nobody by club A's numbers either
    assert MARKS["a_no"] not in preview.content.decode()
    response = gast.post(
        url, {"content": preview.context["content"], "step": "confirm", "allow_unfinished": "1"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    copy_ = Tournament.objects.get(name="Turnier B2")
    assert not copy_.entries.filter(player=planted.a).exists()
    xaver = copy_.entries.get(player__last_name="Unbekannt").player
    assert not xaver.memberships.exists()
    assert not copy_.entries.get(player__last_name="Gast").player.memberships.exists()
    assert not Membership.objects.filter(member_number="A-NEU").exists()
    assert Membership.objects.filter(club=world.club_b, member_number="B-NEU").exists()


@pytest.mark.django_db
def test_a_referee_cannot_upload_an_archive_with_a_new_host_club(world):
    """A referee runs no club: an archive whose host club and season are new here created
    both (and the tournament, and its players) for her."""
    import json
    import uuid

    from clubs.models import Club
    from tournaments.models import Tournament
    from tournaments.selectors.archive import tournament_archive

    archive = tournament_archive(tournament=world.day)
    archive["archive_id"] = str(uuid.uuid4())
    archive["tournament"].update(name="Fremdes Turnier", host_club="NEU", season=None)
    archive["clubs"].append({"name": "Neuer Verein", "short_name": "NEU", "town": "X"})
    upload = io.BytesIO(json.dumps(archive).encode())
    upload.name = "archiv.json"
    response = client_for(world, "referee").post(
        reverse("tournaments:archive_upload"), {"file": upload}
    )
    assert response.status_code == 403
    assert not Tournament.objects.filter(name="Fremdes Turnier").exists()
    assert not Club.objects.filter(short_name="NEU").exists()
