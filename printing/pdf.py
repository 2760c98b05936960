"""Render a template to PDF bytes with WeasyPrint (templates in ``cego_club/templates/print/``).

WeasyPrint works on one core and needs about 30-300 ms a page. A template that marks its
independent parts with ``<!--part-->`` (a page of the standings or the seat plan, a sheet of
table cards) is split into as many runs as there are worker processes, rendered
in parallel, and the PDFs joined with pypdf. Everything in the body belongs in a part: what
comes before the first mark is repeated in every run. A part should start a new page (a run
starts one). The workers are started by :func:`warm_up` (the draw page calls it) or by the
first large PDF of a server process, and kept (from a fork server that has WeasyPrint imported;
spawned on Windows); a small PDF that finds them not running (or still starting) is rendered
in-process and starts them for the next one. ``PDF_WORKERS=1`` renders in-process.

Page numbers: ``counter(page)`` and ``counter(pages)`` in a run would count that run's pages
only. When the page's margin boxes count pages, the runs are rendered without margin boxes,
and the margin boxes of the whole document (the template's ``@page`` rules on as many blank
pages as the runs gave) are rendered once and laid over the joined pages. Margin boxes of such
a template may show fixed text and page counters only (not ``string()``).
A script that renders such a PDF needs the usual ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import io
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from printing import pdf_worker

PART_MARK = "<!--part-->"
# A document of fewer parts than this does not start the worker processes (that would cost
# more than it saves): it is rendered in-process while they start in the background.
PARALLEL_MIN_PARTS = 8
_MARGIN_BOXES = [
    *(f"top-{where}" for where in ("left-corner", "left", "center", "right", "right-corner")),
    *(f"bottom-{where}" for where in ("left-corner", "left", "center", "right", "right-corner")),
    *(f"{side}-{where}" for side in ("left", "right") for where in ("top", "middle", "bottom")),
]
# Added to each run of a document whose margin boxes count pages: they are drawn afterwards.
_NO_MARGIN_BOXES = (
    "<style>@page { "
    + " ".join(f"@{box} {{ content: none; }}" for box in _MARGIN_BOXES)
    + " }</style>"
)

logger = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
# Set once the workers have rendered something: a small PDF does not wait for them to start.
_ready = threading.Event()


def workers() -> int:
    configured = getattr(settings, "PDF_WORKERS", None) or os.environ.get("PDF_WORKERS")
    return max(1, int(configured)) if configured else max(1, os.cpu_count() or 1)


def _get_pool() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            # Not a plain fork: the workers would inherit the server's open database
            # connections. A fork server (Linux, macOS) starts once with WeasyPrint imported
            # and forks clean workers from itself; Windows spawns them.
            if "forkserver" in multiprocessing.get_all_start_methods():
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["printing.pdf_worker", "weasyprint"])
            else:
                context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=context)
        return _pool


def warm_up() -> None:
    """Start the worker processes in the background, each with WeasyPrint imported and a line
    rendered (fonts and stylesheets ready): the next large PDF does not wait for that (about 2 s
    on the venue laptop). Nothing when PDFs are rendered in-process or the pool runs already."""
    if workers() < 2 or _pool is not None:
        return

    def run() -> None:
        try:
            start_workers()
        except Exception:  # the first real PDF starts the pool instead
            logger.exception("Starting the PDF workers in advance failed")

    threading.Thread(target=run, name="pdf-warm-up", daemon=True).start()


def start_workers() -> None:
    """Start the worker processes and wait until each has rendered a line."""
    pool = _get_pool()
    list(pool.map(pdf_worker.warm_up, range(workers())))
    _ready.set()


def _discard_pool() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
        _ready.clear()


def _split(html: str, runs: int) -> list[str]:
    """``html`` as ``runs`` documents of consecutive parts, each with the whole head."""
    head, _, rest = html.partition(PART_MARK)
    body_end = rest.rfind("</body>")
    tail = rest[body_end:] if body_end >= 0 else ""
    parts = (rest[:body_end] if body_end >= 0 else rest).split(PART_MARK)
    size = -(-len(parts) // runs)
    return [head + "".join(parts[i : i + size]) + tail for i in range(0, len(parts), size)]


def _counts_pages(head: str) -> bool:
    return "counter(page" in head


def _without_margin_boxes(document: str) -> str:
    return document.replace("</head>", _NO_MARGIN_BOXES + "</head>", 1)


@lru_cache(maxsize=16)  # the same head again: a printout rendered anew after a change
def _margin_boxes(head: str, pages: int, base_url: str) -> bytes:
    """``pages`` blank pages of the document whose head is ``head``: its margin boxes only
    (page numbers of the whole document)."""
    document = head[: head.find("<body")] if "<body" in head else head
    blanks = '<div style="break-before: page"></div>' * (pages - 1)
    return pdf_worker.render(f"{document}<body><div></div>{blanks}</body></html>", base_url)


def _join(pdfs: list[bytes], *, margin_boxes_of: str | None = None, base_url: str = "") -> bytes:
    """The PDFs one after the other; with ``margin_boxes_of`` (a document's head), its margin
    boxes laid over the joined pages."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for content in pdfs:
        writer.append(PdfReader(io.BytesIO(content)))
    if margin_boxes_of is not None:
        overlay = _margin_boxes(margin_boxes_of, len(writer.pages), base_url)
        for page, boxes in zip(writer.pages, PdfReader(io.BytesIO(overlay)).pages, strict=True):
            page.merge_page(boxes)
            page.compress_content_streams()  # merging leaves the page's drawing uncompressed
    first = PdfReader(io.BytesIO(pdfs[0])).metadata
    if first:
        writer.add_metadata({key: str(value) for key, value in first.items()})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def html_to_pdf(html: str) -> bytes:
    base_url = str(settings.BASE_DIR)
    parts = html.count(PART_MARK)
    runs = min(workers(), parts)
    if runs < 2:
        return pdf_worker.render(html, base_url)
    if not _ready.is_set() and parts < PARALLEL_MIN_PARTS:
        warm_up()  # the next one is rendered in parallel
        return pdf_worker.render(html, base_url)
    documents = _split(html, runs)
    head = html.partition(PART_MARK)[0]
    numbered = _counts_pages(head)
    if numbered:
        documents = [_without_margin_boxes(document) for document in documents]
    try:
        pool = _get_pool()
        pdfs = list(pool.map(pdf_worker.render, documents, [base_url] * len(documents)))
    except (BrokenProcessPool, OSError) as error:  # a worker died: render here instead
        logger.warning("PDF workers failed (%s); rendering in-process", error)
        _discard_pool()
        return pdf_worker.render(html, base_url)
    _ready.set()
    return _join(pdfs, margin_boxes_of=head if numbered else None, base_url=base_url)


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
