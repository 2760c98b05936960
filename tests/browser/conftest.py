import os

import pytest


@pytest.fixture
def browser(chromium_path):
    """Debian's Chromium driven by Playwright, for one test."""
    # Playwright's sync API runs an event loop in this thread; the ORM calls the test makes
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
        # Inside Playwright's block the ORM sees other connections than outside it (Playwright
        # runs the block in a context of its own): close those the test opened there, or one
        # stays open and PostgreSQL refuses to drop the test database at the end.
        from django.db import connections

        connections.close_all()
