"""The page's language: German unless the reader picked another with the language switch.

Django's ``LocaleMiddleware`` follows the browser's ``Accept-Language``, so a laptop or phone
set up in English showed every page in English although the clubs' product is German. Here
only the switch's cookie (``LANGUAGE_COOKIE_NAME``, set by ``set_language``) chooses;
without it the page is in ``LANGUAGE_CODE`` (German).
"""

from __future__ import annotations

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers


def chosen_language(cookie: str | None) -> str:
    """The language the reader chose, or the default."""
    if cookie:
        try:
            return translation.get_supported_language_variant(cookie)
        except LookupError:
            pass
    return settings.LANGUAGE_CODE


class ChosenLanguageMiddleware(LocaleMiddleware):
    """``LocaleMiddleware`` without the browser's language: the cookie or German."""

    def process_request(self, request) -> None:
        language = chosen_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        # no i18n_patterns here; the page depends on the cookie, not on Accept-Language
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response
