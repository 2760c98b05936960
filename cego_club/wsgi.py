import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
application = get_wsgi_application()

# Ready before the first request (the season server's gunicorn workers, waitress-serve):
# the URLs and views loaded, and what the start made set aside from the garbage collector.
# Django's request state stays as Django keeps it here: the per-thread locals
# (``readiness.per_thread_locals``) were measured to pay in the venue only
# (docs/architecture/framework-overrides.md).
from cego_club.platform.readiness import load_urls, settle_memory  # noqa: E402

load_urls()
settle_memory()
