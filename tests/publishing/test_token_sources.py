"""The publishing token never on a command line (the process list shows it to everyone on the
computer): from ``CEGO_PUBLISH_TOKEN``, ``--publish-token-file FILE`` or asked for; the old
options are refused with a German message saying what to use instead. And the pages: the
venue's tournament page says that every backup holds the token; the season server's token
page revokes one with one click (one POST form per live token, with CSRF)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from clubs.models import Club, ClubRole
from publishing.models import PublishToken
from publishing.server.services import issue_token, token_for
from tests.factories import TournamentFactory
from venue.tokens import TOKEN_VARIABLE, publish_token

pytestmark = pytest.mark.django_db


class Console(io.StringIO):
    def isatty(self) -> bool:
        return True


def never_asked(prompt: str) -> str:
    raise AssertionError("asked although the token was given")


def test_the_environment_comes_first_then_the_file_then_the_question(tmp_path):
    file = tmp_path / "token.txt"
    file.write_text("aus-der-datei\nzweite Zeile\n", encoding="utf-8")
    options = {"publish_token_file": str(file)}
    env = {TOKEN_VARIABLE: " aus-der-umgebung \n"}
    assert publish_token(options, environ=env, ask=never_asked) == "aus-der-umgebung"
    assert publish_token(options, environ={}, ask=never_asked) == "aus-der-datei"
    prompts = []
    asked = publish_token(
        {}, environ={}, stdin=Console(), ask=lambda p: prompts.append(p) or "getippt"
    )
    assert asked == "getippt" and "Schlüssel" in prompts[0]  # German prompt


def test_a_file_written_by_notepad_is_read_too(tmp_path):
    file = tmp_path / "token.txt"
    file.write_bytes("\ufeffmit-bom\r\n".encode())
    assert publish_token({"publish_token_file": str(file)}, environ={}) == "mit-bom"


@pytest.mark.parametrize(
    ("options", "env", "words"),
    [
        ({"old_token_option": "geheim"}, {}, "nicht mehr in die Befehlszeile"),
        ({}, {}, "Schlüssel zum Veröffentlichen fehlt"),
        ({"publish_token_file": "/nirgends/token.txt"}, {}, "kann nicht gelesen werden"),
        ({}, {TOKEN_VARIABLE: "zwei Wörter"}, "kein Schlüssel"),
        ({}, {TOKEN_VARIABLE: "x" * 101}, "höchstens 100 Zeichen"),
    ],
    ids=["old option", "nowhere, no console", "missing file", "spaces", "too long"],
)
def test_what_cannot_be_used_is_a_german_message(options, env, words):
    with pytest.raises(CommandError) as raised:
        publish_token(options, environ=env, stdin=io.StringIO(), ask=never_asked)
    message = str(raised.value)
    assert words in message, message
    if "Befehlszeile" in message or "fehlt" in message:
        assert TOKEN_VARIABLE in message and "--publish-token-file" in message
    assert "geheim" not in message


@pytest.mark.parametrize(
    "command",
    [
        ("publish", "--to", "https://saison.example.org", "--tournament", "1", "--token", "geheim"),
        ("publish", "--to", "https://saison.example.org", "--tournament", "1", "--publish-token", "geheim"),
        ("fetch_registry", "--from", "https://saison.example.org", "--token", "geheim"),
    ],
    ids=["publish --token", "publish --publish-token", "fetch_registry --token"],
)  # fmt: skip
def test_the_commands_refuse_a_token_on_the_command_line(command, monkeypatch):
    monkeypatch.setenv(TOKEN_VARIABLE, "aus-der-umgebung")  # even with the right way set
    with pytest.raises(CommandError, match="nicht mehr in die Befehlszeile"):
        call_command(*command)


def test_the_venue_refuses_publish_token_and_a_file_without_an_address(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "secret_key"))  # as manage.py sets
    with pytest.raises(CommandError) as raised:
        call_command("venue", "--publish-to", "https://saison.example.org", "--publish-token", "g")
    assert TOKEN_VARIABLE in str(raised.value) and "Prozessliste" in str(raised.value)
    with pytest.raises(CommandError, match="gehört zu --publish-to"):
        call_command("venue", "--publish-token-file", str(tmp_path / "t"))


def test_the_venue_page_says_that_every_backup_holds_the_token(client, django_user_model):
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    tournament = TournamentFactory(host_club=club)
    page = client.get(
        reverse("publishing:tournament_publication", kwargs={"pk": tournament.pk})
    ).content.decode()
    assert "in jeder Sicherung" in page and "widerrufen" in page


@pytest.fixture
def clubs(django_user_model):
    a = Club.objects.create(name="Cegofreunde A", short_name="CF A", town="A")
    b = Club.objects.create(name="Cegoclub B", short_name="CC B", town="B")
    organiser = django_user_model.objects.create_user("orga", "", "pw")
    ClubRole.objects.create(user=organiser, club=a)
    return a, b, organiser


def test_the_token_page_revokes_one_token_with_one_click(clubs):
    a, _b, organiser = clubs
    first, first_raw = issue_token(club=a, label="Laptop Halle")
    second, second_raw = issue_token(club=a, label="Laptop Kasse")
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    url = reverse("publishing:club_tokens", kwargs={"pk": a.pk})
    page = client.get(url).content.decode()
    forms = re.findall(r'<form method="post" class="inline-form">(.*?)</form>', page, re.S)
    assert len(forms) == 2  # one button per live token
    for form, token in zip(forms, (second, first), strict=True):  # newest first
        assert 'name="csrfmiddlewaretoken"' in form
        assert f'name="revoke" value="{token.pk}"' in form
    # Without the CSRF token: refused, nothing revoked.
    assert client.post(url, {"revoke": first.pk}).status_code == 403
    assert token_for(raw=first_raw) == first
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(url, {"revoke": first.pk, "csrfmiddlewaretoken": csrf})
    assert response.status_code == 302
    assert token_for(raw=first_raw) is None and token_for(raw=second_raw) == second  # only that one
    after = client.get(url).content.decode()
    assert after.count('name="revoke"') == 1 and "widerrufen" in after


def test_a_token_of_another_club_is_not_revoked_from_ones_own_page(clubs):
    a, b, organiser = clubs
    other, other_raw = issue_token(club=b)
    client = Client()
    client.force_login(organiser)
    own_page = reverse("publishing:club_tokens", kwargs={"pk": a.pk})
    assert client.post(own_page, {"revoke": other.pk}).status_code == 404
    other_page = reverse("publishing:club_tokens", kwargs={"pk": b.pk})
    assert client.post(other_page, {"revoke": other.pk}).status_code == 403
    assert (
        token_for(raw=other_raw) == other
        and not PublishToken.objects.filter(revoked_at__isnull=False).exists()
    )
