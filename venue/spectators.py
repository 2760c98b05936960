"""The spectators' process: the crowd's connections served beside the phones, not among them.

Beside 500 spectators' connections a phone's deal waited seconds in the venue's one process
(issue 43; py-spy and the figures in ``bench/bench_crowd.py``): the threads building and sending
the crowd's pages (the standings are built again after every deal and confirmation, 78 kB a
page sent to every connection) and waitress's loop share one interpreter lock with the thread
serving the phone, and that thread holds the database's write lock while it waits for the
interpreter, so the other phones' deals queue behind it. Limits on the crowd's threads inside
the process (:class:`venue.serving.TwoLanes`) only shorten that queue.

So the venue starts a second process of itself (``multiprocessing``'s *spawn*, as Windows
starts every process) that serves only spectators, at a lower priority than the first
(``nice`` 10; ``BELOW_NORMAL_PRIORITY_CLASS`` on Windows): the operating system schedules the two,
and a phone's thread never waits for a spectator's page to let go of an interpreter. Both
read the same SQLite file (WAL: the second reads while the first writes; the front's revision
is read again every 0.1 s, ``tournaments.caching.RecentRevisions``).

Everyone connects to the one port of the first process. When a connection is about to send a
request (nothing of an earlier one left to read or to answer), its process looks at the
request's head without taking it off the socket (``MSG_PEEK``); :func:`for_spectators` says
whose it is: a GET of a spectators' page (``front.is_crowd``) without a session or messages
cookie. A connection in the wrong process is handed to the other one (the socket itself:
``SCM_RIGHTS`` through a local socket pair, ``socket.share`` on Windows) and that process
reads the request. A spectator's browser that signs in, or a phone that opens the standings,
is handed back at its next request. What cannot be handed over (the second process not yet
started, or gone) is served where it is: both processes are the whole venue.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import socket
import sys
import threading
from collections.abc import Callable
from multiprocessing import reduction

from venue.serving import QuietChannel

logger = logging.getLogger("venue.spectators")

SPECTATOR_THREADS = 6  # waitress's lanes let half of them build or send pages at once
PEEK_BYTES = 8192  # a request's head beyond this is left where it is
# A connection handed over is read in the other process; one that arrives there whose head is
# not complete yet is served there (no handing to and fro).


def request_head(data: bytes) -> tuple[str, str, str] | None:
    """(method, path without its query, the Cookie header) of the request at the start of
    ``data``, or None if its head is not complete in ``data`` or not HTTP."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = data[:end].split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return None
    cookies = [
        line.split(b":", 1)[1].strip() for line in lines[1:] if line[:7].lower() == b"cookie:"
    ]
    try:
        method = parts[0].decode("ascii")
        path = parts[1].split(b"?", 1)[0].decode("latin-1")
        cookie = b"; ".join(cookies).decode("latin-1")
    except UnicodeDecodeError:
        return None
    return method, path, cookie


def for_spectators(
    data: bytes, *, is_crowd: Callable[[str, str], bool], private_cookies: tuple[str, ...]
) -> bool | None:
    """Whether the request at the start of ``data`` is a spectator's: a GET of a page
    ``is_crowd`` names, without any of ``private_cookies`` (a session, messages). None: its
    head is not complete yet (it stays where it is)."""
    from django.http import parse_cookie

    head = request_head(data)
    if head is None:
        return None
    method, path, cookie = head
    if not is_crowd(method, path):
        return False
    if cookie:
        cookies = parse_cookie(cookie)
        if any(name in cookies for name in private_cookies):
            return False
    return True


class Handover:
    """Sockets sent to the other process (``send``, from any thread: a thread of its own
    sends them, so waitress's loop never waits for the pipe) and taken from it (``receive``,
    by one thread). ``connection`` is one end of a duplex ``multiprocessing`` pipe used in one
    direction (a socket pair where there is ``SCM_RIGHTS``)."""

    def __init__(self, connection, *, peer_pid: int | None = None) -> None:
        self.connection = connection
        self.peer_pid = peer_pid
        self.alive = peer_pid is not None
        self.outgoing: queue.SimpleQueue = queue.SimpleQueue()
        self.fallback: Callable[[socket.socket, object], None] | None = None
        self.lock = threading.Lock()

    def start_sending(self, fallback: Callable[[socket.socket, object], None]) -> None:
        """``fallback(sock, addr)``: where a socket goes that could not be sent."""
        self.fallback = fallback
        threading.Thread(target=self._send_loop, name="venue-handover", daemon=True).start()

    def send(self, sock: socket.socket, addr: object) -> None:
        self.outgoing.put((sock, addr))

    def _send_loop(self) -> None:
        while True:
            sock, addr = self.outgoing.get()
            try:
                if not self.alive:
                    raise OSError("the other process is not there")
                self._send_now(sock, addr)
            except (OSError, EOFError, ValueError):
                self.alive = False
                if self.fallback is not None:
                    self.fallback(sock, addr)  # served here after all
                continue
            sock.close()  # the other process holds it now

    def _send_now(self, sock: socket.socket, addr: object) -> None:
        if sys.platform == "win32":
            self.connection.send(("socket", addr, sock.share(self.peer_pid)))
        else:
            self.connection.send(("socket", addr, None))
            reduction.send_handle(self.connection, sock.fileno(), self.peer_pid)

    def say_ready(self) -> None:
        self.connection.send(("ready", os.getpid(), None))

    def receive(self) -> tuple[str, object, socket.socket | int | None]:
        """The next message: ("socket", addr, the socket) or ("ready", the sender's pid,
        None). EOFError or OSError when the other process is gone."""
        kind, value, shared = self.connection.recv()
        if kind != "socket":
            return kind, value, None
        if sys.platform == "win32":
            return kind, value, socket.fromshare(shared)
        fd = reduction.recv_handle(self.connection)
        return kind, value, socket.socket(fileno=fd)


class HandingChannel(QuietChannel):
    """The venue's connection that, between requests, hands itself to the other process
    when its next request belongs there (``server.belongs_elsewhere``, ``server.handover``,
    set by :func:`hand_connections`)."""

    handed = False

    def handle_read(self) -> None:
        if self.request is None and not self.requests and self._hand_over_if_elsewhere():
            return
        super().handle_read()

    def _hand_over_if_elsewhere(self) -> bool:
        server = self.server
        handover = getattr(server, "handover", None)
        if handover is None or not handover.alive:
            return False
        try:
            data = self.socket.recv(PEEK_BYTES, socket.MSG_PEEK)
        except OSError:
            return False  # waitress's own read finds out
        if not data or not server.belongs_elsewhere(data):
            return False
        with self.outbuf_lock:
            for outbuf in self.outbufs:
                with contextlib.suppress(Exception):
                    outbuf.close()
            self.total_outbufs_len = 0
        sock, addr = self.socket, self.addr
        self.del_channel()  # out of the loop, the socket left open
        self.connected = False
        self.handed = True
        handover.send(sock, addr)
        return True


def hand_connections(server, handover: Handover, belongs_elsewhere: Callable[[bytes], bool]):
    """``server`` (waitress's, created with the venue's channel) hands connections whose
    next request ``belongs_elsewhere`` to the other process through ``handover``, and serves
    the ones the other process hands to it (a thread receiving them)."""
    from waitress.server import BaseWSGIServer

    from venue.serving import use_channel

    servers = server._map if isinstance(server, BaseWSGIServer) else server.map
    for each in _servers_of(server):
        each.handover = handover
        each.belongs_elsewhere = belongs_elsewhere
    use_channel(servers, HandingChannel)
    first = _servers_of(server)[0]

    def serve_here(sock: socket.socket, addr: object) -> None:
        # in the loop's thread: the map is the loop's
        first.trigger.pull_trigger(
            lambda: first.channel_class(first, sock, addr, first.adj, map=first._map)
        )

    handover.start_sending(serve_here)
    return serve_here


def _servers_of(server) -> list:
    from waitress.server import BaseWSGIServer

    if isinstance(server, BaseWSGIServer):
        return [server]
    return [s for s in server.map.values() if isinstance(s, BaseWSGIServer)]


def receive_connections(
    handover: Handover,
    serve_here: Callable[[socket.socket, object], None],
    *,
    on_ready: Callable[[int], None] | None = None,
    on_gone: Callable[[], None] | None = None,
) -> threading.Thread:
    """A thread taking the other process's sockets and serving them here."""

    def run() -> None:
        while True:
            try:
                kind, value, sock = handover.receive()
            except (EOFError, OSError):
                if on_gone is not None:
                    on_gone()
                return
            if kind == "ready" and on_ready is not None:
                on_ready(value)  # type: ignore[arg-type]
            elif kind == "socket" and sock is not None:
                sock.setblocking(False)
                serve_here(sock, value)

    thread = threading.Thread(target=run, name="venue-handed", daemon=True)
    thread.start()
    return thread


def lower_priority() -> None:
    """This process yields the processor to the venue's first (the phones')."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(10)
    elif sys.platform == "win32":  # pragma: no cover - Windows only
        import ctypes

        below_normal = 0x4000
        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), below_normal)


class SpectatorsProcess:
    """The second process, seen from the first: started (spawn), its sockets to and from.
    ``ready`` is set once it serves; ``alive`` on the handover says whether to send to it."""

    def __init__(self, *, public_base_url: str) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # as on Windows, everywhere
        to_child, child_in = context.Pipe(duplex=True)
        from_child, child_out = context.Pipe(duplex=True)
        self.process = context.Process(
            target=spectators_main,
            args=(child_in, child_out, os.getpid(), public_base_url),
            name="cego-club-spectators",
            daemon=True,
        )
        self.process.start()
        child_in.close()
        child_out.close()
        self.to_child = Handover(to_child)  # not alive until the child says it is ready
        self.from_child = Handover(from_child)
        self.ready = threading.Event()

    def attach(
        self,
        server,
        belongs_there: Callable[[bytes], bool],
        *,
        when_ready: Callable[[], None] | None = None,
    ) -> None:
        """``server`` hands it the connections ``belongs_there`` says are spectators' once it
        is ready (then ``when_ready()``), and serves those it hands back."""
        serve_here = hand_connections(server, self.to_child, belongs_there)

        def on_ready(pid: int) -> None:
            self.to_child.peer_pid = pid
            self.to_child.alive = True
            self.ready.set()
            if when_ready is not None:
                when_ready()

        def on_gone() -> None:
            self.to_child.alive = False
            logger.warning("The spectators' process has stopped; this process serves them.")

        receive_connections(self.from_child, serve_here, on_ready=on_ready, on_gone=on_gone)

    def stop(self) -> None:
        self.to_child.alive = False
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=5)


def spectators_main(incoming, outgoing, parent_pid: int, public_base_url: str) -> None:
    """The second process (spawned: a fresh interpreter with the first's environment)."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.wsgi import get_wsgi_application

    from cego_club.platform.front import front, is_crowd
    from cego_club.platform.readiness import load_urls, per_thread_locals, settle_memory
    from venue.serving import create_venue_server, hand_over_quickly, quiet_queue_warnings

    if public_base_url:
        settings.PUBLIC_BASE_URL = public_base_url
    load_urls()
    quiet_queue_warnings()
    server = create_venue_server(
        front(get_wsgi_application()),
        host="127.0.0.1",  # its own listening socket is never told to anyone
        port=0,
        threads=SPECTATOR_THREADS,
        is_crowd=is_crowd,
    )
    back = Handover(outgoing, peer_pid=parent_pid)
    private = private_cookies()
    serve_here = hand_connections(
        server,
        back,
        lambda data: for_spectators(data, is_crowd=is_crowd, private_cookies=private) is False,
    )
    taken = Handover(incoming)

    def parent_gone() -> None:
        os._exit(0)  # the venue stopped (or was killed): nothing of this process is left

    receive_connections(taken, serve_here, on_gone=parent_gone)
    settle_memory()
    per_thread_locals()
    hand_over_quickly()
    # Ready: from now on the phones go first. (Not before: started at a lower priority on a
    # busy laptop, the process took minutes to import Django while the first served all.)
    lower_priority()
    back.say_ready()
    server.run()


def private_cookies() -> tuple[str, ...]:
    """The cookies that make a reader's page their own (the front's conditions)."""
    from django.conf import settings

    from cego_club.platform.front import MESSAGES_COOKIE

    return (settings.SESSION_COOKIE_NAME, MESSAGES_COOKIE)
