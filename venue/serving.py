"""How the venue serves the hall: waitress with room for every phone, and a quiet log.

waitress keeps at most ``connection_limit`` connections (its default is 100) and lets any
further one wait, unanswered, until an open one closes. 150 players' phones and a few
spectators keep more than that open between their requests, so the 101st phone saw its
deal hang. The limit is raised where the operating system lets waitress watch that many
sockets: with ``poll()`` (Linux, macOS) 1000; where only ``select()`` is there (Windows,
whose Python watches at most 512 sockets with it) 500.

Under load waitress warns "Task queue depth is N" once per queued request (192,000 lines on a
busy afternoon); :class:`OncePerInterval` lets one through a minute and counts the rest.
"""

from __future__ import annotations

import logging
import select
import sys
import threading
import time
from collections import deque
from collections.abc import Callable

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
    pages) wait behind every other task (a phone's deal, the desk), each lane in order; and
    at most ``crowd_threads`` of them are served at once (None: no limit). A thread serving
    a spectator shares the interpreter with the thread serving a phone: with every thread on
    the crowd's pages, a phone's deal got an eighth of it. ``condition`` is the dispatcher's
    (its lock guards this queue): a finished crowd task wakes a thread for the next one."""

    def __init__(
        self,
        is_crowd: Callable[[object], bool],
        *,
        crowd_threads: int | None = None,
        condition: threading.Condition | None = None,
    ) -> None:
        self.is_crowd = is_crowd
        self.first: deque = deque()
        self.crowd: deque = deque()
        self.crowd_threads = crowd_threads
        self.crowd_running = 0
        self.condition = condition or threading.Condition()

    def append(self, task: object) -> None:
        (self.crowd if self.is_crowd(task) else self.first).append(task)

    def _crowd_may_go(self) -> bool:
        return bool(self.crowd) and (
            self.crowd_threads is None or self.crowd_running < self.crowd_threads
        )

    def popleft(self) -> object:
        if self.first:
            return self.first.popleft()
        if not self._crowd_may_go():
            raise IndexError("no task may be served now")
        self.crowd_running += 1
        return _CrowdTask(self.crowd.popleft(), self._crowd_done)

    def _crowd_done(self) -> None:
        with self.condition:
            self.crowd_running -= 1
            self.condition.notify()

    def __len__(self) -> int:
        return len(self.first) + len(self.crowd)

    def __bool__(self) -> bool:
        """Whether a thread may take a task now (waitress's threads wait while it is not)."""
        return bool(self.first) or self._crowd_may_go()


class _CrowdTask:
    """A crowd's task as a thread serves it: when done, its place is free for the next."""

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


def crowd_threads(threads: int) -> int:
    """How many of the venue's ``threads`` may serve spectators at once: half (at least one),
    so the other half are there for the phones and the desk."""
    return max(1, threads // 2)


def dispatcher(*, threads: int, is_crowd: Callable[[str, str], bool]):
    """waitress's thread pool, with the crowd's requests in a lane of their own, served by at
    most :func:`crowd_threads` threads at once."""
    from waitress.task import ThreadedTaskDispatcher

    pool = ThreadedTaskDispatcher()
    pool.queue = TwoLanes(  # type: ignore[assignment]
        crowd_channel(is_crowd), crowd_threads=crowd_threads(threads), condition=pool.queue_cv
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
