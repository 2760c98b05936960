"""Bodies of every size to the publish endpoint: JSON answers with a German message and the
right status, never Django's HTML "Bad Request (400)" (its DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB,
stays the limit of form posts). An archive of 3 MB or 30 MB is taken, plain or gzipped; more
than 64 MB is 413 naming the limit; a gzip bomb is refused after unpacking no more than the
cap."""

from __future__ import annotations

import gzip
import json
import uuid
import zlib

import pytest
from django.conf import settings
from django.urls import reverse

from clubs.models import Club
from publishing.bodies import MAX_BODY_BYTES, MAX_UNPACKED_BYTES, MB, BodyError, unpack
from publishing.server.services import issue_token
from tests.factories import EntryFactory, TournamentFactory
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def host():
    return Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")


@pytest.fixture
def token(host):
    return issue_token(club=host)[1]


@pytest.fixture
def archive(host) -> bytes:
    tournament = TournamentFactory(host_club=host)
    EntryFactory(tournament=tournament)
    data = json.loads(json.dumps(tournament_archive(tournament=tournament)))
    data["archive_id"] = str(uuid.uuid4())
    data["tournament"]["name"] = "Vom Laptop"
    return json.dumps(data).encode()


def padded(body: bytes, size: int) -> bytes:
    """The same JSON, ``size`` bytes long (white space is JSON too)."""
    return body + b" " * (size - len(body))


def post(client, body: bytes, token: str, **headers):
    return client.post(
        reverse("publishing:publish"),
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        **headers,
    )


def refusal(response, status: int) -> str:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    return response.json()["error"]


@pytest.mark.parametrize("size_mb", [3, 30])
def test_an_archive_of_3_and_30_mb_is_taken(client, token, archive, size_mb):
    body = padded(archive, size_mb * MB)
    assert len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE  # Django's limit for forms
    answer = post(client, body, token)
    assert answer.status_code == 200, answer.content[:300]
    assert answer.json()["status"] == "created"
    assert Tournament.objects.filter(name="Vom Laptop").count() == 1


@pytest.mark.parametrize("size_mb", [3, 30])
def test_3_and_30_mb_that_are_no_archive_get_a_german_json_answer(client, token, size_mb):
    error = refusal(post(client, b"x" * (size_mb * MB), token), 400)
    assert "kein JSON" in error or "JSON-Datei" in error, error


def test_compressed_the_same_archive_is_taken(client, token, archive):
    body = gzip.compress(padded(archive, 30 * MB))
    assert len(body) < MB
    answer = post(client, body, token, HTTP_CONTENT_ENCODING="gzip")
    assert answer.status_code == 200 and answer.json()["status"] == "created"


def test_more_than_the_limit_is_413_naming_the_limit(client, token):
    error = refusal(post(client, b" " * (MAX_BODY_BYTES + 1), token), 413)
    assert "64 MB" in error and "zu groß" in error
    # Declared too large: refused before reading a byte.
    small = post(client, b"{}", token, CONTENT_LENGTH=str(10 * 1024 * MB))
    assert "64 MB" in refusal(small, 413)


def gzip_bomb(unpacked: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = b"\0" * MB
    parts = [packer.compress(zeros) for _ in range(unpacked // MB)]
    return b"".join([*parts, packer.flush()])


def test_a_gzip_bomb_is_refused_after_unpacking_no_more_than_the_cap(client, token):
    bomb = gzip_bomb(256 * MB)  # a quarter gigabyte of zeros in a quarter megabyte
    assert len(bomb) < MB // 2
    error = refusal(post(client, bomb, token, HTTP_CONTENT_ENCODING="gzip"), 413)
    assert "64 MB" in error
    assert not Tournament.objects.filter(name="Vom Laptop").exists()


def test_unpacking_stops_at_the_cap():
    with pytest.raises(BodyError) as raised:
        unpack(gzip_bomb(8 * MB), "gzip", max_bytes=MB)
    assert raised.value.status == 413 and "1 MB" in raised.value.message
    assert unpack(gzip.compress(b"x" * MB), "gzip", max_bytes=MB) == b"x" * MB


@pytest.mark.parametrize(
    ("body", "encoding", "status", "words"),
    [
        (b"\x1f\x8b\x08 not gzip at all", "gzip", 400, "entpacken"),
        (gzip.compress(b"{}" * 1000)[:-20], "gzip", 400, "abgeschnitten"),
        (b"{}", "br", 415, "Kodierung br"),
    ],
    ids=["not gzip", "cut off", "unknown encoding"],
)
def test_a_broken_or_unknown_encoding_is_a_german_json_answer(
    client, token, body, encoding, status, words
):
    error = refusal(post(client, body, token, HTTP_CONTENT_ENCODING=encoding), status)
    assert words in error, error


def test_the_token_is_checked_before_the_body_is_read(client):
    error = refusal(post(client, b" " * (MAX_BODY_BYTES + 1), "wrong"), 401)
    assert "Schlüssel" in error


def test_another_method_is_a_json_405(client, token):
    response = client.get(reverse("publishing:publish"), HTTP_AUTHORIZATION=f"Bearer {token}")
    assert "POST" in refusal(response, 405) and response["Allow"] == "POST"
    response = client.post(reverse("publishing:registry"), HTTP_AUTHORIZATION=f"Bearer {token}")
    assert "GET" in refusal(response, 405)


def test_form_posts_keep_djangos_limit(client, django_user_model, host):
    assert int(2.5 * MB) == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert MAX_UNPACKED_BYTES == MAX_BODY_BYTES == 64 * MB
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    url = reverse("publishing:club_tokens", kwargs={"pk": host.pk})
    response = client.post(url, {"label": "x" * (3 * MB)})
    assert response.status_code == 400
