"""Rows shared by a module's tests (tests/conftest.py ``rows_for_the_module``): every test
meets them as they were made, whatever the tests before it changed, and none of them is left
for the next module."""

from __future__ import annotations

import pytest

from clubs.models import Club
from tests.conftest import rows_for_the_module

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def module_club(request, django_db_setup, django_db_blocker):
    with rows_for_the_module(request, django_db_blocker):
        yield Club.objects.create(name="Cegofreunde Geteilt", short_name="CFG", town="Dorf")


@pytest.fixture
def club(module_club, db):
    return module_club


@pytest.mark.parametrize("turn", [1, 2])
def test_each_test_meets_the_rows_as_they_were_made(club, turn):
    assert list(Club.objects.values_list("name", flat=True)) == ["Cegofreunde Geteilt"]
    Club.objects.filter(pk=club.pk).update(name=f"Umbenannt {turn}")
    Club.objects.create(name=f"Neu {turn}", short_name=f"N{turn}", town="Dorf")
    assert Club.objects.count() == 2


def test_a_test_without_the_rows_sees_none_of_them(db):
    # Run on its own (pytest FILE::this) it never had them; after the others, the module's
    # transaction is still open, so it sees them, but not the other tests' changes.
    assert not Club.objects.exclude(name="Cegofreunde Geteilt").exists()
