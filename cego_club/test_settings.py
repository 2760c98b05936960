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
