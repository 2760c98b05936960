import os

import pytest


def close_test_connections() -> None:
    """Inside Playwright's block the ORM sees other connections than outside it (Playwright
    runs the block in a context of its own): close those a test opened there, or one stays
    open and PostgreSQL refuses to drop the test database at the end."""
    from django.db import connections

    connections.close_all()


@pytest.fixture(scope="module")
def module_browser(request):
    """Debian's Chromium driven by Playwright, one for the tests of a module: starting
    Playwright's driver and a Chromium for each of the 150 browser tests cost the slow tier
    a second or more a test. Each test still gets contexts of its own (``browser``)."""
    from tests.conftest import CHROMIUM, require_tool

    chromium_path = require_tool(CHROMIUM, "browser tests need Debian's chromium package")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
    # between browser steps are ordinary synchronous calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()
    close_test_connections()


@pytest.fixture
def browser(module_browser):
    """The module's Chromium for one test: every context (cookies, storage, service workers,
    offline mode) the test opens is closed after it, so no test sees another's."""
    yield module_browser
    for context in list(module_browser.contexts):
        context.close()
    close_test_connections()
