import os
import shutil
from typing import NoReturn

import pytest

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
    settings.RATINGS_AHEAD = "off"  # the ratings: a test brings them up to date itself
    cache.clear()
    yield
    cache.clear()
