"""Render a template to PDF bytes with WeasyPrint (templates in ``templates/print/``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from weasyprint import HTML


def render_pdf(
    template_name: str, context: dict[str, Any], request: HttpRequest | None = None
) -> bytes:
    html = render_to_string(template_name, context, request=request)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


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
