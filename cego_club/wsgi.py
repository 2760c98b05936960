import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
application = get_wsgi_application()

# Ready before the first request (the season server's gunicorn workers, waitress-serve):
# the URLs and views loaded, and what the start made set aside from the garbage collector.
from cego_club.readiness import load_urls, per_thread_locals, settle_memory  # noqa: E402

load_urls()
per_thread_locals()
settle_memory()
