"""Online pre-registration in a real browser at phone and laptop size: a person signs up on
the public form (the last seat, then the waiting list), finds their sign-up by the personal
link and cancels it (a guest of a club typed as text, with a category); the organiser confirms
and moves people on the list, sees which of them are guests and from where, and sets a
category in the list. Nothing wider than the screen."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, ClubRole
from signups.models import Signup
from signups.services import signups
from tests.factories import TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
FITS = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"


@pytest.fixture
def upcoming():
    host = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    tournament = TournamentFactory(
        host_club=host,
        name="Schwarzwälder Frühjahrsturnier",
        venue="Stadthalle Bräunlingen",
        date=timezone.localdate() + dt.timedelta(days=10),
    )
    signups.set_sheet(tournament=tournament, user=None, is_open=True, capacity=1, closes_at=None)
    return tournament


def submit(page, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def fill(
    page, first: str, last: str, *, email: str = "", club_text: str = "", category: str = ""
) -> None:
    page.fill("#id_first_name", first)
    page.fill("#id_last_name", last)
    if club_text:
        page.select_option("#id_club", label="anderer Verein / vereinslos")
        page.fill("#id_club_text", club_text)
    else:
        page.select_option("#id_club", label="Cegofreunde Bräunlingen")
    if category:
        page.select_option("#id_category", label=category)
    if email:
        page.fill("#id_email", email)
    page.check("#id_consent")
    submit(page, "form.signup-form button[type=submit]")


@pytest.mark.parametrize("size", list(SIZES))
def test_signing_up_and_cancelling_by_the_personal_link(browser, live_server, upcoming, size):
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    form = live_server.url + reverse("signups:form", args=[upcoming.pk])
    page.goto(form)
    assert page.evaluate(FITS)
    page.screenshot(path=f"/tmp/signup-form-{size}.png", full_page=True)
    assert page.is_hidden("#id_website")  # the honeypot: not for people
    submit(
        page, "form.signup-form button[type=submit]"
    )  # nothing filled in: German messages, nothing stored
    assert "Dieses Feld ist zwingend erforderlich" in page.content()
    assert not Signup.objects.exists()
    fill(page, "Anna", "Arnold", email="anna@example.org")
    assert "/anmeldung/" in page.url and "Sie sind angemeldet" in page.content()
    assert "die Veranstalter bestätigen ihn noch" in page.content()
    assert "Bitte öffnen Sie den Link in dieser E-Mail" in page.content()
    assert "noch nicht bestätigt" in page.inner_text(".signup-email")
    assert page.evaluate(FITS)
    link = page.url
    # The first mail: the name and the link that confirms the address (nothing else typed).
    (first_mail,) = mail.outbox
    confirm = re.search(r"http\S+\?adresse=\S+", first_mail.body).group(0)
    assert confirm.startswith(link)
    page.goto(confirm)
    assert page.url == link and "Ihre E-Mail-Adresse ist bestätigt." in page.content()
    assert page.inner_text(".signup-email") == "bestätigt"
    second = browser.new_page(viewport={"width": width, "height": height})
    second.goto(form)
    assert "Alle Plätze sind belegt" in second.content()
    # A guest of a club this server does not know, a senior: kept as typed, with the category.
    assert second.is_visible("#id_category")
    fill(second, "Bernd", "Baum", club_text="Cegofreunde St. Georgen", category="Senior")
    assert "Auf der Warteliste, an Stelle 1." in second.content()
    bernd = Signup.objects.get(last_name="Baum")
    assert (bernd.club_text, bernd.category) == ("Cegofreunde St. Georgen", "senior")
    # Anna cancels by her link: Bernd moves up.
    page.goto(link)
    page.check("input[name=sure]")
    submit(page, "form.signup-cancel button.warn")
    assert "Ihre Anmeldung ist storniert." in page.content() and "Storniert." in page.content()
    second.reload()
    assert "Sie haben einen Platz" in second.content()
    assert second.evaluate(FITS)
    page.close()
    second.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_throttled_sign_up_says_how_long_to_wait_and_who_can_enter_the_players(
    browser, live_server, upcoming, size, settings
):
    settings.SIGNUP_THROTTLE_NAMES = 1  # the second name from this address is one too many
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(live_server.url + reverse("signups:form", args=[upcoming.pk]))
    fill(page, "Anna", "Arnold")
    page.goto(live_server.url + reverse("signups:form", args=[upcoming.pk]))
    fill(page, "Bernd", "Baum")
    box = page.inner_text(".signup-throttled")
    assert "Bitte versuchen Sie es in 10 Minuten wieder." in box
    assert "Die Veranstalter (Cegofreunde Bräunlingen)" in box and "„Voranmeldung“" in box
    assert page.input_value("#id_last_name") == "Baum"  # kept for the next try
    assert page.evaluate(FITS)
    page.screenshot(path=f"/tmp/signup_throttled_{size}.png", full_page=True)
    assert Signup.objects.count() == 1
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_organisers_list(browser, live_server, upcoming, size):
    user = get_user_model().objects.create_user("orga", "", "pw")
    ClubRole.objects.create(user=user, club=upcoming.host_club)
    triberg = Club.objects.create(name="Cego-Club Triberg", short_name="CC Tr", town="Triberg")
    for first, last in [("Anna", "Arnold"), ("Bernd", "Baum"), ("Carla", "Conrad")]:
        signups.sign_up(
            tournament=upcoming,
            first_name=first,
            last_name=last,
            email=f"{first.lower()}@example.org",
            consent=True,
        )
    client = Client()
    client.force_login(user)
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("signups:organiser_list", args=[upcoming.pk]))
    assert page.evaluate(FITS)
    assert "anna@example.org, bernd@example.org, carla@example.org" in page.input_value(
        "#signup-emails"
    )
    carla = Signup.objects.get(last_name="Conrad")
    submit(page, f"#signup-{carla.pk} button[value=up]")
    waiting = Signup.objects.filter(status="waiting").order_by("queue", "pk")
    assert [s.last_name for s in waiting] == ["Conrad", "Baum"]
    anna = Signup.objects.get(last_name="Arnold")
    submit(page, f"#signup-{anna.pk} button[value=confirm]")
    assert "ist bestätigt und steht auf der Turnierliste" in page.content()
    assert upcoming.entries.get().player.last_name == "Arnold"
    page.fill("#id_capacity", "2")
    submit(page, "section.panel button.primary")
    assert "Conrad ist von der Warteliste nachgerückt" in page.content()
    assert page.evaluate(FITS)
    # Two guests with seats: one of Triberg (on this server), one of a club typed as text.
    page.fill("#id_capacity", "")
    submit(page, "section.panel button.primary")
    signups.sign_up(
        tournament=upcoming, first_name="Gerd", last_name="Gast", club=triberg, consent=True
    )
    signups.sign_up(
        tournament=upcoming,
        first_name="Frieda",
        last_name="Frei",
        club_text="Cegofreunde St. Georgen",
        category="woman",
        consent=True,
    )
    page.reload()
    guests = page.inner_text(".signup-guests")
    assert "Darunter 2 Gäste aus anderen Vereinen" in guests
    assert "Gerd Gast: CC Tr, mit diesem Verein gezeigt, ohne Mitgliedschaft" in guests
    assert "Frieda Frei: „Cegofreunde St. Georgen“, kein Verein auf diesem Server" in guests
    gerd = Signup.objects.get(last_name="Gast")
    assert "Gast, ohne Mitgliedschaft" in page.inner_text(f"#signup-{gerd.pk} .signup-club")
    # The category chosen in the list, saved, then every seat confirmed.
    page.select_option(f"#category-{gerd.pk}", label="Senior")
    submit(page, "button[form=signup-categories]")
    assert "1 Kategorie gespeichert." in page.content()
    assert page.evaluate(FITS)
    page.screenshot(path=f"/tmp/signup-list-{size}.png", full_page=True)
    submit(page, "form.inline-actions button.primary")
    text = page.content()
    assert "Anmeldungen bestätigt." in text
    assert "Gäste: Gerd Gast (CC Tr, ohne Mitgliedschaft); Frieda Frei („Cegofreunde" in text
    assert page.evaluate(FITS)
    page.screenshot(path=f"/tmp/signup-confirmed-{size}.png", full_page=True)
    frieda = Signup.objects.get(last_name="Frei").player
    assert (frieda.guest_club_name, frieda.category) == ("Cegofreunde St. Georgen", "woman")
    assert Signup.objects.get(last_name="Gast").player.category == "senior"
    context.close()
