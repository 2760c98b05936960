"""Settings for the test suite (pyproject's DJANGO_SETTINGS_MODULE): the real settings with
what tests need, set before they are read. Tests that start servers or commands in a
subprocess pass their own environment.

Set here rather than in a conftest: pytest-django imports the settings before any conftest.
"""

import os
import secrets

# Debug-mode static files (no collectstatic needed); pytest-django still runs the tests
# themselves with settings.DEBUG = False.
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "tests-" + secrets.token_urlsafe(40))

from cego_club.settings import *  # noqa: E402, F403

# The test database is thrown away at the end of the run: SQLite need not wait for the disk
# after each commit (a transactional test commits every row it makes and empties every table
# after it; the browser tests' set-up took 3 to 6 times as long with each commit synced).
# Locking is unchanged: the concurrency tests meet the same write lock.
if DATABASES["default"]["ENGINE"] == "cego_club.platform.sqlite":  # noqa: F405
    _options = DATABASES["default"]["OPTIONS"]  # noqa: F405
    _options["init_command"] = ";".join(
        command
        for command in (_options.get("init_command", ""), "PRAGMA synchronous=OFF")
        if command
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # Django's, emptying only the tables that hold rows after a transactional test
    # (tests/postgresql/base.py: a TRUNCATE of every table cost 2.5 to 3.5 s a test).
    DATABASES["default"]["ENGINE"] = "tests.postgresql"  # noqa: F405
