"""The test suite's database is built from the models (tests/conftest.py); the migrations a
club's database is brought up to date with must build exactly the same schema. A fresh
database is migrated from nothing in a process of its own and compared with the suite's,
table by table, column by column, constraint by constraint."""

import json
import subprocess
import sys
import uuid

import pytest
from django.db import connection

from tests.schema_snapshot import describe
from tests.servers import ROOT, clean_env


def migrated_schema(database_url: str) -> dict:
    finished = subprocess.run(
        [sys.executable, "-m", "tests.schema_snapshot"],
        cwd=ROOT,
        env=clean_env(
            DATABASE_URL=database_url,
            DEBUG="1",
            DJANGO_SETTINGS_MODULE="cego_club.settings",
        ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    return json.loads(finished.stdout)


@pytest.fixture
def fresh_database_url(tmp_path):
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrated.sqlite3'}"
        return
    import psycopg

    settings = connection.settings_dict
    name = f"cego_migrated_{uuid.uuid4().hex[:12]}"
    server = dict(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
    )
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        password = f":{server['password']}" if server["password"] else ""
        yield f"postgres://{server['user']}{password}@{server['host']}:{server['port']}/{name}"
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# Django's own: its auth app's many-to-many tables get a bigint id when migrated (the
# migration's through models) and an integer one when built from the models; not ours to change.
DJANGOS_OWN_ID_TYPES = {"auth_group_permissions", "auth_user_groups", "auth_user_user_permissions"}


def without_djangos_own(schema: dict) -> dict:
    for table in DJANGOS_OWN_ID_TYPES & schema.keys():
        schema[table]["columns"]["id"]["type"] = "either"
    return schema


@pytest.mark.django_db
def test_the_migrations_build_the_schema_the_models_describe(fresh_database_url):
    built_from_models = without_djangos_own(describe(connection))
    migrated = without_djangos_own(migrated_schema(fresh_database_url))

    assert sorted(migrated) == sorted(built_from_models)
    differences = [
        f"{table}: migrated {migrated[table][part]!r}\n  models {built_from_models[table][part]!r}"
        for table in built_from_models
        for part in ("columns", "constraints")
        if migrated[table][part] != built_from_models[table][part]
    ]
    assert not differences, "\n".join(differences)
