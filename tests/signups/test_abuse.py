"""The public form welcomes a club secretary and refuses abuse (issue 39, item 9).

- the throttle counts what abuse looks like (many different names, the same name again and
  again, sends at all), not a secretary signing up her members from one PC; its answer says
  how long to wait and that the organisers can enter the players themselves;
- any POST, empty or malformed, gets an answer, never a 500, under the throttle too;
- names are one line of letters: no line break, control character or web address;
- the first mail to an address carries no text the sender typed beyond the name, and
  nothing else goes there until its link was followed.
"""

from __future__ import annotations

import time

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse

from signups.models import Signup, SignupChange
from signups.names import has_control_character, looks_like_address
from signups.selectors import email_code
from signups.services import signups as services
from signups.services.signups import SignupError
from tests.signups.conftest import sign

pytestmark = pytest.mark.django_db

MEMBERS = [
    ("Anna", "Arnold"),
    ("Bernd", "Baum"),
    ("Carla", "Conrad"),
    ("Dieter", "Dold"),
    ("Erika", "Engler"),
    ("Franz", "Fehrenbach"),
    ("Gisela", "Grieshaber"),
    ("Hans-Peter", "Hummel"),
    ("Ida", "Imhof"),
    ("Josef", "Jäckle"),
]


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def unlimited(tournament, organiser):
    services.set_sheet(
        tournament=tournament, user=organiser, is_open=True, capacity=None, closes_at=None
    )
    return tournament


def form_data(first="Anna", last="Arnold", **extra):
    data = {
        "first_name": first,
        "last_name": last,
        "club": "other",
        "club_text": "",
        "email": "",
        "consent": "on",
        "website": "",
    }
    data.update(extra)
    return data


def url_of(tournament):
    return reverse("signups:form", args=[tournament.pk])


# --- the throttle ----------------------------------------------------------------------


def test_a_secretary_signs_up_ten_members_from_one_pc_with_a_correction_each(client, unlimited):
    url = url_of(unlimited)
    for first, last in MEMBERS:
        forgot = client.post(url, form_data(first, last, consent=""))  # forgot the tick
        assert forgot.status_code == 200 and "Bitte stimmen Sie" in forgot.content.decode()
        done = client.post(url, form_data(first, last, email="sekretaerin@example.org"))
        assert done.status_code == 302, (first, last)
    assert Signup.objects.count() == 10
    assert len(mail.outbox) == 10  # each member's own link, to her address


def test_many_different_names_from_one_address_are_refused_naming_the_wait_and_the_organisers(
    client, unlimited, settings
):
    assert settings.SIGNUP_THROTTLE_NAMES == 30 and settings.SIGNUP_THROTTLE_SECONDS == 600
    url = url_of(unlimited)
    for number in range(30):  # a clubhouse behind one router: thirty people pass
        assert client.post(url, form_data("Spieler", f"Nummer{number}")).status_code == 302
    refused = client.post(url, form_data("Spieler", "Nummer31"))
    assert refused.status_code == 429
    assert refused["Retry-After"] in {"599", "600"}
    text = refused.content.decode()
    assert "Zu viele Anmeldungen von Ihrem Anschluss" in text
    assert "Bitte versuchen Sie es in 10 Minuten wieder." in text
    assert "Die Veranstalter (Cegofreunde Bräunlingen)" in text and "„Voranmeldung“" in text
    assert 'value="Nummer31"' in text  # what was typed stays in the form for later
    assert Signup.objects.count() == 30
    # A name counted already may still be sent again (here: answered as signed up already).
    again = client.post(url, form_data("Spieler", "Nummer3"))
    assert again.status_code == 200 and "bereits angemeldet" in again.content.decode()
    other = client.post(url, form_data("Spieler", "Nummer32"), REMOTE_ADDR="192.0.2.9")
    assert other.status_code == 302  # another address counts on its own


def test_the_wait_is_what_is_left_of_the_window_and_after_it_the_form_takes_names_again(
    client, unlimited, settings, monkeypatch
):
    settings.SIGNUP_THROTTLE_NAMES = 2
    url = url_of(unlimited)
    start = time.time()
    monkeypatch.setattr(time, "time", lambda: start)
    client.post(url, form_data("Anna", "Arnold"))
    client.post(url, form_data("Bernd", "Baum"))
    monkeypatch.setattr(time, "time", lambda: start + 7 * 60 + 5)
    refused = client.post(url, form_data("Carla", "Conrad"))
    assert refused.status_code == 429
    assert "in 3 Minuten wieder" in refused.content.decode()
    monkeypatch.setattr(time, "time", lambda: start + 9 * 60 + 30)
    assert "in 1 Minute wieder" in client.post(url, form_data("Carla", "Conrad")).content.decode()
    monkeypatch.setattr(time, "time", lambda: start + 10 * 60 + 1)
    assert client.post(url, form_data("Carla", "Conrad")).status_code == 302


def test_the_same_name_sent_again_and_again_is_refused(client, unlimited, settings):
    assert settings.SIGNUP_THROTTLE_SAME_NAME == 5
    url = url_of(unlimited)
    for _try in range(5):  # a person correcting the form, with a double click to spare
        assert client.post(url, form_data("Anna", "Arnold", consent="")).status_code == 200
    refused = client.post(url, form_data("Anna", "Arnold"))
    assert refused.status_code == 429 and "Zu viele Anmeldungen" in refused.content.decode()
    # "Mueller" is "Müller": the same name however it is spelt.
    assert client.post(url, form_data("anna", "ARNOLD")).status_code == 429
    assert not Signup.objects.exists()


def test_an_organiser_who_is_throttled_gets_a_link_to_the_registration(
    client, unlimited, organiser, settings
):
    settings.SIGNUP_THROTTLE_NAMES = 1
    url = url_of(unlimited)
    client.post(url, form_data("Anna", "Arnold"))
    stranger = client.post(url, form_data("Bernd", "Baum")).content.decode()
    registration = reverse("tournaments:registration", args=[unlimited.pk])
    assert registration not in stranger  # a visitor is told to send the names, not linked
    client.force_login(organiser)
    page = client.post(url, form_data("Bernd", "Baum"))
    assert page.status_code == 429
    assert f'href="{registration}"' in page.content.decode()


# --- any POST gets an answer -----------------------------------------------------------


def test_an_empty_post_is_answered_with_the_fields_messages(client, unlimited):
    answer = client.post(url_of(unlimited), {})
    assert answer.status_code == 200
    assert "Dieses Feld ist zwingend erforderlich" in answer.content.decode()
    assert not Signup.objects.exists()


def test_an_empty_post_under_the_throttle_gets_a_429_with_the_wait_not_a_500(
    client, unlimited, settings
):
    settings.SIGNUP_THROTTLE_POSTS = 5
    url = url_of(unlimited)
    for first, last in MEMBERS[:5]:
        assert client.post(url, form_data(first, last, consent="")).status_code == 200
    throttled = client.post(url, {})
    assert throttled.status_code == 429
    assert "Bitte versuchen Sie es in 10 Minuten wieder." in throttled.content.decode()
    assert not Signup.objects.exists()


@pytest.mark.parametrize(
    "body, content_type",
    [
        (b'{"first_name": "Anna"}', "application/json"),
        (b"\xff\xfe\x00garbage", "application/x-www-form-urlencoded"),
        (b"--x\r\nnot a part", "multipart/form-data; boundary=x"),
        (b"first_name=Anna", "multipart/form-data"),  # no boundary
        (b"first_name=" + b"A" * 5000 + b"&last_name=%00", "application/x-www-form-urlencoded"),
        (
            b"first_name=Anna&first_name=Bernd&consent=on&consent=off",
            "application/x-www-form-urlencoded",
        ),
    ],
)
def test_a_malformed_post_is_answered_without_a_500(client, unlimited, body, content_type):
    client.raise_request_exception = False
    answer = client.generic("POST", url_of(unlimited), body, content_type=content_type)
    assert answer.status_code in (200, 400, 429)
    assert not Signup.objects.exists()


# --- names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, last, message",
    [
        ("Anna", "Arnold\nBesuchen Sie uns", "Ein Name ist eine Zeile"),
        ("Anna\r\nX", "Arnold", "Ein Name ist eine Zeile"),
        ("Anna\tMaria", "Arnold", "Ein Name ist eine Zeile"),
        ("Anna", "Arn\x1bold", "Ein Name ist eine Zeile"),
        ("Anna", "Arnold\u2028Zeile", "Ein Name ist eine Zeile"),  # the line separator
        ("Anna", "\u202eArnold", "Ein Name ist eine Zeile"),  # right-to-left override
        ("An\u200bna", "Arnold", "Ein Name ist eine Zeile"),  # zero-width space
        ("Anna", "http://spam.example", "keine Web- oder E-Mail-Adresse"),
        ("Anna", "www.billig-kaufen.de", "keine Web- oder E-Mail-Adresse"),
        ("Kauft bei spam.de", "Arnold", "keine Web- oder E-Mail-Adresse"),
        ("Anna", "anna@example.org", "keine Web- oder E-Mail-Adresse"),
        ("Anna", "Dr.Arnold", "nach einem Punkt bitte ein Leerzeichen"),
    ],
)
def test_a_name_with_a_line_break_control_character_or_address_is_refused_in_german(
    client, unlimited, first, last, message
):
    answer = client.post(url_of(unlimited), form_data(first, last, email="opfer@example.org"))
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not Signup.objects.exists() and not mail.outbox


@pytest.mark.parametrize(
    "first, last",
    [
        ("Hans-Peter", "Müller-Lüdenscheidt"),
        ("J. R.", "Ewing"),
        ("Dr. Hans", "St. Georgen"),
        ("Seán", "O'Neill"),
        ("Anne Marie", "de la Fontaine"),
        ("Zoë", "Ağaoğlu"),
    ],
)
def test_names_as_people_write_them_pass(client, unlimited, first, last):
    assert client.post(url_of(unlimited), form_data(first, last)).status_code == 302
    assert Signup.objects.get().last_name == last


def test_the_name_rules_apply_to_the_organisers_edit_too(tournament, unlimited, organiser):
    done = sign(tournament, "Anna", "Arnold")
    with pytest.raises(SignupError) as refused:
        services.edit(
            signup=done.signup,
            user=organiser,
            first_name="Anna",
            last_name="Arnold\nZweite Zeile",
            club=None,
            club_text="",
            email="",
        )
    assert "Ein Name ist eine Zeile" in str(refused.value.message_dict["last_name"])


def test_the_pure_name_checks():
    assert not has_control_character("Hans-Peter Müller")
    assert not has_control_character("Anna\u00a0Arnold")  # a no-break space is a space
    assert has_control_character("Anna\x00") and has_control_character("A\u00adnna")
    for address in ("spam.de", "t.co/x", "a.b.cd", "x://y", "n@m", "WWW.SPAM.COM"):
        assert looks_like_address(address), address
    for name in ("J. R.", "J.R.", "Dr. Hans", "St. Georgen", "O'Neill", "Hans-Peter"):
        assert not looks_like_address(name), name


# --- the first mail and the confirmation ------------------------------------------------


def _without(body: str, *parts: str) -> str:
    for part in parts:
        assert part in body
        body = body.replace(part, "<>")
    return body


def test_the_first_mail_carries_no_text_the_sender_typed_beyond_the_name(
    client, tournament, open_sheet
):
    services.set_sheet(tournament=tournament, user=None, is_open=True, capacity=1, closes_at=None)
    url = url_of(tournament)
    seat = client.post(
        url,
        form_data(
            "Anna",
            "Arnold",
            club_text="Billige Uhren bei Spam und Co",
            email="opfer@example.org",
        ),
    )
    waiting = client.post(
        url,
        form_data("Bernd", "Baum", club=str(tournament.host_club_id), email="b@example.org"),
    )
    assert seat.status_code == waiting.status_code == 302
    first, second = mail.outbox
    assert first.to == ["opfer@example.org"]
    assert "Spam" not in first.body and "Uhren" not in first.body
    assert "Warteliste" not in second.body  # the seat or the place: on the page, not here
    assert first.subject == "Bitte bestätigen: Ihre Anmeldung zum Frühjahrsturnier"
    # Beyond the name and the link the two mails say the same, word for word: nothing the
    # sender typed (club, club text, address) nor what they got changes the text.
    anna, bernd = Signup.objects.order_by("pk")
    assert anna.status == "held" and bernd.status == "waiting"
    body_a = _without(first.body, "Anna Arnold", seat["Location"], email_code(signup=anna))
    body_b = _without(second.body, "Bernd Baum", waiting["Location"], email_code(signup=bernd))
    assert body_a == body_b


def test_following_the_mails_link_confirms_the_address_and_only_then_a_seat_coming_free_is_mailed(
    client, tournament, open_sheet
):
    sign(tournament, "Anna", "Arnold")
    sign(tournament, "Bernd", "Baum")
    unconfirmed = sign(tournament, "Carla", "Conrad", email="carla@example.org")
    confirmed = sign(tournament, "Dieter", "Dold", email="dieter@example.org")
    personal = reverse("signups:status", args=[confirmed.token])
    client.get(personal)  # the personal link alone (shown on the page) confirms nothing
    client.get(personal, {"adresse": "0" * 32})  # nor a wrong code
    assert Signup.objects.get(pk=confirmed.signup.pk).email_confirmed_at is None
    answer = client.get(personal, {"adresse": email_code(signup=confirmed.signup)})
    assert answer.status_code == 302 and answer["Location"] == personal
    assert Signup.objects.get(pk=confirmed.signup.pk).email_confirmed_at is not None
    logged = SignupChange.objects.get(signup=confirmed.signup, action="edited")
    assert logged.note == "E-Mail-Adresse bestätigt" and "E-Mail" in logged.actor
    assert "E-Mail</dt><dd" in client.get(personal).content.decode().replace("\n", "")
    services.set_sheet(tournament=tournament, user=None, is_open=True, capacity=4, closes_at=None)
    assert Signup.objects.get(pk=unconfirmed.signup.pk).status == "held"
    assert [m.to for m in mail.outbox] == [["dieter@example.org"]]  # not Carla's: unconfirmed


def test_an_address_the_organiser_changes_needs_no_code_and_the_old_code_stops_fitting(
    tournament, open_sheet, organiser
):
    done = sign(tournament, "Anna", "Arnold", email="anna@example.org")
    old_code = email_code(signup=done.signup)
    services.edit(
        signup=done.signup,
        user=organiser,
        first_name="Anna",
        last_name="Arnold",
        club=None,
        club_text="",
        email="anna.arnold@example.org",
    )
    edited = Signup.objects.get(pk=done.signup.pk)
    assert edited.email_confirmed_at is not None  # the organiser answers for it (logged)
    with pytest.raises(SignupError, match="passt nicht"):
        services.confirm_email(signup=edited, code=old_code)
    services.cancel(signup=edited, by_link=True)
    cancelled = Signup.objects.get(pk=done.signup.pk)
    assert cancelled.email == "" and cancelled.email_confirmed_at is None


def test_a_confirmed_address_needs_an_address_in_the_database(tournament, open_sheet):
    done = sign(tournament, "Anna", "Arnold")
    with pytest.raises(IntegrityError), transaction.atomic():
        Signup.objects.filter(pk=done.signup.pk).update(email_confirmed_at=done.signup.consent_at)


def test_one_address_gets_at_most_so_many_first_mails_a_day(client, unlimited, settings):
    settings.SIGNUP_MAILS_PER_ADDRESS = 2
    url = url_of(unlimited)
    for first, last in MEMBERS[:3]:
        answer = client.post(url, form_data(first, last, email="Opfer@Example.org"), follow=True)
        assert answer.status_code == 200
    assert len(mail.outbox) == 2
    assert "Diesmal ging keine E-Mail an Ihre Adresse" in answer.content.decode()
    assert Signup.objects.count() == 3  # signed up all the same, with the link on the page
