"""The first run of a new installation: the service (one claim wins, bad input writes
nothing, the one-time code) and the ``/setup/`` page (the laptop itself, another device with
and without the code, gone once an account exists), and where the app points to it."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from clubs.models import Club, ClubRole, FirstRun, Membership, Player
from clubs.services import setup

PASSWORD = "Kartenspiel-2026"
CLAIM = {
    "username": "anna",
    "password": PASSWORD,
    "club_name": "Cegofreunde Bräunlingen",
    "club_short_name": "CF Bräunlingen",
    "club_town": "Bräunlingen",
}
FORM = {**CLAIM, "password_again": PASSWORD}
LAN = "192.168.1.50"


def written() -> tuple[int, int, int]:
    return (get_user_model().objects.count(), Club.objects.count(), ClubRole.objects.count())


# --- the service ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_first_account_runs_its_club_and_is_recorded():
    code = setup.issue_setup_code()
    user = setup.claim_first_run(**CLAIM, code=code.lower().replace("-", " "), address=LAN)
    club = Club.objects.get()
    assert (club.name, club.short_name, club.town) == (
        "Cegofreunde Bräunlingen",
        "CF Bräunlingen",
        "Bräunlingen",
    )
    assert ClubRole.objects.filter(user=user, club=club, role="organiser").exists()
    # The installation's only account: it gives the next ones their accounts (admin).
    assert user.is_superuser and user.is_staff and user.check_password(PASSWORD)
    record = FirstRun.objects.get()
    assert (record.claimed_by, record.via, record.claimed_from) == (user, "code", LAN)
    assert record.claimed_at is not None and record.code == ""  # the code is used up


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"password": "123"}, "password"),
        ({"password": "anna"}, "password"),  # too like the user name (and too short)
        ({"username": ""}, "username"),
        ({"username": "anna maria"}, "username"),
        ({"club_name": " "}, "club_name"),
        ({"club_short_name": "CFB"}, "club_short_name"),  # taken by a club from an archive
        ({"club_town": ""}, "club_town"),
    ],
)
def test_bad_input_is_named_and_writes_nothing(change, field):
    # A club can exist before any account (a tournament archive imported on the command line).
    Club.objects.create(name="Cegoclub Furtwangen", short_name="CFB", town="Furtwangen")
    before = written()
    with pytest.raises(ValidationError) as raised:
        setup.claim_first_run(**{**CLAIM, **change}, code=None)
    assert field in raised.value.message_dict
    assert written() == before
    assert not FirstRun.objects.filter(claimed_at__isnull=False).exists()


@pytest.mark.django_db
def test_no_claim_once_an_account_exists(django_user_model):
    django_user_model.objects.create_user("schon-da", password=PASSWORD)
    before = written()
    with pytest.raises(setup.SetupClosed):
        setup.claim_first_run(**CLAIM, code=None)
    assert setup.issue_setup_code() is None
    assert written() == before


@pytest.mark.django_db
def test_a_later_organiser_is_no_superuser_and_runs_the_chosen_club(django_user_model):
    first = setup.claim_first_run(**CLAIM, code=None)
    club = Club.objects.get()
    second = setup.create_organiser(username="berta", password=PASSWORD, club=club)
    assert not second.is_superuser
    assert list(ClubRole.objects.filter(user=second).values_list("club", flat=True)) == [club.pk]
    assert FirstRun.objects.get().claimed_by == first  # the record stays the first run's
    with pytest.raises(ValidationError) as raised:
        setup.create_organiser(username="BERTA", password=PASSWORD, club=club)
    assert "username" in raised.value.message_dict


@pytest.mark.django_db
def test_the_code_counts_wrong_tries_and_dies_after_too_many():
    code = setup.issue_setup_code()
    assert len(code) == 9 and code[4] == "-"
    assert setup.issue_setup_code() == code  # shown again, not changed
    with pytest.raises(ValidationError) as raised:
        setup.check_setup_code(code="WRONG-ONE")
    assert "code" in raised.value.message_dict
    assert FirstRun.objects.get().wrong_codes == 1  # counted though the claim failed
    for _try in range(setup.MAX_WRONG_CODES - 1):
        with pytest.raises(ValidationError):
            setup.check_setup_code(code="AAAA-AAAA" if code != "AAAA-AAAA" else "BBBB-BBBB")
    with pytest.raises(ValidationError) as raised:
        setup.check_setup_code(code=code)  # even the right one: the code is void
    assert "gilt nicht mehr" in " ".join(raised.value.messages)
    with pytest.raises(ValidationError):
        setup.claim_first_run(**CLAIM, code=code)
    assert written() == (0, 0, 0)
    fresh = setup.issue_setup_code()  # a server starting prints a new one
    assert fresh != code
    setup.check_setup_code(code=fresh)


@pytest.mark.django_db
def test_a_server_start_renews_the_code():
    old = setup.issue_setup_code()
    new = setup.issue_setup_code(renew=True)
    with pytest.raises(ValidationError):
        setup.check_setup_code(code=old if old != new else "ZZZZ-ZZZZ")
    setup.check_setup_code(code=new)


@pytest.mark.django_db(transaction=True)
def test_of_two_browsers_claiming_at_once_one_wins():
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(":memory"):
        pytest.skip("threads need a database file")
    barrier = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def claim(name: str) -> None:
        from django.db import connections

        try:
            barrier.wait()
            outcomes[name] = setup.claim_first_run(
                **{**CLAIM, "username": name, "club_short_name": name.upper(), "club_name": name},
                code=None,
            )
        except Exception as error:  # noqa: BLE001 - the test reports what each thread met
            outcomes[name] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=claim, args=(name,)) for name in ("anna", "bernd")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [name for name, outcome in outcomes.items() if not isinstance(outcome, Exception)]
    losers = [outcome for outcome in outcomes.values() if isinstance(outcome, Exception)]
    assert len(winners) == 1, outcomes
    assert len(losers) == 1 and isinstance(losers[0], setup.SetupClosed), outcomes
    assert list(get_user_model().objects.values_list("username", flat=True)) == winners
    assert Club.objects.count() == 1 and ClubRole.objects.count() == 1


# --- the page ------------------------------------------------------------------------------


@pytest.fixture
def setup_url():
    return reverse("clubs:first_run")


@pytest.mark.django_db
def test_on_the_laptop_no_code_is_asked_and_the_organiser_lands_on_the_next_steps(
    client, setup_url
):
    page = client.get(setup_url)  # the test client comes from 127.0.0.1
    assert page.status_code == 200
    assert "Erste Einrichtung" in page.content.decode() and "id_code" not in page.content.decode()
    response = client.post(setup_url, FORM, follow=True)
    assert response.redirect_chain[-1][0] == reverse("tournaments:home")
    home = response.content.decode()
    assert "Mitgliederliste importieren" in home and "Neues Turnier" in home
    assert "Noch keine Turniere" not in home  # the next step instead of an empty list
    user = get_user_model().objects.get()
    assert response.wsgi_request.user == user
    assert FirstRun.objects.get().via == "laptop"
    # The new tournament's form: the club the account runs is chosen already.
    form = client.get(reverse("tournaments:tournament_create")).content.decode()
    club = Club.objects.get()
    assert f'<option value="{club.pk}" selected>' in form


@pytest.mark.django_db
def test_another_device_needs_the_code(client, setup_url):
    code = setup.issue_setup_code(renew=True)
    page = client.get(setup_url, REMOTE_ADDR=LAN)
    assert page.status_code == 200 and 'name="code"' in page.content.decode()
    # Without the code, or with a wrong one: the form again, nothing created.
    for typed in ("", "ABCD-EFGH" if code != "ABCD-EFGH" else "HGFE-DCBA"):
        response = client.post(setup_url, {**FORM, "code": typed}, REMOTE_ADDR=LAN)
        assert response.status_code == 200
        assert written() == (0, 0, 0)
    assert "nicht der Code" in response.content.decode()
    response = client.post(setup_url, {**FORM, "code": code}, REMOTE_ADDR=LAN)
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:home")
    record = FirstRun.objects.get()
    assert (record.via, record.claimed_from) == ("code", LAN)


@pytest.mark.django_db
def test_behind_a_proxy_on_the_laptop_the_client_counts(client, setup_url, settings):
    # Caddy on the same machine: REMOTE_ADDR is loopback, the client is someone else.
    settings.TRUSTED_PROXY_COUNT = 1
    setup.issue_setup_code()
    response = client.post(
        setup_url, FORM, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    assert response.status_code == 200 and 'name="code"' in response.content.decode()
    assert written() == (0, 0, 0)


@pytest.mark.django_db
def test_a_proxy_the_settings_do_not_name_is_not_the_laptop(client, setup_url, settings):
    # TRUSTED_PROXY_COUNT forgotten on a club server: Caddy's loopback address must not
    # let the internet in without the code.
    settings.TRUSTED_PROXY_COUNT = 0
    setup.issue_setup_code()
    response = client.post(
        setup_url, FORM, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    assert response.status_code == 200 and 'name="code"' in response.content.decode()
    assert written() == (0, 0, 0)


@pytest.mark.django_db
def test_two_passwords_must_match(client, setup_url):
    response = client.post(setup_url, {**FORM, "password_again": "anders-2026"})
    assert "Passwörter sind verschieden" in response.content.decode()
    assert written() == (0, 0, 0)


@pytest.mark.django_db
def test_the_page_is_gone_once_an_account_exists(client, setup_url, django_user_model):
    django_user_model.objects.create_user("schon-da", password=PASSWORD)
    response = client.get(setup_url)
    assert response.status_code == 302 and response["Location"] == reverse("login")
    before = written()
    response = client.post(setup_url, FORM)
    assert response.status_code == 302 and written() == before
    client.force_login(django_user_model.objects.get())
    assert client.get(setup_url)["Location"] == reverse("tournaments:home")


@pytest.mark.django_db
def test_home_and_login_point_to_the_setup_only_while_nobody_has_an_account(
    client, django_user_model
):
    setup_url = reverse("clubs:first_run")
    for url in (reverse("tournaments:home"), reverse("login")):
        page = client.get(url).content.decode()
        assert "Erste Einrichtung" in page and f'href="{setup_url}"' in page
    django_user_model.objects.create_user("schon-da", password=PASSWORD)
    for url in (reverse("tournaments:home"), reverse("login")):
        assert setup_url not in client.get(url).content.decode()


@pytest.mark.django_db
def test_an_organiser_with_players_but_no_tournament_is_shown_the_tournament_step(
    client, django_user_model
):
    user = setup.claim_first_run(**CLAIM, code=None)
    Membership.objects.create(
        player=Player.objects.create(first_name="Hans", last_name="Müller"),
        club=Club.objects.get(),
    )
    client.force_login(user)
    home = client.get(reverse("tournaments:home")).content.decode()
    assert "Spieler sind in der Spielerliste" in home
    assert f'href="{reverse("tournaments:tournament_create")}"' in home
    assert f'class="button" href="{reverse("clubs:player_import")}"' not in home
