import pytest
from django.conf import settings


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("desk", "", "pw")


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the tests read English messages
    return client
