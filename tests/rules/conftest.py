import pytest

from rules.builtin_sources import builtin_data
from rules.models import HouseRuleSource
from tests.factories import ClubFactory


def house_data(slug: str = "fcb_hausregeln", based_on: str = "swm", **changes) -> dict:
    data = builtin_data(based_on)
    data["slug"] = slug
    data["contracts"]["trio"] = {
        "kind": "fixed",
        "amount": 20,
        "name": {"de": "Trio", "en": "Trio"},
    }
    for key, value in changes.items():
        data[key] = value
    return data


@pytest.fixture
def house_rules(db) -> HouseRuleSource:
    """Club house rules based on swm, with an added fixed-amount contract Trio (20)."""
    house = HouseRuleSource(
        club=ClubFactory(name="Cegoclub Bräunlingen"),
        slug="fcb_hausregeln",
        based_on="swm",
        data=house_data(),
    )
    house.full_clean()
    house.save()
    return house


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("chef", "chef@example.org", "pw")
    client.force_login(user)
    return client
