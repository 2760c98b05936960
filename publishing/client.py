"""The laptop's side of publishing: one HTTP request, standard library only.

HTTPS, or plain HTTP to a loopback address (a test, a tunnel on the laptop); every request
has a timeout, so a hall without internet waits at most that long, and only in the thread
that sends."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from venue.environment import is_loopback

TIMEOUT_SECONDS = 10


class PublishError(Exception):
    """The server could not be reached (``refused`` False) or refused the request."""

    def __init__(self, message: str, *, refused: bool = False, status: int = 0) -> None:
        super().__init__(message)
        self.message, self.refused, self.status = message, refused, status


def check_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname or "")):
        return url.rstrip("/")
    raise PublishError(f"{url}: use https:// (plain http only to this computer).", refused=True)


def request(
    url: str, *, token: str, path: str, payload: Any = None, timeout: float = TIMEOUT_SECONDS
) -> dict[str, Any]:
    """POST ``payload`` as JSON (GET without one) to ``url`` + ``path``; the answer's JSON."""
    body = None if payload is None else json.dumps(payload, ensure_ascii=False).encode()
    req = urllib.request.Request(
        check_url(url) + path,
        data=body,
        method="GET" if body is None else "POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:  # noqa: S310 (checked)
            return json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        try:
            message = json.loads(error.read()).get("error", "")
        except (ValueError, AttributeError):
            message = ""
        raise PublishError(
            message or f"HTTP {error.code}", refused=400 <= error.code < 500, status=error.code
        ) from error
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise PublishError(str(getattr(error, "reason", error))) from error
