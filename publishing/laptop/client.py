"""The laptop's side of publishing: one HTTP request, standard library only (and certifi's
certificates where the system offers none).

HTTPS, or plain HTTP to a loopback address (a test, a tunnel on the laptop); every request
has a timeout, so a hall without internet waits at most that long, and only in the thread
that sends. Bodies go gzip-compressed (a batch of changes is JSON, which packs 5–10 fold).
"""

from __future__ import annotations

import gzip
import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from functools import cache
from typing import Any

from venue.environment import is_loopback

TIMEOUT_SECONDS = 10
# An answer larger than this is not one of ours (a registry of every club is a few MB).
MAX_ANSWER_BYTES = 64 * 1024 * 1024


class PublishError(Exception):
    """The server could not be reached (``refused`` False) or refused the request.

    ``code`` is the server's machine-readable reason where it gave one (``lost_track``:
    it holds another state than the batch's base; ``fork``: the batch would delete what
    this laptop copy never saw; ``invalid``, ``busy``, ``server`` …) and ``answer`` the
    whole JSON answer."""

    def __init__(
        self,
        message: str,
        *,
        refused: bool = False,
        status: int = 0,
        code: str = "",
        answer: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message, self.refused, self.status = message, refused, status
        self.code, self.answer = code, answer or {}


def check_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname or "")):
        return url.rstrip("/")
    raise PublishError(f"{url}: use https:// (plain http only to this computer).", refused=True)


@cache
def tls_context() -> ssl.SSLContext:
    """The system's certificates; where the system gives Python none (python.org's Python on
    macOS before "Install Certificates" was run), certifi's bundle."""
    context = ssl.create_default_context()
    if not context.cert_store_stats().get("x509_ca"):
        try:
            import certifi
        except ImportError:  # pragma: no cover - certifi is a dependency
            return context
        context = ssl.create_default_context(cafile=certifi.where())
    return context


def encode_body(payload: Any) -> bytes:
    return gzip.compress(json.dumps(payload, ensure_ascii=False).encode(), compresslevel=5)


def request(
    url: str, *, token: str, path: str, payload: Any = None, timeout: float = TIMEOUT_SECONDS
) -> dict[str, Any]:
    """POST ``payload`` as gzip-compressed JSON (GET without one) to ``url`` + ``path``; the
    answer's JSON. ``PublishError`` when it did not arrive or was refused."""
    body = None if payload is None else encode_body(payload)
    headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": "gzip"}
    if body is not None:
        headers |= {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    req = urllib.request.Request(
        check_url(url) + path,
        data=body,
        method="GET" if body is None else "POST",
        headers=headers,
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=tls_context()) as response:  # noqa: S310 (checked)
            return _json(response.read(MAX_ANSWER_BYTES + 1), response.headers)
    except urllib.error.HTTPError as error:
        try:
            answer = _json(error.read(MAX_ANSWER_BYTES + 1), error.headers)
        except (ValueError, OSError):
            answer = {}
        message = str(answer.get("error") or "") or f"HTTP {error.code}"
        raise PublishError(
            message,
            # A refusal is kept until something changes; a timeout or "too many requests"
            # at a proxy is tried again like a server that is not reached.
            refused=400 <= error.code < 500 and error.code not in (408, 429),
            status=error.code,
            code=str(answer.get("code") or ""),
            answer=answer,
        ) from error
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise PublishError(str(getattr(error, "reason", error))) from error


def _json(raw: bytes, headers) -> dict[str, Any]:
    if len(raw) > MAX_ANSWER_BYTES:
        raise ValueError("the answer is too large")
    if (headers.get("Content-Encoding") or "").lower() == "gzip":
        raw = gzip.decompress(raw)
    data = json.loads(raw or b"{}")
    if not isinstance(data, dict):
        raise ValueError("the answer is not a JSON object")
    return data
