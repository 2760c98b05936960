import os
import shutil

import pytest

# CI sets REQUIRE_BROWSER=1 (and installs Chromium and poppler); there a missing tool is a
# failure. A plain `make test` on a machine without them skips those tests and says why.
REQUIRE_TOOLS = os.environ.get("REQUIRE_BROWSER") == "1"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def require_tool(path_or_name: str, why: str) -> str:
    found = path_or_name if os.path.exists(path_or_name) else shutil.which(path_or_name)
    if found:
        return found
    message = f"{path_or_name} is not installed: {why} (apt-get install it, as .ci/run does)"
    if REQUIRE_TOOLS:
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def chromium_path() -> str:
    return require_tool(CHROMIUM, "browser tests need Debian's chromium package")


@pytest.fixture
def pdftotext() -> str:
    return require_tool("pdftotext", "PDF checks need poppler-utils")


@pytest.fixture
def pdftoppm() -> str:
    return require_tool("pdftoppm", "PDF rendering checks need poppler-utils")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Real hashing costs about a second a user; tests only need logins to work.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    # Cached output is keyed on (tournament id, revision): ids come back after a test's
    # rollback, so every test starts with an empty cache. The printouts are not rendered in
    # a background thread in tests (that thread could not see the test's transaction).
    from django.core.cache import cache

    settings.PRINT_PRERENDER = "off"
    settings.SEASON_RESULTS_AHEAD = "off"  # a season's results: worked out by the first reader
    cache.clear()
    yield
    cache.clear()
