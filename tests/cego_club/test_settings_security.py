"""Production settings come from the environment and are secure by default. Each case runs
`manage.py` in a fresh process with exactly the variables a deployment would set."""

import secrets

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import DatabaseError

from tests.servers import clean_env, manage

pytestmark = pytest.mark.servers

PRINT = "from django.conf import settings as s; print(s.DEBUG, s.ALLOWED_HOSTS, s.SECRET_KEY[:8])"
DEPLOY = {
    "DJANGO_SETTINGS_MODULE": "cego_club.settings",
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "cego.example.org",
    "DATABASE_URL": "postgres://cego@127.0.0.1:5432/cego",
    "TRUSTED_PROXY_COUNT": "1",
}


def test_check_deploy_passes_with_the_documented_settings():
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=clean_env(**DEPLOY))
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_deploy_fails_when_https_is_switched_off():
    """The check is real: without the HTTPS settings it reports them."""
    done = manage(
        "check", "--deploy", "--fail-level", "WARNING", env=clean_env(**DEPLOY, HTTPS="0")
    )
    assert done.returncode != 0
    assert "security.W004" in done.stderr and "security.W008" in done.stderr


def test_a_proxy_count_that_is_not_a_number_is_refused_clearly():
    done = manage("check", env=clean_env(**{**DEPLOY, "TRUSTED_PROXY_COUNT": "eins"}))
    assert done.returncode != 0
    assert "TRUSTED_PROXY_COUNT must be a whole number" in done.stderr


def test_without_any_settings_it_refuses_to_start_with_a_clear_message():
    done = manage("check", env=clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings"))
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr
    assert "insecure" not in done.stderr


def test_debug_off_has_no_wildcard_host_and_debug_on_gets_a_fresh_key():
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings", SECRET_KEY="k" * 50)
    done = manage("shell", "-v", "0", "-c", PRINT, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["False", "[]"]

    debug = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings", DEBUG="1")
    first, second = (manage("shell", "-v", "0", "-c", PRINT, env=debug) for _ in range(2))
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("True ['localhost', '127.0.0.1', '[::1]']")
    assert first.stdout.split()[-1] != second.stdout.split()[-1]  # no published key


def test_secret_key_file_is_created_once_and_kept(tmp_path):
    key_file = tmp_path / "secret_key"
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings", SECRET_KEY_FILE=str(key_file))
    first = manage("shell", "-v", "0", "-c", PRINT, env=env)
    assert first.returncode == 0, first.stderr
    assert key_file.stat().st_mode & 0o077 == 0  # readable by its owner only
    second = manage("shell", "-v", "0", "-c", PRINT, env=env)
    assert first.stdout == second.stdout
    assert first.stdout.split()[-1] == key_file.read_text()[:8]


def test_cache_is_local_memory_by_default_and_redis_with_redis_url():
    show = "from django.conf import settings as s; print(s.CACHES['default']['BACKEND'])"
    base = {"DJANGO_SETTINGS_MODULE": "cego_club.settings", "DEBUG": "1"}
    local = manage("shell", "-v", "0", "-c", show, env=clean_env(**base))
    redis = manage(
        "shell", "-v", "0", "-c", show, env=clean_env(**base, REDIS_URL="redis://127.0.0.1:6379/3")
    )
    assert local.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"
    assert redis.stdout.strip() == "django.core.cache.backends.redis.RedisCache"


@pytest.mark.parametrize("password", ["password123", "1234567890", "qwertzuiop"])
def test_common_and_numeric_passwords_are_refused(password):
    with pytest.raises(ValidationError):
        validate_password(password)


def test_a_good_password_passes():
    assert validate_password("Schwarzwald-Cego-Turnier-2026") is None  # raised nothing
    # the same validators refuse it cut short: a pass is the validators' answer, not none run
    with pytest.raises(ValidationError):
        validate_password("Schwarz")


def test_health_answers_without_login(client, db):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_health_says_503_when_the_database_does_not_answer(client, db, monkeypatch):
    class Unreachable:
        def cursor(self):
            raise DatabaseError("connection refused")

    monkeypatch.setattr("cego_club.health.connection", Unreachable())
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"
