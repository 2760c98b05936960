"""The Content-Security-Policy header (Django 5.2 has none built in).

Every page's scripts and styles are the app's own files (``static/``): no inline script, no
inline style, no event-handler attribute, no ``eval``. So the policy allows only this site's
own files; images may also be ``data:`` URIs (the tables' QR codes are drawn into the page).
A script injected through a name or a note (should escaping ever fail) would not run.

``settings.CONTENT_SECURITY_POLICY`` holds the policy (empty: no header). A response that
already carries the header keeps its own.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"

DEFAULT_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_POLICY)
        if policy and HEADER not in response:
            response[HEADER] = policy
        return response
