"""The venue's front (cego_club/platform/front.py): spectators' shared pages answered in front of Django,
kept by the tournament's revision: the same page and headers as Django's, never stale after a
deal, never for a reader with a session or a message; and the phones' lane in waitress's
queue (venue/serving.py)."""

import io
import threading
import time
from types import SimpleNamespace

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.urls import reverse

from cego_club.platform.front import KEPT, ROUTES, SharedPages, is_crowd, offer, share
from tests.tournaments.standings.conftest import cego
from tournaments.caching import RECENT_REVISIONS
from tournaments.models import Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.services.phone_entry import enter_deal
from tournaments.tables_standings import signed_html
from venue.serving import TwoLanes, crowd_channel

pytestmark = pytest.mark.django_db


class Counting:
    """Django's WSGI application, counting the requests that reach it."""

    def __init__(self):
        self.app = WSGIHandler()
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.app(environ, start_response)


@pytest.fixture
def django_app():
    # As Django's test client does: the test's transaction stays open across requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield Counting()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def front(django_app):
    KEPT.clear()  # another test's tournament may have had the same id and revision
    RECENT_REVISIONS.forget()
    yield SharedPages(django_app)
    KEPT.clear()


def get(app, path, query="", cookie="", **headers):
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(),
        "HTTP_COOKIE": cookie,
        **headers,
    }
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = status, dict(headers)

    body = b"".join(app(environ, start_response))
    return answer["status"], answer["headers"], body.decode()


def standings_path(tournament, name="standings"):
    return reverse(f"tournaments:{name}", kwargs={"pk": tournament.pk})


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("standings", ""),
        ("standings", "partial=1"),
        ("projector", "partial=1"),
        ("projector", ""),  # the whole projector page too (issue 43)
    ],
)
def test_a_spectators_page_is_django_s_page_and_a_deal_shows_at_once(
    front, django_app, tournament, one_table, name, query
):
    path = standings_path(tournament, name)
    status, headers, first = get(front, path, query)
    assert status.startswith("200") and django_app.calls == 1
    status, kept_headers, again = get(front, path, query)
    assert django_app.calls == 1  # answered in front of Django
    assert status.startswith("200") and "\x00" not in again  # the clock put in
    # the same headers as Django gave (CSP, no-store, language, …), the length recounted
    assert {k: v for k, v in kept_headers.items() if k != "Content-Length"} == {
        k: v for k, v in headers.items() if k != "Content-Length"
    }
    assert int(kept_headers["Content-Length"]) == len(again.encode())
    assert kept_headers["Cache-Control"] == "no-store"
    assert "Content-Security-Policy" in kept_headers

    enter_deal(table=one_table, number=2, inputs=cego(1, 61))  # bumps the revision
    _status, _headers, after = get(front, path, query)
    assert django_app.calls == 2  # a new revision: Django builds it
    leader = tournament_standings(tournament=Tournament.objects.get(pk=tournament.pk)).rows[0]
    assert signed_html(leader.total) in after and signed_html(leader.total) not in first
    get(front, path, query)
    assert django_app.calls == 2


def test_a_reader_with_a_session_or_a_message_goes_to_django(front, django_app, tournament):
    path = standings_path(tournament)
    get(front, path)
    get(front, path)
    assert django_app.calls == 1
    get(front, path, cookie="sessionid=abc")
    get(front, path, cookie="messages=xyz")
    get(front, path, query="utm=x")  # another query string
    assert django_app.calls == 4


def test_languages_and_htmx_are_kept_apart(front, django_app, tournament, one_table):
    path = standings_path(tournament)
    _s, _h, german = get(front, path)
    _s, _h, english = get(front, path, cookie="django_language=en")
    assert '<html lang="de">' in german and '<html lang="en">' in english
    assert '<html lang="en">' in get(front, path, cookie="django_language=en")[2]
    # htmx asks for the live part at the page's own address
    _s, _h, live = get(front, path, HTTP_HX_REQUEST="true")
    assert "<html" not in live and "<html" in german
    assert "<html" not in get(front, path, HTTP_HX_REQUEST="true")[2]
    assert "<html" in get(front, path)[2]
    assert django_app.calls == 3


def test_an_unknown_tournament_and_other_pages_go_to_django(front, django_app, tournament):
    assert get(front, "/tournaments/999999/standings/")[0].startswith("404")
    assert get(front, "/tournaments/999999/standings/")[0].startswith("404")
    assert django_app.calls == 2
    assert is_crowd("GET", standings_path(tournament))
    assert is_crowd("GET", standings_path(tournament, "projector"))
    assert not is_crowd("POST", standings_path(tournament))
    assert not is_crowd("GET", "/t/abc/")


def test_phones_go_before_the_crowd_in_the_queue():
    def task(command, path):
        return SimpleNamespace(requests=[SimpleNamespace(command=command, path=path)])

    lanes = TwoLanes(crowd_channel(is_crowd))
    spectators = [task("GET", "/tournaments/1/standings/") for _ in range(3)]
    for spectator in spectators[:2]:
        lanes.append(spectator)
    phone, page = task("POST", "/t/abc/"), task("GET", "/t/abc/")
    lanes.append(phone)
    lanes.append(spectators[2])
    lanes.append(page)
    lanes.append(SimpleNamespace())  # a channel without a parsed request: the first lane
    assert len(lanes) == 6 and lanes
    order = [getattr(task, "task", task) for task in (lanes.popleft() for _ in range(6))]
    assert order[:2] == [phone, page] and order[3:] == spectators
    assert not lanes


class SlowPage:
    """A shared page that takes its time to build (as the standings after a deal), counting
    its builds; ``release`` lets the builds finish."""

    def __init__(self):
        self.calls = 0
        self.lock = threading.Lock()
        self.release = threading.Event()
        self.revision = 1
        self.moving = False  # a deal arrives while every build runs

    def version(self):
        with self.lock:
            if self.moving:
                self.revision += 1
            return self.revision

    def __call__(self, environ, start_response):
        with self.lock:
            self.calls += 1
        self.release.wait(5)
        offer(b"<p>standings</p>")
        start_response("200 OK", [("Content-Type", "text/html")])
        return [b"<p>standings</p>"]


@pytest.fixture
def slow_page():
    page = SlowPage()
    share(
        r"/single-flight/",
        queries={""},
        version=lambda match: page.version(),
        finish=lambda body: body,
    )
    KEPT.clear()
    yield page
    ROUTES[:] = [route for route in ROUTES if route.pattern.pattern != r"/single-flight/"]
    KEPT.clear()


def spectators(app, count):
    """``count`` spectators asking for the page at once; their answers."""
    answers = []

    def ask():
        answers.append(get(app, "/single-flight/"))

    threads = [threading.Thread(target=ask) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, answers


def test_a_missed_page_is_built_once_for_all_who_ask_at_once(slow_page):
    threads, answers = spectators(SharedPages(slow_page), 6)
    time.sleep(0.3)  # all six have asked: one builds, five wait for it
    slow_page.release.set()
    for thread in threads:
        thread.join(10)
    assert slow_page.calls == 1
    assert [body for _status, _headers, body in answers] == ["<p>standings</p>"] * 6


def test_a_build_that_kept_nothing_lets_each_waiting_spectator_build(slow_page):
    slow_page.moving = True  # so each spectator's key is its own, and no build is kept
    threads, answers = spectators(SharedPages(slow_page), 3)
    time.sleep(0.3)
    slow_page.release.set()
    for thread in threads:
        thread.join(10)
    assert slow_page.calls == 3
    assert [body for _status, _headers, body in answers] == ["<p>standings</p>"] * 3
    assert not KEPT.answers  # nothing kept under a version that moved


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_the_front_reads_a_revision_once_in_its_max_age_and_again_after_a_bump(
    tournament, one_table, django_assert_num_queries
):
    from tournaments.caching import RecentRevisions, revisions_moved

    clock = FakeClock()
    recent = RecentRevisions(max_age=0.1, clock=clock)
    first = recent.revision(tournament.pk)
    with django_assert_num_queries(0):
        assert recent.revision(tournament.pk) == first  # 500 spectators: one query

    # A change made in this process: forgotten at once, before its commit and again at it.
    enter_deal(table=one_table, number=2, inputs=cego(1, 61))
    # (the service calls revisions_moved on the shared instance; this one is told here)
    recent.forget()
    with django_assert_num_queries(1):
        assert recent.revision(tournament.pk) == first + 1

    # A change written by another process (no revisions_moved here): seen after max_age.
    Tournament.objects.filter(pk=tournament.pk).update(revision=first + 5)
    assert recent.revision(tournament.pk) == first + 1
    clock.now += 0.15
    assert recent.revision(tournament.pk) == first + 5
    revisions_moved()  # the shared instance's, outside a transaction of its own: no error


def test_a_bump_in_this_process_reaches_the_front_s_revisions(tournament, one_table):
    from tournaments.caching import RECENT_REVISIONS

    RECENT_REVISIONS.forget()  # another test's tournament may have had the same id
    before = RECENT_REVISIONS.revision(tournament.pk)
    enter_deal(table=one_table, number=2, inputs=cego(1, 61))
    assert RECENT_REVISIONS.revision(tournament.pk) == before + 1  # not the kept one


def test_a_revision_read_while_it_moved_is_not_kept(tournament, monkeypatch):
    from tournaments import caching

    recent = caching.RecentRevisions(max_age=10, clock=FakeClock())
    read = caching.current_revision
    reads = []

    def moved_meanwhile(tournament_id):
        reads.append(tournament_id)
        value = read(tournament_id)
        recent.forget()  # a bump committed in another thread while this one read
        return value

    monkeypatch.setattr(caching, "current_revision", moved_meanwhile)
    recent.revision(tournament.pk)
    recent.revision(tournament.pk)
    assert len(reads) == 2  # the first reading was not trusted


def test_a_tournament_saved_reaches_the_front_s_revisions_at_its_commit(
    tournament, django_capture_on_commit_callbacks
):
    from tournaments.caching import RECENT_REVISIONS

    RECENT_REVISIONS.forget()  # another test's tournament may have had the same id
    before = RECENT_REVISIONS.revision(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        tournament.name = "Umbenannt"
        tournament.save()
    assert RECENT_REVISIONS.revision(tournament.pk) == before + 1


def test_the_crowd_is_served_by_at_most_its_threads_and_a_phone_by_another():
    """waitress's own pool with the venue's queue: four threads, two for the crowd at most.
    Six spectators' pages that take their time occupy two threads; a phone's deal that
    arrives after them is served at once by a third, and every spectator is served."""
    from venue.serving import dispatcher

    release = threading.Event()
    crowd = Crowd(release)
    pool = dispatcher(threads=4, is_crowd=is_crowd)
    try:
        for _ in range(6):
            pool.add_task(PoolTask("GET", "/tournaments/1/standings/", crowd.serve, crowd.served))
        time.sleep(0.2)
        pool.add_task(PoolTask("POST", "/t/abc/", lambda: None, crowd.served))
        assert until(lambda: "/t/abc/" in crowd.served)
        assert crowd.served == ["/t/abc/"]  # the phone, while the crowd's two threads wait
        assert crowd.most == 2
        release.set()
        assert until(lambda: len(crowd.served) == 7)
        assert crowd.most == 2
    finally:
        release.set()
        pool.shutdown(timeout=2)


class PoolTask:
    """A task as waitress's pool hands it over: its parsed request; ``serve`` is what
    serving it does."""

    def __init__(self, command, path, serve, served=None):
        self.requests = [SimpleNamespace(command=command, path=path)]
        self.path = path
        self.serve = serve
        self.served = served

    def service(self):
        self.serve()
        if self.served is not None:
            self.served.append(self.path)


class Crowd:
    """Spectators' tasks that wait for ``release``, counting how many are served at once;
    ``served`` lists every task's path as it finishes (the crowd's and the phones')."""

    def __init__(self, release):
        self.release = release
        self.running = self.most = 0
        self.lock = threading.Lock()
        self.served = []

    def serve(self):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        self.release.wait(5)
        with self.lock:
            self.running -= 1


def until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_a_clock_with_seconds_is_put_in_once_a_second(monkeypatch):
    """A route whose ``finish`` changes once a second at most (the standings' clock): the
    finished page is reused within the second, worked out again in the next one and for a
    new page."""
    from cego_club.platform import front as front_module

    stamps = []
    page = SimpleNamespace(revision=1, body=b"<p>at \x00</p>")

    def stamp(body):
        stamps.append(body)
        return body.replace(b"\x00", str(int(now[0])).encode())

    def django_page(environ, start_response):
        offer(page.body)
        start_response("200 OK", [("Content-Type", "text/html")])
        return [page.body]

    now = [1000.2]
    monkeypatch.setattr(front_module.time, "time", lambda: now[0])
    share(
        r"/per-second/",
        queries={""},
        version=lambda match: page.revision,
        finish=stamp,
        finish_per_second=True,
    )
    KEPT.clear()
    try:
        app = SharedPages(django_page)
        get(app, "/per-second/")  # Django's answer, kept
        answers = [get(app, "/per-second/")[2] for _ in range(3)]
        assert answers == ["<p>at 1000</p>"] * 3 and len(stamps) == 1
        now[0] = 1001.0
        assert get(app, "/per-second/")[2] == "<p>at 1001</p>" and len(stamps) == 2
        page.revision, page.body = 2, b"<p>new at \x00</p>"
        get(app, "/per-second/")  # Django builds the new revision's page
        assert get(app, "/per-second/")[2] == "<p>new at 1001</p>" and len(stamps) == 3
    finally:
        ROUTES[:] = [route for route in ROUTES if route.pattern.pattern != r"/per-second/"]
        KEPT.clear()


def test_beside_a_phone_one_spectator_is_served_at_a_time():
    """While a phone's deal is being served (its transaction holds the database's write
    lock), one thread serves the crowd, not the crowd's two: a thread building a spectator's
    page takes the interpreter from the deal. Once the deal is done, the crowd has its two
    threads again, and every spectator is served."""
    from venue.serving import dispatcher

    phone_release, crowd_release = threading.Event(), threading.Event()
    crowd = Crowd(crowd_release)
    pool = dispatcher(threads=4, is_crowd=is_crowd)
    try:
        pool.add_task(PoolTask("POST", "/t/abc/", lambda: phone_release.wait(5)))
        time.sleep(0.1)  # the phone is being served
        for _ in range(4):
            pool.add_task(PoolTask("GET", "/tournaments/1/standings/", crowd.serve, crowd.served))
        assert until(lambda: crowd.most == 1)
        time.sleep(0.2)
        assert crowd.most == 1  # two threads idle, and still one spectator at a time
        phone_release.set()
        assert until(lambda: crowd.most == 2)  # the deal done: the crowd's two threads
        crowd_release.set()
        assert until(lambda: len(crowd.served) == 4)
        assert crowd.most == 2
    finally:
        phone_release.set()
        crowd_release.set()
        pool.shutdown(timeout=2)
