"""How the venue serves the hall: waitress with room for every phone, and a quiet log.

waitress keeps at most ``connection_limit`` connections (its default is 100) and lets any
further one wait, unanswered, until an open one closes. 150 players' phones and a few
spectators keep more than that open between their requests, so the 101st phone saw its
deal hang. The limit is raised where the operating system lets waitress watch that many
sockets: with ``poll()`` (Linux, macOS) 1000; where only ``select()`` is there (Windows,
whose Python watches at most 512 sockets with it) 500.

Under load waitress warns "Task queue depth is N" once per queued request (192,000 lines on a
busy afternoon); :class:`OncePerInterval` lets one through a minute and counts the rest.

Phones go before spectators: :class:`TwoLanes` queues the spectators' pages behind every
other request and serves fewer of them at once while a phone's is served, and
:class:`QuietChannel` keeps waitress's loop from spinning while a thread sends a page.
Beside hundreds of spectators' connections that was not enough (one interpreter for both):
the spectators' connections are served by a second process (``venue/spectators.py``), where
these lanes still order its own requests.
"""

from __future__ import annotations

import logging
import os
import select
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable

from waitress.channel import HTTPChannel

CONNECTION_LIMIT = 1000 if hasattr(select, "poll") else 500
BACKLOG = 2048  # connections the OS holds for waitress to accept (a burst after a round)
QUEUE_WARNING_SECONDS = 60.0


def server_options() -> dict[str, object]:
    """waitress's adjustments for the venue (besides host, port and threads)."""
    return {
        "connection_limit": CONNECTION_LIMIT,
        "asyncore_use_poll": True,  # waitress falls back to select() where there is no poll()
        "backlog": BACKLOG,
        "clear_untrusted_proxy_headers": True,
    }


class OncePerInterval(logging.Filter):
    """Let one record through per ``seconds``; the next one through says how many were held."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        self.clock = clock
        self.last: float | None = None
        self.held = 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        with self.lock:
            now = self.clock()
            if self.last is not None and now - self.last < self.seconds:
                self.held += 1
                return False
            if self.held:
                record.msg = f"{record.getMessage()} (and {self.held} more held back)"
                record.args = ()
            self.last, self.held = now, 0
            return True


def quiet_queue_warnings() -> None:
    """At most one "Task queue depth" warning a minute from waitress (idempotent)."""
    queue_logger = logging.getLogger("waitress.queue")
    if not any(isinstance(f, OncePerInterval) for f in queue_logger.filters):
        queue_logger.addFilter(OncePerInterval(QUEUE_WARNING_SECONDS))


class TwoLanes:
    """waitress's task queue with a second lane: tasks ``is_crowd`` picks (spectators'
    pages) wait behind every other task (a phone's deal, the desk), each lane in order. At
    most ``crowd_threads`` crowd tasks are served at once (None: no limit), and at most
    ``crowd_beside_first`` while a task of the first lane waits or is being served.

    A thread serving a spectator shares the interpreter with the thread serving a phone, and
    a deal holds the database's write lock for its whole transaction, so the other phones'
    deals wait for whatever slows it. bench_crowd (40 phones, a spectators' crowd asking
    without pause, two runs each): beside 200 connections deal p95 74-89 ms with up to half
    the threads on the crowd, 67-71 ms with one beside a phone; beside 500 the slowest deal
    165-1,056 ms and 242-268 ms. ``condition`` is the dispatcher's (its lock guards this
    queue): a finished task wakes the threads that may now take a crowd task."""

    def __init__(
        self,
        is_crowd: Callable[[object], bool],
        *,
        crowd_threads: int | None = None,
        crowd_beside_first: int | None = None,
        condition: threading.Condition | None = None,
    ) -> None:
        self.is_crowd = is_crowd
        self.first: deque = deque()
        self.crowd: deque = deque()
        self.crowd_threads = crowd_threads
        self.crowd_beside_first = crowd_beside_first
        self.crowd_running = 0
        self.first_running = 0
        self.condition = condition or threading.Condition()

    def append(self, task: object) -> None:
        (self.crowd if self.is_crowd(task) else self.first).append(task)

    def _crowd_limit(self) -> int | None:
        if self.crowd_beside_first is not None and (self.first or self.first_running):
            return self.crowd_beside_first
        return self.crowd_threads

    def _crowd_may_go(self) -> bool:
        limit = self._crowd_limit()
        return bool(self.crowd) and (limit is None or self.crowd_running < limit)

    def popleft(self) -> object:
        if self.first:
            self.first_running += 1
            return _Served(self.first.popleft(), self._first_done)
        if not self._crowd_may_go():
            raise IndexError("no task may be served now")
        self.crowd_running += 1
        return _Served(self.crowd.popleft(), self._crowd_done)

    def _first_done(self) -> None:
        with self.condition:
            self.first_running -= 1
            if not self.first_running and not self.first:  # the crowd's full share again
                self.condition.notify(self.crowd_threads or len(self.crowd))

    def _crowd_done(self) -> None:
        with self.condition:
            self.crowd_running -= 1
            self.condition.notify()

    def __len__(self) -> int:
        return len(self.first) + len(self.crowd)

    def __bool__(self) -> bool:
        """Whether a thread may take a task now (waitress's threads wait while it is not)."""
        return bool(self.first) or self._crowd_may_go()


class _Served:
    """A task as a thread serves it: when done, the queue hears of it (its lane's count)."""

    def __init__(self, task: object, done: Callable[[], None]) -> None:
        self.task = task
        self.done = done

    def service(self) -> None:
        try:
            self.task.service()  # type: ignore[attr-defined]
        finally:
            self.done()

    def __getattr__(self, name: str) -> object:
        return getattr(self.task, name)

    def __repr__(self) -> str:
        return repr(self.task)


def crowd_channel(is_crowd: Callable[[str, str], bool]) -> Callable[[object], bool]:
    """A waitress task (a channel whose first request is parsed) → whether it is the crowd's,
    by the request's method and path."""

    def check(task: object) -> bool:
        try:
            request = task.requests[0]  # type: ignore[attr-defined]
            return is_crowd(request.command, request.path)
        except (AttributeError, IndexError):
            return False

    return check


CROWD_BESIDE_FIRST = 1  # spectators' tasks served at once while a phone's or the desk's is


def crowd_threads(threads: int) -> int:
    """How many of the venue's ``threads`` may serve spectators at once: half (at least one),
    so the other half are there for the phones and the desk."""
    return max(1, threads // 2)


class QuietChannel(HTTPChannel):
    """waitress's connection, left out of the loop's writing while a thread serves it.

    The thread serving a request sends its output itself as it writes it (waitress's
    ``write_soon``), holding the connection's output lock while it does, and wakes the loop
    when it has finished. waitress's loop still asked to be woken whenever the connection's
    socket could take data; finding the lock taken it sent nothing and asked again at once.
    Beside 200 spectators and 40 phones it went round 15,000-18,000 times a second (a count
    in the loop), used 83 % of a processor, and every pass took the interpreter from the
    threads serving the phones: a deal's transaction, which holds the database's write lock,
    took 12 ms (median) and 270 ms (p95) for 5 ms of work, and the other deals queued behind
    it. Now the loop sends for a running request only once its output passes the
    high-water mark (the serving thread waits for the loop then); the rest it sends when the
    request is done, as before."""

    def writable(self) -> bool:
        if self.will_close or self.close_when_flushed:
            return True
        if not self.total_outbufs_len:
            return False
        if not self.requests:  # no request being served: what is left is the loop's to send
            return True
        return self.total_outbufs_len > self.adj.outbuf_high_watermark


def exclusive_use(sock: socket.socket, *, windows: bool = os.name == "nt") -> None:
    """Before ``bind``: no other socket may bind this address while ``sock`` holds it.

    On Windows ``SO_REUSEADDR`` (which waitress sets on its own sockets) lets a second socket
    bind a port another one listens on, and the two share the connections: a second venue
    started there would not have been refused. ``SO_EXCLUSIVEADDRUSE`` forbids that (and a
    later ``SO_REUSEADDR`` on this socket fails, which waitress ignores). Elsewhere
    ``SO_REUSEADDR`` only lets a restarted venue bind past connections still closing, as
    waitress has it."""
    if windows:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)  # type: ignore[attr-defined]
    else:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)


def listening_sockets(*, host: str, port: int) -> list[socket.socket]:
    """The venue's bound sockets, one per address waitress would listen on for ``host`` and
    ``port``, each bound for :func:`exclusive_use`; OSError when one is taken."""
    from waitress.adjustments import Adjustments

    bound: list[socket.socket] = []
    try:
        for family, kind, proto, address in Adjustments(host=host, port=port).listen:
            sock = socket.socket(family, kind, proto)
            bound.append(sock)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            exclusive_use(sock)
            sock.bind(address)
    except OSError:
        for sock in bound:
            sock.close()
        raise
    return bound


def create_venue_server(
    app: Callable, *, host: str, port: int, threads: int, is_crowd: Callable[[str, str], bool]
):
    """waitress serving ``app`` as the venue does: the two lanes (:func:`dispatcher`), the
    quiet connections, room for every phone (:func:`server_options`), on sockets bound for
    the venue alone (:func:`listening_sockets`). Not started."""
    from waitress import create_server

    servers: dict = {}
    server = create_server(
        app,
        map=servers,
        sockets=listening_sockets(host=host, port=port),
        threads=threads,
        _dispatcher=dispatcher(threads=threads, is_crowd=is_crowd),
        **server_options(),
    )
    use_channel(servers)
    return server


def use_channel(servers: dict, channel_class: type = QuietChannel) -> None:
    """Every waitress server in ``servers`` (the map given to ``create_server``: one per
    address it listens on) makes its connections of ``channel_class``."""
    from waitress.server import BaseWSGIServer

    for server in list(servers.values()):
        if isinstance(server, BaseWSGIServer):
            server.channel_class = channel_class  # type: ignore[misc]


def dispatcher(*, threads: int, is_crowd: Callable[[str, str], bool]):
    """waitress's thread pool, with the crowd's requests in a lane of their own, served by at
    most :func:`crowd_threads` threads at once."""
    from waitress.task import ThreadedTaskDispatcher

    pool = ThreadedTaskDispatcher()
    pool.queue = TwoLanes(  # type: ignore[assignment]
        crowd_channel(is_crowd),
        crowd_threads=crowd_threads(threads),
        crowd_beside_first=CROWD_BESIDE_FIRST,
        condition=pool.queue_cv,
    )
    pool.set_thread_count(threads)
    return pool


# How often the thread holding the interpreter hands it over (Python's default: every 5 ms).
# A thread that lets go of it for SQLite (every query) waits for it back until then; beside
# the crowd's threads building pages, a phone's deal (some twenty queries) waited up to 5 ms at
# each. bench_crowd, quiet machine: deal p95 beside 200 spectators 0.7-1.7 s at 5 ms, 0.3-0.6 s
# at 0.5 ms, for the same processor time per deal.
SWITCH_INTERVAL = 0.0005


def hand_over_quickly() -> None:
    """The interpreter handed between the venue's threads every ``SWITCH_INTERVAL``."""
    sys.setswitchinterval(SWITCH_INTERVAL)
