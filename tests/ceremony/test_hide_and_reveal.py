"""Places hidden until the prize ceremony (ceremony/, tournaments/selectors/visibility.py):
every public page, JSON and PDF of the tournament, fetched as an outsider, holds none of the
hidden players' names or totals; the desk and the referees see them; "Siegerehrung starten"
shows them everywhere at once (also through the venue's front)."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ceremony import services
from ceremony.models import CeremonySettings
from tests.factories import SeasonFactory, TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.standings.conftest import cego
from tests.tournaments.standings.test_front import django_app, front, get  # noqa: F401
from tournaments.models import TournamentChange
from tournaments.selectors.standings import tournament_standings
from tournaments.services.phone_entry import enter_deal

pytestmark = pytest.mark.django_db

NAMES = [
    ("Quirin", "Zwetschgenbaum"),
    ("Walburga", "Kuckucksnest"),
    ("Eustach", "Hinterwaldner"),
    ("Kunigunde", "Mooshammer"),
    ("Pankraz", "Tannenzapf"),
    ("Rosalie", "Bienenstich"),
    ("Severin", "Ofenrohr"),
    ("Notburga", "Schwarzenbach"),
]


@pytest.fixture
def day():
    """A season tournament: two tables of four in round 1, every player with a distinct name
    and the declarers ahead."""
    tournament = TournamentFactory(season=SeasonFactory(scoring="sum"), deals_per_round=24)
    names = iter(NAMES)
    for number in (1, 2):
        table = seat_table(tournament=tournament, table_number=number)
        for seat in table.seats.select_related("entry__player"):
            first, last = next(names)
            player = seat.entry.player
            player.first_name, player.last_name = first, last
            player.save()
        enter_deal(table=table, number=1, inputs=cego(0, 45))
        enter_deal(table=table, number=2, inputs=cego(1, 50 + number * 5))
        enter_deal(table=table, number=3, inputs=cego(0, 60))
    return tournament


@pytest.fixture
def desk(day):
    return User.objects.create_superuser("desk", "", "pw")


def hidden_rows(tournament, top):
    rows = tournament_standings(tournament=tournament).rows
    return [row for row in rows if row.rank <= top]


def pdf_text(content: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def public_documents(client, tournament) -> dict[str, str]:
    """Every public page, JSON and PDF showing the tournament's standings, as text."""
    pk, season = tournament.pk, tournament.season_id
    urls = {
        "standings": reverse("tournaments:standings", args=[pk]),
        "standings live": reverse("tournaments:standings", args=[pk]) + "?partial=1",
        "projector": reverse("tournaments:projector", args=[pk]),
        "projector board": reverse("tournaments:projector", args=[pk]) + "?partial=1",
        "api tournament": reverse("api:tournament", args=[pk]),
        "api tournaments": reverse("api:tournaments"),
        "api season": reverse("api:season_standings", args=[season]),
        "api season statistics": reverse("api:season_statistics", args=[season]),
        "season": reverse("seasons:season_standings", args=[season]),
        "season statistics": reverse("seasons:season_statistics", args=[season]),
        "ratings": reverse("ratings:rating_list"),
        "home": reverse("tournaments:home"),
    }
    found = {}
    for label, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (label, response.status_code)
        body = response.content.decode()
        if label.startswith("api"):
            body = json.dumps(json.loads(body), ensure_ascii=False)
        found[label] = body
    return found


def names_in(text: str, rows) -> list[str]:
    return [row.last_name for row in rows if row.last_name in text]


def test_hidden_places_are_in_no_public_document_until_the_ceremony(day, desk):
    hidden = hidden_rows(day, 3)
    assert len(hidden) >= 3
    shown = [row for row in tournament_standings(tournament=day).rows if row not in hidden]
    services.set_hiding(tournament=day, user=desk, from_round=1, top=3)
    outsider = Client()
    documents = public_documents(outsider, day)
    for label, text in documents.items():
        assert names_in(text, hidden) == [], label
    # the places below stay public, with their totals
    assert names_in(documents["standings"], shown) == [row.last_name for row in shown]
    assert (
        "Places 1 to 3 are hidden" in documents["standings live"]
        or "Plätze 1 bis 3" in (documents["standings live"])
    )
    api = json.loads(outsider.get(reverse("api:tournament", args=[day.pk])).content)
    assert api["hidden"] == {"places": 3}
    assert {row["number"] for row in api["standings"]} == {row.number for row in shown}
    assert all(row["total"] is not None for row in api["standings"])
    # nobody's phone tells a hidden player's place or total
    for row in hidden:
        page = outsider.get(reverse("tournaments:my_seat", args=[day.pk, row.number]))
        text = page.content.decode()
        assert 'class="me-rank"' not in text and 'class="me-total"' not in text
    row = shown[0]
    page = outsider.get(reverse("tournaments:my_seat", args=[day.pk, row.number])).content.decode()
    assert re.search(rf'class="me-rank">\s*{row.rank}\b', page)
    # the season's stored results count nothing of the tournament yet
    season = json.loads(outsider.get(reverse("api:season_standings", args=[day.season_id])).content)
    assert json.dumps(season).count("Zwetschgenbaum") == 0
    # the printed list on the wall leaves them out; the desk's own copy has them
    client = Client()
    client.force_login(desk)
    wall = pdf_text(client.get(reverse("printing:print_standings", args=[day.pk])).content)
    assert names_in(wall, hidden) == []
    assert names_in(wall, shown) == [row.last_name for row in shown]
    own = client.get(reverse("printing:print_standings", args=[day.pk]) + "?complete=1")
    assert names_in(pdf_text(own.content), hidden) == [row.last_name for row in hidden]
    # the desk sees everything on the standings page
    desk_page = client.get(reverse("tournaments:standings", args=[day.pk])).content.decode()
    assert names_in(desk_page, hidden) == [row.last_name for row in hidden]
    # ... but the projector is the public's whoever opens it
    board = client.get(reverse("tournaments:projector", args=[day.pk])).content.decode()
    assert names_in(board, hidden) == []

    services.reveal(tournament=day, user=desk)
    documents = public_documents(outsider, day)
    for label in ("standings", "standings live", "projector", "api tournament", "season"):
        assert names_in(documents[label], hidden) == [row.last_name for row in hidden], label
    # logged: who hid and who revealed
    log = TournamentChange.objects.filter(tournament=day).order_by("pk")
    assert [change.subject for change in log][-2:] == [
        "prize ceremony: hidden places",
        "prize ceremony started",
    ]
    assert {change.changed_by for change in log.filter(subject__startswith="prize")} == {desk}
    assert CeremonySettings.objects.get(tournament=day).revealed_by == desk


def test_all_places_hidden_shows_no_row_and_no_side_ranking(day, desk):
    services.set_hiding(tournament=day, user=desk, from_round=1, top=None)
    everyone = tournament_standings(tournament=day).rows
    documents = public_documents(Client(), day)
    for label, text in documents.items():
        assert names_in(text, everyone) == [], label
    assert "Best woman" not in documents["standings"] and "Beste Frau" not in documents["standings"]


def test_nothing_is_hidden_before_the_round_named(day, desk):
    services.set_hiding(tournament=day, user=desk, from_round=2, top=3)
    hidden = hidden_rows(day, 3)
    text = Client().get(reverse("tournaments:standings", args=[day.pk])).content.decode()
    assert names_in(text, hidden) == [row.last_name for row in hidden]
    seat_table(tournament=day, round_number=2)  # round 2 drawn (the draw bumps the revision)
    from tournaments.services.revision import bump_revision

    bump_revision(tournament_id=day.pk)
    text = Client().get(reverse("tournaments:standings", args=[day.pk])).content.decode()
    assert names_in(text, hidden) == []


def test_a_referee_sees_the_hidden_places(day, django_user_model):
    services.set_hiding(tournament=day, user=None, from_round=1, top=3)
    referee = django_user_model.objects.create_user("ref", password="pw")
    day.referees.add(referee)
    client = Client()
    client.force_login(referee)
    text = client.get(reverse("tournaments:standings", args=[day.pk]) + "?partial=1")
    assert names_in(text.content.decode(), hidden_rows(day, 3)) != []


def test_the_venue_front_never_keeps_hidden_places_past_the_reveal(day, desk, front):  # noqa: F811
    services.set_hiding(tournament=day, user=desk, from_round=1, top=3)
    hidden = hidden_rows(day, 3)
    path = reverse("tournaments:standings", args=[day.pk])
    for query in ("", "partial=1"):
        status, _headers, body = get(front, path, query)
        assert status.startswith("200") and names_in(body, hidden) == []
        _status, _headers, body = get(front, path, query)  # answered from the front's store
        assert names_in(body, hidden) == []
    services.reveal(tournament=day, user=desk)
    for query in ("", "partial=1"):
        _status, _headers, body = get(front, path, query)
        assert names_in(body, hidden) == [row.last_name for row in hidden]
    board = reverse("tournaments:projector", args=[day.pk])
    _status, _headers, body = get(front, board, "partial=1")
    assert names_in(body, hidden) == [row.last_name for row in hidden]


def test_the_desk_form_sets_and_the_button_reveals(day, desk):
    client = Client()
    client.force_login(desk)
    url = reverse("ceremony:settings", args=[day.pk])
    answer = client.post(url, {"action": "save", "hide": "top", "top": "", "from_round": 1})
    assert answer.status_code == 200  # the form says what is missing
    assert not CeremonySettings.objects.filter(tournament=day, hide_from_round=1).exists()
    client.post(url, {"action": "save", "hide": "top", "top": 2, "from_round": 1})
    settings = CeremonySettings.objects.get(tournament=day)
    assert (settings.hide_from_round, settings.hide_top_n) == (1, 2)
    assert (
        names_in(
            Client().get(reverse("tournaments:projector", args=[day.pk])).content.decode(),
            hidden_rows(day, 2),
        )
        == []
    )
    client.post(url, {"action": "reveal"})
    settings.refresh_from_db()
    assert settings.revealed_at is not None
    page = client.get(url).content.decode()
    assert "hide_again" in page


def test_a_copy_on_the_season_server_hides_what_the_hall_hides(day, desk):
    """The hall's laptop publishes its tournament to the season server as archive items: the
    hiding travels in the tournament item, and so does the reveal."""
    from tests.seasons.test_archive_fairness import as_another_server, exported
    from tournaments.archive_format import archive_hash, parse_archive
    from tournaments.services.archive_write import import_tournament_archive

    plain = exported(day)
    assert "ceremony" not in plain["tournament"]  # nothing set: the hash stays as it was
    services.set_hiding(tournament=day, user=desk, from_round=1, top=3)
    hidden = hidden_rows(day, 3)
    archive = exported(day)
    assert archive["tournament"]["ceremony"] == {
        "hide_from_round": 1,
        "hide_top_n": 3,
        "revealed_at": None,
    }
    assert archive_hash(archive) != archive_hash(plain)
    parse_archive(json.dumps(archive))  # the format checks it
    copy_id = str(__import__("uuid").uuid4())
    copy_ = import_tournament_archive(data=as_another_server(archive, copy_id)).tournament
    page = Client().get(reverse("tournaments:standings", args=[copy_.pk])).content.decode()
    assert names_in(page, hidden) == []
    services.reveal(tournament=day, user=desk)
    import_tournament_archive(data=as_another_server(exported(day), copy_id))
    page = Client().get(reverse("tournaments:standings", args=[copy_.pk])).content.decode()
    assert names_in(page, hidden) == [row.last_name for row in hidden]
