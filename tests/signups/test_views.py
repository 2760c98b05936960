"""The pages: the public form (honeypot, bad input; the throttle in test_abuse.py), the personal status page, the
organisers' list and its downloads, and who may open it."""

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

from clubs.models import Club, ClubRole
from signups.models import Signup, SignupChange
from signups.selectors import email_code
from tests.signups.conftest import sign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()
    yield
    cache.clear()


def form_data(**extra):
    data = {
        "first_name": "Anna",
        "last_name": "Arnold",
        "club": "other",
        "club_text": "",
        "email": "anna@example.org",
        "consent": "on",
        "website": "",
    }
    data.update(extra)
    return data


def test_the_public_form_signs_up_and_leads_to_the_personal_link(client, tournament, open_sheet):
    url = reverse("signups:form", args=[tournament.pk])
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Frühjahrsturnier" in text and "anderer Verein / vereinslos" in text
    assert "2 von 2 Plätzen frei" in text and "Ich bin einverstanden" in text
    response = client.post(url, form_data(club=str(tournament.host_club_id)))
    assert response.status_code == 302
    signup = Signup.objects.get()
    assert signup.club == tournament.host_club and signup.status == "held"
    link = response["Location"]
    assert "/anmeldung/" in link and signup.token_hash not in link
    assert len(mail.outbox) == 1 and f"{link}?adresse=" in mail.outbox[0].body
    assert mail.outbox[0].subject == "Bitte bestätigen: Ihre Anmeldung zum Frühjahrsturnier"
    status = client.get(link)
    body = status.content.decode()
    assert "Sie sind angemeldet" in body and "Anna Arnold" in body
    assert "die Veranstalter bestätigen ihn noch" in body
    assert "noch nicht bestätigt" in body and "Bitte öffnen Sie den Link" in body


def test_the_status_page_cancels_and_moves_the_waiting_list(client, tournament, open_sheet):
    first = sign(tournament, "Anna", "Arnold")
    sign(tournament, "Bernd", "Baum")
    waiting = sign(tournament, "Carla", "Conrad", email="carla@example.org")
    confirmed = client.get(
        reverse("signups:status", args=[waiting.token]),
        {"adresse": email_code(signup=waiting.signup)},
        follow=True,
    )
    assert "Ihre E-Mail-Adresse ist bestätigt." in confirmed.content.decode()
    page = client.get(reverse("signups:status", args=[waiting.token])).content.decode()
    assert "Auf der Warteliste, an Stelle 1." in page
    url = reverse("signups:status", args=[first.token])
    client.post(url, {"action": "cancel"})  # without the tick: nothing
    assert Signup.objects.get(pk=first.signup.pk).status == "held"
    client.post(url, {"action": "cancel", "sure": "1"})
    assert Signup.objects.get(pk=first.signup.pk).status == "cancelled"
    assert Signup.objects.get(pk=waiting.signup.pk).status == "held"
    assert [m.to for m in mail.outbox] == [["carla@example.org"]]
    assert "Storniert." in client.get(url).content.decode()
    assert client.get(reverse("signups:status", args=["falsch"])).status_code == 404


def test_a_bot_filling_the_honeypot_gets_a_neutral_answer_and_nothing_is_stored(
    client, tournament, open_sheet
):
    response = client.post(
        reverse("signups:form", args=[tournament.pk]), form_data(website="http://spam.example")
    )
    assert response.status_code == 200
    assert "Vielen Dank" in response.content.decode()
    assert not Signup.objects.exists() and not SignupChange.objects.filter(signup__isnull=False)
    assert not mail.outbox


@pytest.mark.parametrize(
    "data, message",
    [
        ({"consent": ""}, "Bitte stimmen Sie der Verwendung Ihrer Daten zu"),
        ({"first_name": ""}, "Dieses Feld ist zwingend erforderlich"),
        ({"email": "nicht-gueltig"}, "E-Mail-Adresse"),
        ({"club": ""}, "Dieses Feld ist zwingend erforderlich"),
        ({"club": "999999"}, "Auswahl"),
    ],
)
def test_bad_input_is_answered_in_german_and_changes_nothing(
    client, tournament, open_sheet, data, message
):
    response = client.post(reverse("signups:form", args=[tournament.pk]), form_data(**data))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Signup.objects.exists()


def test_a_duplicate_is_refused_on_the_form(client, tournament, open_sheet):
    sign(tournament, "Anna", "Arnold")
    response = client.post(reverse("signups:form", args=[tournament.pk]), form_data())
    assert response.status_code == 200
    assert "bereits angemeldet" in response.content.decode()
    assert Signup.objects.count() == 1


def test_the_form_is_not_shown_while_sign_up_is_closed(client, tournament):
    page = client.get(reverse("signups:form", args=[tournament.pk])).content.decode()
    assert "nicht geöffnet" in page and 'name="first_name"' not in page
    client.post(reverse("signups:form", args=[tournament.pk]), form_data())
    assert not Signup.objects.exists()


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def test_the_organisers_list_confirms_moves_cancels_and_reaches_people(
    organiser_client, tournament, open_sheet
):
    client = organiser_client
    a = sign(tournament, "Anna", "Arnold", email="anna@example.org")
    sign(tournament, "Bernd", "Baum")
    c = sign(tournament, "Carla", "Conrad", email="carla@example.org")
    d = sign(tournament, "Dieter", "Dold")
    url = reverse("signups:organiser_list", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "mailto:?bcc=anna@example.org,carla@example.org" in page
    assert "Warteliste 1" in page and "Warteliste 2" in page
    action = reverse("signups:action", args=[tournament.pk, d.signup.pk])
    client.post(action, {"action": "up"})
    assert [
        s.last_name for s in Signup.objects.filter(status="waiting").order_by("queue", "pk")
    ] == ["Dold", "Conrad"]
    client.post(reverse("signups:action", args=[tournament.pk, a.signup.pk]), {"action": "confirm"})
    assert tournament.entries.get().player.last_name == "Arnold"
    client.post(url, {"action": "confirm_all"})
    assert tournament.entries.count() == 2
    client.post(reverse("signups:action", args=[tournament.pk, a.signup.pk]), {"action": "cancel"})
    assert Signup.objects.get(pk=d.signup.pk).status == "held"
    assert Signup.objects.get(pk=c.signup.pk).status == "waiting"
    log = client.get(url).content.decode()
    assert "von der Warteliste nachgerückt" in log and "orga" in log
    # settings: more seats move the list up
    client.post(url, {"is_open": "on", "capacity": "3", "closes_at": ""})
    assert Signup.objects.get(pk=c.signup.pk).status == "held"
    # bad settings change nothing
    response = client.post(url, {"is_open": "on", "capacity": "0"})
    assert response.status_code == 200
    tournament.signup_sheet.refresh_from_db()
    assert tournament.signup_sheet.capacity == 3


def test_the_organiser_edits_a_sign_up(organiser_client, tournament, open_sheet):
    a = sign(tournament, "Anna", "Arnlod")
    url = reverse("signups:edit", args=[tournament.pk, a.signup.pk])
    assert organiser_client.get(url).status_code == 200
    organiser_client.post(
        url,
        {"first_name": "Anna", "last_name": "Arnold", "club": "other", "club_text": "SV Wolf"},
    )
    a.signup.refresh_from_db()
    assert a.signup.last_name == "Arnold" and a.signup.club_text == "SV Wolf"


def test_the_downloads_hold_the_list(organiser_client, tournament, open_sheet):
    sign(tournament, "Anna", "Arnold", email="anna@example.org", club_text="=SUMME(A1)")
    sign(tournament, "Bernd", "Baum", category="senior")
    sign(tournament, "Carla", "Conrad")
    response = organiser_client.get(reverse("exports:signups_csv", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:4] == ["Nachname", "Vorname", "Verein", "Kategorie"]
    assert rows[1][:5] == ["Arnold", "Anna", "'=SUMME(A1)", "", "anna@example.org"]
    assert rows[2][3] == "Senior"
    assert rows[3][6] == "1"  # Conrad: first on the waiting list
    from openpyxl import load_workbook

    book = organiser_client.get(reverse("exports:signups_xlsx", args=[tournament.pk]))
    sheet = load_workbook(io.BytesIO(book.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[1][0] == "Arnold" and values[1][2] == "=SUMME(A1)" and len(values) == 4


@pytest.mark.parametrize("who", ["anonymous", "other_club", "referee_only"])
def test_only_the_tournaments_organisers_see_the_list(client, tournament, open_sheet, who):
    a = sign(tournament, "Anna", "Arnold", email="anna@example.org")
    if who != "anonymous":
        user = get_user_model().objects.create_user(who, "", "pw")
        if who == "other_club":
            other = Club.objects.create(name="Anderer", short_name="AN", town="X")
            ClubRole.objects.create(user=user, club=other)
        else:
            tournament.referees.add(user)
        client.force_login(user)
    for name, args in [
        ("signups:organiser_list", [tournament.pk]),
        ("signups:edit", [tournament.pk, a.signup.pk]),
        ("exports:signups_csv", [tournament.pk]),
        ("exports:signups_xlsx", [tournament.pk]),
    ]:
        response = client.get(reverse(name, args=args))
        assert response.status_code in (302, 403), (name, response.status_code)
        assert b"anna@example.org" not in response.content
    response = client.post(
        reverse("signups:action", args=[tournament.pk, a.signup.pk]), {"action": "cancel"}
    )
    assert response.status_code in (302, 403)
    assert Signup.objects.get().status == "held"
