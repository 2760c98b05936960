"""Waiting for a condition in the page under the site's Content-Security-Policy.

Playwright's ``page.wait_for_function`` builds its predicate with ``eval`` inside the page,
which the policy (``script-src 'self'``, no ``unsafe-eval``) refuses; ``page.evaluate`` runs
through the DevTools protocol and is not refused. So this polls with ``evaluate``."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError


def wait_for_js(page, expression: str, *, arg: Any = None, timeout: float = 30000) -> Any:
    """Poll ``expression`` (a JavaScript expression, or a function of ``arg``) until it is
    truthy; its value, or AssertionError after ``timeout`` milliseconds."""
    function = expression if "=>" in expression else f"() => ({expression})"
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            value = page.evaluate(function, arg) if arg is not None else page.evaluate(function)
        except PlaywrightError as error:  # the page navigated meanwhile: ask the new one
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout / 1000:.0f} s: {expression}")
        page.wait_for_timeout(100)
