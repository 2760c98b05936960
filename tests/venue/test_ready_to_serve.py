"""What the venue does before it answers its first request, so that the day's first click
(the score sheets of a 40-table round) does not pay for it (issue 29)."""

import gc
import threading

from django.urls import clear_url_caches, get_resolver

from cego_club.readiness import load_urls, settle_memory
from printing import drawing
from printing.receivers import fonts_at_start


def test_the_urls_are_loaded_and_reversible_in_both_languages():
    clear_url_caches()  # a resolver as a fresh process has it
    try:
        load_urls()
        resolver = get_resolver()
        # Django keeps the reverse tables per language (private: no public way to ask)
        assert {"de", "en"} <= set(resolver._reverse_dict)
        assert "tournaments" in resolver.namespace_dict
    finally:
        clear_url_caches()


def test_the_start_s_objects_are_set_aside_from_the_collector():
    assert gc.get_freeze_count() == 0
    try:
        settle_memory()
        assert gc.get_freeze_count() > 0
        assert gc.isenabled()  # the day's own objects are still collected
    finally:
        gc.unfreeze()


def test_the_fonts_are_read_before_the_server_answers():
    drawing.fonts.cache_clear()
    fonts_at_start(sender=None, publish_to=None, publish_token=None)  # at serving_started
    # read at once, in this thread: none left to share the processor with the first click
    assert drawing.fonts.cache_info().currsize == 1
    assert not any(thread.name == "printout-fonts" for thread in threading.enumerate())


def test_the_wsgi_module_is_ready_before_its_first_request(tmp_path):
    """gunicorn on the season server imports cego_club.wsgi in each worker: the URLs are
    loaded and the start's objects frozen by then (in a process of its own: freezing this
    one would outlive the test)."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    probe = (
        "import gc, cego_club.wsgi\n"
        "from django.urls import get_resolver\n"
        "assert gc.get_freeze_count() > 0, 'nothing frozen'\n"
        "assert {'de', 'en'} <= set(get_resolver()._reverse_dict), 'urls not loaded'\n"
        "print('ready')\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cego_club.settings",
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ready"


def test_the_venue_hands_the_interpreter_over_quickly():
    """Its threads take turns every half millisecond, not Python's 5 ms: a phone's query
    waits no longer for a thread building a spectator's page."""
    import sys

    from venue.serving import SWITCH_INTERVAL, hand_over_quickly

    before = sys.getswitchinterval()
    try:
        hand_over_quickly()
        assert sys.getswitchinterval() == SWITCH_INTERVAL < before
    finally:
        sys.setswitchinterval(before)
