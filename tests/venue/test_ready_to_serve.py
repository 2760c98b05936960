"""What the venue does before it answers its first request, so that the day's first click
(the score sheets of a 40-table round) does not pay for it (issue 29)."""

import gc
import threading

from django.urls import clear_url_caches, get_resolver

from cego_club.platform.readiness import load_urls, settle_memory
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
    loaded and the start's objects frozen by then, and Django's request state is left as
    Django keeps it (the venue's per-thread locals were measured there only). In a process
    of its own: freezing this one would outlive the test."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    probe = (
        "import gc, cego_club.wsgi\n"
        "from django.urls import get_resolver\n"
        "assert gc.get_freeze_count() > 0, 'nothing frozen'\n"
        "assert {'de', 'en'} <= set(get_resolver()._reverse_dict), 'urls not loaded'\n"
        "import threading\n"
        "from django.utils.translation import trans_real\n"
        "storage = trans_real._active._storage\n"
        "assert not isinstance(storage, threading.local), 'the venue s per-thread locals'\n"
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


def test_django_s_request_state_is_per_thread_without_a_shared_lock():
    """The active language, time zone, URL prefix and cache connections: each thread keeps its
    own, and reading them never waits for another thread (asgiref's default keeps one lock
    for all threads, which queued the venue's threads behind each other)."""
    from importlib import import_module

    from django.core.cache import caches
    from django.utils import translation

    from cego_club.platform.readiness import _REQUEST_LOCALS, per_thread_locals

    places = [(import_module(module), name) for module, name in _REQUEST_LOCALS]
    places.append((caches, "_connections"))
    before = [getattr(owner, name) for owner, name in places]
    try:
        per_thread_locals()
        for owner, name in places:
            local = getattr(owner, name)
            assert local is not before[places.index((owner, name))]
            assert not hasattr(local, "_lock"), f"{owner}.{name} still has a shared lock"

        # Another thread holding the old shared lock does not hold up this thread's reads.
        blocker_holds, release = threading.Event(), threading.Event()

        def hold_the_old_lock():
            with before[0]._lock:
                blocker_holds.set()
                release.wait(5)

        blocker = threading.Thread(target=hold_the_old_lock)
        blocker.start()
        blocker_holds.wait(5)
        seen = {}

        def read_in_a_thread(code):
            with translation.override(code):
                seen[code] = translation.get_language()
                caches["default"].get("anything")

        readers = [threading.Thread(target=read_in_a_thread, args=(c,)) for c in ("de", "en")]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join(2)
        release.set()
        blocker.join()
        assert seen == {"de": "de", "en": "en"}  # each thread its own language, none waited
    finally:
        for (owner, name), local in zip(places, before, strict=True):
            setattr(owner, name, local)
