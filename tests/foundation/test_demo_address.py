"""``load_demo`` prints the address the server really uses (the one ``make run`` gives
runserver, else PUBLIC_BASE_URL, else runserver's default)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import override_settings

from tests.conftest import rows_for_the_module


@pytest.fixture(scope="module")
def module_demo(request, django_db_setup, django_db_blocker):
    # Loaded once for the module; each test loads it again, which finds it there (as a
    # second `make run` does) and prints the address all the same.
    with rows_for_the_module(request, django_db_blocker):
        call_command("load_demo", stdout=io.StringIO())
        yield


@pytest.mark.parametrize(
    ("address", "public", "printed"),
    [
        ("127.0.0.1:8600", "", "http://127.0.0.1:8600/"),
        ("8601", "", "http://127.0.0.1:8601/"),
        ("", "https://cego.example", "https://cego.example/"),
        ("", "", "http://127.0.0.1:8000/"),
    ],
)
def test_load_demo_prints_the_address_the_server_uses(module_demo, db, address, public, printed):
    out = io.StringIO()
    with override_settings(PUBLIC_BASE_URL=public):
        call_command("load_demo", "--address", address, stdout=out)
    assert f"at {printed}" in out.getvalue()
