"""``manage.py runserver`` on a database without accounts prints the first-time setup's
address (and, when others can reach it, the one-time code) before it serves."""

import io

import pytest
from django.conf import settings
from django.core.management import load_command_class
from django.utils import translation
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as WhiteNoiseRunserver,
)

from clubs.models import FirstRun
from clubs.services.setup import format_code


def started(monkeypatch, addr: str) -> str:
    served = []
    monkeypatch.setattr(WhiteNoiseRunserver, "inner_run", lambda self, *a, **o: served.append(1))
    command = load_command_class("cego_club", "runserver")
    command.stdout = io.StringIO()
    command.addr, command.port, command._raw_ipv6, command.protocol = addr, "8000", False, "http"
    # As execute() would: a command speaks the site's language (German), whatever an earlier
    # test left active.
    with translation.override(settings.LANGUAGE_CODE):
        command.inner_run()
    assert served == [1]  # and then it serves as before
    return command.stdout.getvalue()


@pytest.mark.django_db
def test_on_this_computer_only_the_address(monkeypatch):
    text = started(monkeypatch, "127.0.0.1")
    assert "http://127.0.0.1:8000/setup/" in text and "Code" not in text


@pytest.mark.django_db
def test_on_every_network_the_code_too(monkeypatch):
    monkeypatch.setattr(
        "cego_club.management.commands.runserver.lan_address", lambda: "192.168.1.20"
    )
    text = started(monkeypatch, "0")
    code = format_code(code=FirstRun.objects.get().code)
    assert "http://localhost:8000/setup/" in text
    assert f"http://192.168.1.20:8000/setup/  mit dem Code  {code}" in text


@pytest.mark.django_db
def test_silent_once_an_account_exists(monkeypatch, django_user_model):
    django_user_model.objects.create_user("anna", password="x")
    assert started(monkeypatch, "127.0.0.1") == ""
