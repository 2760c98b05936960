import contextlib
import functools
import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest
from hypothesis import HealthCheck, settings

# Property tests check what holds, not how fast: on a machine busy with other work (CI runs two
# databases side by side on 2 cores) one example can take longer than hypothesis's 200 ms
# deadline, which failed a correct property test once in eight runs.
settings.register_profile(
    "cego", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("cego")

# CI sets REQUIRE_BROWSER=1 (and installs Chromium, poppler, Pango, LibreOffice …); there a
# missing tool is a failure. A plain `make test` on a machine without them skips those tests
# and names the Debian package that brings the tool.
REQUIRE_TOOLS = os.environ.get("REQUIRE_BROWSER") == "1"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


# The PDFs WeasyPrint draws (season notice board, player list, tariff cards): its Pango.
PANGO_PACKAGES = "libpango-1.0-0 libpangoft2-1.0-0"
WEASYPRINT_URLS = frozenset(
    {"printing:season_pdf", "printing:player_export_pdf", "printing:tariff_card_pdf"}
)


def missing_tool(message: str) -> NoReturn:
    if REQUIRE_TOOLS:
        pytest.fail(message)
    pytest.skip(message)


def require_tool(path_or_name: str, why: str) -> str:
    # A program that can be run (a file without execute permission is no program)
    if os.path.isfile(path_or_name) and os.access(path_or_name, os.X_OK):
        return path_or_name
    found = shutil.which(path_or_name)
    if found:
        return found
    missing_tool(f"{path_or_name} is not installed: {why} (apt-get install it, as .ci/run does)")


def require_weasyprint():
    """WeasyPrint with the Pango it loads, or the test skips (fails in CI) naming the packages."""
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: cffi found no Pango library
        reason = str(error).strip().splitlines()[0][:160]
        missing_tool(
            "WeasyPrint cannot load Pango: the season notice board, player list and tariff "
            f"cards need Debian's {PANGO_PACKAGES} (apt-get install them, as .ci/run does; "
            f"{reason})"
        )
    return weasyprint


@pytest.fixture
def weasyprint():
    return require_weasyprint()


@pytest.fixture
def chromium_path() -> str:
    return require_tool(CHROMIUM, "browser tests need Debian's chromium package")


MSGFMT_WHY = "the catalogue checks compare with GNU msgfmt, Debian's gettext (the app needs none)"


@pytest.fixture
def msgfmt() -> str:
    return require_tool("msgfmt", MSGFMT_WHY)


@pytest.fixture
def pdftotext() -> str:
    return require_tool("pdftotext", "PDF checks need poppler-utils")


@pytest.fixture
def pdftoppm() -> str:
    return require_tool("pdftoppm", "PDF rendering checks need poppler-utils")


# Real hashing costs about a second a user; tests only need logins to work.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Nothing worked out in the background or ahead of time in tests (a thread could not see the
# test's transaction): the printouts, a season's results (its first reader works them out),
# the ratings (a test brings them up to date itself).
NOTHING_AHEAD = {"PRINT_PRERENDER": "off", "SEASON_RESULTS_AHEAD": "off", "RATINGS_AHEAD": "off"}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    # Cached output is keyed on (tournament id, revision): ids come back after a test's
    # rollback, so every test starts with an empty cache.
    from django.core.cache import cache

    for name, value in NOTHING_AHEAD.items():
        setattr(settings, name, value)
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def no_remembered_position():
    # The sender remembers each publication's position by its primary key; a test's rows
    # are rolled back and the next test's publication may get the same key.
    from publishing.laptop.position import forget

    forget()
    yield


@pytest.fixture(autouse=True)
def german_by_default():
    # Each test starts in the site's language, whatever an earlier test in the same process
    # (a view, a command, translation.activate) left active: the language is a thread-local
    # that outlives the test, and a test that passed only after an English one is flaky.
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


# The test database is built from the models (what syncdb would make), not by replaying every
# migration: 44 migrations cost some 10 s of each run's start, most of it Django working out
# the state of the models after each one. The migrations are held against the models once, in
# tests/foundation/test_migrations_build_the_models.py (a fresh database migrated in a process
# of its own, its schema compared table by table, column by column, constraint by constraint),
# and `makemigrations --check` in CI. `pytest --migrations` builds it by migrating instead.
@pytest.fixture(scope="session")
def django_db_setup(
    request,
    django_test_environment,
    django_db_blocker,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
):
    from django.test.utils import override_settings, setup_databases, teardown_databases

    class NoMigrations:
        def __contains__(self, app_label: str) -> bool:
            return True

        def __getitem__(self, app_label: str) -> None:
            return None

    from pytest_django.fixtures import _get_databases_for_setup

    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    keepdb = django_db_keepdb and not django_db_createdb
    # Only while the database is made: tests of a migration itself, and commands that
    # migrate, load the real migrations afterwards.
    building = (
        contextlib.nullcontext()
        if django_db_use_migrations
        else override_settings(MIGRATION_MODULES=NoMigrations())
    )
    with django_db_blocker.unblock():
        with building:
            config = setup_databases(
                verbosity=0,
                interactive=False,
                aliases=aliases,
                serialized_aliases=serialized_aliases,
                keepdb=keepdb,
            )
        if not django_db_use_migrations:
            for alias in aliases:
                _record_every_migration_applied(alias)
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            teardown_databases(config, verbosity=0)


def _record_every_migration_applied(alias: str) -> None:
    """A database built from the models holds the schema of the last migrations but no
    record of them: recorded as applied, so that ``migrate`` in a test finds nothing to do
    and a test of a migration can go back and forth (the schema check in tests/foundation
    proves the two schemas the same)."""
    from django.db import connections
    from django.db.migrations.loader import MigrationLoader
    from django.db.migrations.recorder import MigrationRecorder

    connection = connections[alias]
    loader = MigrationLoader(connection)
    recorder = MigrationRecorder(connection)
    recorder.ensure_schema()
    applied = recorder.applied_migrations()
    recorder.migration_qs.bulk_create(
        recorder.Migration(app=app, name=name)
        for app, name in loader.graph.nodes
        if (app, name) not in applied and (app, name) not in loader.replacements
    )


# CI runs the fast tier on both databases. A test that opens no database connection (no
# django_db mark, none of pytest-django's database fixtures) and whose module names no
# database setting gives the same answer on either: the PostgreSQL job
# (CEGO_DATABASE_TESTS_ONLY=1, .ci/run) deselects those (not skips: the SQLite job runs
# every one of them) and says how many.
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
    }
)
DATABASE_WORDS = ("DATABASE_URL", "vendor", "DATABASES", "postgres", "connection")


@functools.cache
def names_a_database(path: Path) -> bool:
    return path.suffix != ".py" or any(word in path.read_text() for word in DATABASE_WORDS)


def uses_no_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames):
        return False
    return not names_a_database(item.path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CEGO_DATABASE_TESTS_ONLY") != "1":
        return
    elsewhere = [item for item in items if uses_no_database(item)]
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        left = set(map(id, elsewhere))
        items[:] = [item for item in items if id(item) not in left]
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                f"{len(elsewhere)} tests that use no database deselected (the SQLite job runs them)"
            )


@contextlib.contextmanager
def rows_for_the_module(request, django_db_blocker):
    """Rows made once for a module's tests, as Django's ``TestCase.setUpTestData`` makes them
    for a class: inside a transaction that is rolled back after the module's last test, each
    test in a savepoint of its own within it (pytest-django's ``db``), so that every test
    still meets the same rows. Building the authorisation tests' world for each of 187 URLs,
    or the demo for each of six tests, was a fifth of the fast tier's time on PostgreSQL.

    Only for modules whose tests are all non-transactional: a ``transaction=True`` test
    would run inside the module's transaction, and is refused here instead."""
    for item in request.session.items:
        marker = item.get_closest_marker("django_db")
        if item.module is request.module and marker and marker.kwargs.get("transaction"):
            raise pytest.UsageError(
                f"{item.nodeid} is transactional: rows shared by a module need its tests to "
                "run in savepoints"
            )
    from django.conf import settings
    from django.core.cache import cache
    from django.db import transaction
    from django.test import override_settings
    from django.utils import translation

    # Made as a test would make them (the tests' settings and language), the cache left empty.
    made_as_in_a_test = override_settings(PASSWORD_HASHERS=FAST_PASSWORD_HASHERS, **NOTHING_AHEAD)
    with django_db_blocker.unblock(), made_as_in_a_test:
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            with translation.override(settings.LANGUAGE_CODE):
                yield
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            cache.clear()
