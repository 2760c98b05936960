"""Bodies from the other side, read with a limit: what a laptop sends the season server
(``POST /api/publish/``) and what the season server answers a laptop (the registry).

Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB) stays the limit of form posts; the API
reads its JSON here instead (``read_request_body``), with its own limit, large enough for a
4,000-deal tournament compressed or not, and answers what is wrong as a German message with
its HTTP status (``BodyError``). ``Content-Encoding: gzip`` is unpacked with a cap on the
unpacked size, so that a small body that unpacks to gigabytes (a zip bomb) is refused after
reading no more than the cap.
"""

from __future__ import annotations

import zlib
from typing import Any

from django.utils.translation import gettext as _

MB = 1024 * 1024
# What a laptop may send at once, as sent and as unpacked. A tournament archive is about
# 770 bytes per deal (3 MB for 4,000 deals, about a tenth of that gzipped): room for long
# deal histories and for what a later format adds, far below what a server's memory fears.
MAX_BODY_BYTES = 64 * MB
MAX_UNPACKED_BYTES = 64 * MB
_CHUNK = 64 * 1024


class BodyError(Exception):
    """A body that is not read: ``message`` (German) and the HTTP ``status`` to answer."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def megabytes(size: int) -> str:
    return f"{size / MB:.0f} MB" if size >= MB else f"{size} Bytes"


def too_large(*, limit: int) -> BodyError:
    return BodyError(
        _("The data are too large: at most %(limit)s are taken at once.")
        % {"limit": megabytes(limit)},
        status=413,
    )


def unpack(data: bytes, encoding: str, *, max_bytes: int = MAX_UNPACKED_BYTES) -> bytes:
    """``data`` as sent with ``Content-Encoding: encoding`` (none, ``identity`` or ``gzip``),
    unpacked to at most ``max_bytes``: larger is ``BodyError`` 413, a broken or unknown
    encoding ``BodyError`` 400 or 415."""
    encoding = (encoding or "").strip().lower()
    if encoding in ("", "identity"):
        if len(data) > max_bytes:
            raise too_large(limit=max_bytes)
        return data
    if encoding not in ("gzip", "x-gzip"):
        raise BodyError(
            _("The encoding %(encoding)s is not understood here (gzip or none).")
            % {"encoding": encoding[:40]},
            status=415,
        )
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        unpacked = inflater.decompress(data, max_bytes + 1)
    except zlib.error as error:
        raise BodyError(
            _("The gzip data cannot be unpacked: %(error)s") % {"error": error}, status=400
        ) from error
    if len(unpacked) > max_bytes or inflater.unconsumed_tail:
        raise too_large(limit=max_bytes)
    if not inflater.eof:
        raise BodyError(_("The gzip data are cut off."), status=400)
    return unpacked


def read_request_body(
    request: Any, *, max_bytes: int = MAX_BODY_BYTES, max_unpacked: int = MAX_UNPACKED_BYTES
) -> bytes:
    """The request's body, unpacked: read from the stream (not ``request.body``, which
    Django caps at ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with an HTML answer), at most
    ``max_bytes`` of it. A declared length over the limit is refused before reading."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise BodyError(_("The request's length is not a number."), status=400) from None
    if declared > max_bytes:
        raise too_large(limit=max_bytes)
    chunks, size = [], 0
    while True:
        chunk = request.read(min(_CHUNK, max_bytes + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            raise too_large(limit=max_bytes)
    return unpack(
        b"".join(chunks), request.headers.get("Content-Encoding", ""), max_bytes=max_unpacked
    )


def read_response_body(response: Any, *, max_bytes: int) -> bytes:
    """An HTTP response's body (``http.client.HTTPResponse``), at most ``max_bytes`` as sent
    and as unpacked (gzip where the server compressed it)."""
    data = response.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise too_large(limit=max_bytes)
    return unpack(data, response.headers.get("Content-Encoding", ""), max_bytes=max_bytes)
