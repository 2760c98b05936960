"""Render a template to PDF bytes with WeasyPrint (templates in ``templates/print/``).

WeasyPrint works on one core and needs about 60-120 ms a page for a score sheet. A template
that marks its independent parts with ``<!--part-->`` (score sheets: one per table) is split
into as many runs as there are worker processes, rendered in parallel, and the PDFs joined with
pypdf. The workers are started by :func:`warm_up` (the draw page calls it) or else on the first
large PDF of a server process, and kept (from a fork server that has WeasyPrint imported;
spawned on Windows); ``PDF_WORKERS=1`` renders in-process.
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
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from tournaments import pdf_worker

PART_MARK = "<!--part-->"
# Fewer parts than this are rendered in-process: starting the pool would cost more.
PARALLEL_MIN_PARTS = 8

logger = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


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
                context.set_forkserver_preload(["tournaments.pdf_worker", "weasyprint"])
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
            pool = _get_pool()
            list(pool.map(pdf_worker.warm_up, range(workers())))
        except Exception:  # the first real PDF starts the pool instead
            logger.exception("Starting the PDF workers in advance failed")

    threading.Thread(target=run, name="pdf-warm-up", daemon=True).start()


def _discard_pool() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def _split(html: str, runs: int) -> list[str]:
    """``html`` as ``runs`` documents of consecutive parts, each with the whole head."""
    head, _, rest = html.partition(PART_MARK)
    body_end = rest.rfind("</body>")
    tail = rest[body_end:] if body_end >= 0 else ""
    parts = (rest[:body_end] if body_end >= 0 else rest).split(PART_MARK)
    size = -(-len(parts) // runs)
    return [head + "".join(parts[i : i + size]) + tail for i in range(0, len(parts), size)]


def _join(pdfs: list[bytes]) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for content in pdfs:
        writer.append(PdfReader(io.BytesIO(content)))
    first = PdfReader(io.BytesIO(pdfs[0])).metadata
    if first:
        writer.add_metadata({key: str(value) for key, value in first.items()})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def html_to_pdf(html: str) -> bytes:
    base_url = str(settings.BASE_DIR)
    runs = min(workers(), html.count(PART_MARK))
    if runs < 2 or html.count(PART_MARK) < PARALLEL_MIN_PARTS:
        return pdf_worker.render(html, base_url)
    documents = _split(html, runs)
    try:
        pool = _get_pool()
        pdfs = list(pool.map(pdf_worker.render, documents, [base_url] * len(documents)))
    except (BrokenProcessPool, OSError) as error:  # a worker died: render here instead
        logger.warning("PDF workers failed (%s); rendering in-process", error)
        _discard_pool()
        return pdf_worker.render(html, base_url)
    return _join(pdfs)


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
