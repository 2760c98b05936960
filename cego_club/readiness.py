"""What a server process does once, before it answers its first request, so that the first
visitor does not pay for it (issue 29): the venue's command and the WSGI module
(`cego_club.wsgi`: gunicorn on the season server, waitress-serve, runserver) call both."""

import gc

from django.conf import settings
from django.urls import get_resolver
from django.utils import translation


def load_urls() -> None:
    """Every URL and view imported, and the resolver's tables built in each of the site's
    languages, before the server answers: otherwise the day's first click (a printout, the
    desk) waited a sixth of a second for them."""
    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 - imports cego_club.urls and every view
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            resolver.reverse_dict  # noqa: B018 - the patterns compiled, names to reverse


def settle_memory() -> None:
    """What the start made and keeps for the process's life (modules, views, URL patterns,
    fonts) set aside from the cyclic garbage collector, after one collection of the start's
    litter: a full collection then walks only what the requests make. Otherwise a request
    now and then paid for a collection of all of it (a tenth of a second on a busy laptop;
    the season page cold went over 100 ms in one request of about sixty)."""
    gc.collect()
    gc.freeze()
