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


# Django's request-wide state that asgiref keeps per async context behind one lock shared by
# all threads: the active language (read by every gettext and reverse), the time zone, the URL
# prefix and urlconf, and the cache connections. Every read took that lock; under waitress's
# threads, with the interpreter handed over every half millisecond, a thread holding it was
# often paused and the others queued behind it. py-spy on the venue, 40 phones flat out: a
# third of its request threads' samples were waiting for that lock. A WSGI server answers each
# request in one thread and nothing here runs async code, so per-thread storage
# (threading.local, as Django had before 3.0) keeps exactly the same values apart.
_REQUEST_LOCALS = (
    ("django.utils.translation.trans_real", "_active"),
    ("django.utils.timezone", "_active"),
    ("django.urls.base", "_prefixes"),
    ("django.urls.base", "_urlconfs"),
)


def per_thread_locals() -> None:
    """Django's request-wide state kept per thread, without a lock shared by all threads, in
    a WSGI server's process (the venue, `cego_club.wsgi`); call it before the first request."""
    from importlib import import_module

    from asgiref.local import Local
    from django.core.cache import caches

    for module_name, attribute in _REQUEST_LOCALS:
        setattr(import_module(module_name), attribute, Local(thread_critical=True))
    caches._connections = Local(thread_critical=True)
