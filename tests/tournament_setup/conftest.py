import pytest


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("desk", password="pw", is_staff=True)


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client
