"""WeasyPrint, for the PDFs made away from the hall: the season's notice board, the player
list and the tariff cards (templates in ``printing/templates/print/`` and ``rules/templates/rules/``). Every
tournament-day printout is drawn with ReportLab instead (``printing.drawing``), so the venue
laptop needs no system library.

WeasyPrint needs Pango (on Windows: MSYS2, installed by hand). It is imported here on first use
only, never when the server starts: where it or Pango cannot be loaded, :func:`html_to_pdf`
raises :class:`PdfUnavailable` (the views answer with a page that says so) and everything
else works.

The documents are rendered with a leaner copy of WeasyPrint's user-agent stylesheet: the
stock one gives *every* element styles for six pseudo-elements (``::marker`` and the footnote
and note ones), which WeasyPrint computes for each element of the document. Here ``::marker``
applies to list items only (``li``, ``summary``) and the footnote rules are left out (the
documents have no footnotes). The pages come out the same.

The cyclic garbage collector is paused while a document is rendered: WeasyPrint allocates
hundreds of thousands of objects for a few pages, and the collections they set off (scanning
the whole heap, Django's too) took 10-20 % of the time. What the render leaves is collected
after it.

Also here: the HTTP response of any PDF (:func:`pdf_response`, :func:`content_disposition`).
"""

from __future__ import annotations

import gc
import io
import re
import sys
import threading
from contextlib import contextmanager, redirect_stdout
from functools import cache
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


class PdfUnavailable(Exception):
    """WeasyPrint, or a system library it needs (Pango), cannot be loaded on this computer."""


# What WeasyPrint prints (into the secretary's console, in English) when it cannot load Pango,
# before it raises: the 503 page says it in German instead.
BANNER = "WeasyPrint could not import some external libraries"
_importing = threading.Lock()


def _import_weasyprint():
    """WeasyPrint, or :class:`PdfUnavailable`. Its import's printing goes to a buffer while it
    runs (one import at a time); anything but WeasyPrint's banner is handed on to the console
    afterwards (a line another thread printed meanwhile)."""
    with _importing:
        printed = io.StringIO()
        try:
            with redirect_stdout(printed):
                import weasyprint
        except (ImportError, OSError) as error:  # OSError: cffi found no Pango library
            raise PdfUnavailable(str(error)) from error
        finally:
            _hand_on(printed.getvalue())
    return weasyprint


def _hand_on(text: str) -> None:
    """What was printed during the import, without WeasyPrint's banner (its block between
    two lines of dashes)."""
    if BANNER in text:
        before, _, after = text.partition("-----")
        _banner, _, rest = after.partition("-----")
        text = before.removesuffix("\n") + rest.lstrip("\n")
    if text.strip():
        sys.stdout.write(text)


@cache
def _html_class():
    weasyprint = _import_weasyprint()
    html_class = weasyprint.HTML
    try:
        from weasyprint import html as ua
        from weasyprint.css.counters import CounterStyle

        text = ua.UA.replace("::marker {", "li::marker, summary::marker {", 1)
        text = re.sub(r"^::(footnote|note)-[a-z]+ \{[^}]*\}\n", "", text, flags=re.M)
        if any(f"\n::{name}" in text for name in ("marker", "footnote", "note")):
            return html_class  # another WeasyPrint's stylesheet: use it as it is
        # Its @counter-style rules are in WeasyPrint's own set already (parsed here into a
        # set of their own: defined twice, they would be warned about).
        lean = weasyprint.CSS(string=text, counter_style=CounterStyle())
        if not callable(getattr(html_class, "_ua_stylesheets", None)):
            return html_class
    except (ImportError, AttributeError):
        return html_class

    class PrintHTML(html_class):
        def _ua_stylesheets(self, forms=False):
            return [lean]

    return PrintHTML


_renders = 0  # renders under way in this process
_collector_was_enabled = False
_renders_lock = threading.Lock()


@contextmanager
def collector_paused():
    """No cyclic garbage collection inside. Threads may render at once: the collector runs
    again when the last of them is done (if it ran before the first began)."""
    global _renders, _collector_was_enabled
    with _renders_lock:
        if _renders == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _renders += 1
    try:
        yield
    finally:
        with _renders_lock:
            _renders -= 1
            if _renders == 0 and _collector_was_enabled:
                gc.enable()


def html_to_pdf(html: str, base_url: str | None = None) -> bytes:
    """``html`` as PDF bytes; :class:`PdfUnavailable` where WeasyPrint cannot be loaded."""
    html_class = _html_class()
    with collector_paused():
        return html_class(string=html, base_url=base_url or str(settings.BASE_DIR)).write_pdf()


def render_pdf(
    template_name: str, context: dict[str, Any], request: HttpRequest | None = None
) -> bytes:
    return html_to_pdf(render_to_string(template_name, context, request=request))


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """The PDF shown in the browser (inline), saved as ``filename`` when downloaded."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition("inline", filename)
    return response


_ASCII = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
)


def content_disposition(kind: str, filename: str) -> str:
    """``filename`` kept as it is (Spielblätter) for browsers that read RFC 5987's
    ``filename*``, with an ASCII spelling (Spielblaetter) for the rest."""
    fallback = filename.translate(_ASCII).encode("ascii", "ignore").decode().replace('"', "")
    if fallback == filename:
        return f'{kind}; filename="{filename}"'
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"
