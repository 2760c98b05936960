"""What a PDF worker process runs: HTML in, PDF bytes out. No Django here, so the worker
processes start with WeasyPrint alone (see ``tournaments.pdf``)."""

from __future__ import annotations


def render(html: str, base_url: str) -> bytes:
    from weasyprint import HTML

    return HTML(string=html, base_url=base_url).write_pdf()
