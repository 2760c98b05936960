"""The venue serves every phone in the hall: a new connection is answered while hundreds of
others stay open, and waitress's queue warnings come at most once a minute."""

import hashlib
import logging
import socket
import threading
import time

import pytest
from waitress import create_server, wasyncore

from tests.servers import Phone, clean_env, seed_venue, start_venue, stored
from venue.serving import (
    CONNECTION_LIMIT,
    OncePerInterval,
    QuietChannel,
    TwoLanes,
    create_venue_server,
    quiet_queue_warnings,
    use_channel,
)


def test_queue_warnings_come_once_a_minute_and_count_the_rest():
    now = [0.0]
    quiet = OncePerInterval(60, clock=lambda: now[0])

    def record():
        return logging.LogRecord(
            "waitress.queue", logging.WARNING, "", 0, "Task queue depth is %d", (3,), None
        )

    passed = [quiet.filter(record()) for _ in range(1000)]
    assert passed.count(True) == 1 and passed[0]
    now[0] = 61.0
    later = record()
    assert quiet.filter(later)
    assert later.getMessage() == "Task queue depth is 3 (and 999 more held back)"
    assert not quiet.filter(record())


def test_the_filter_is_put_on_waitress_queue_logger_once():
    queue_logger = logging.getLogger("waitress.queue")
    before = list(queue_logger.filters)
    try:
        quiet_queue_warnings()
        quiet_queue_warnings()
        assert sum(isinstance(f, OncePerInterval) for f in queue_logger.filters) == 1
    finally:
        queue_logger.filters[:] = before


class CountedLoop:
    """waitress's poll loop, counting its passes."""

    def __init__(self, monkeypatch):
        self.passes = 0
        poll = wasyncore.poll2

        def counted(timeout=0.0, map=None):
            self.passes += 1
            return poll(timeout, map)

        monkeypatch.setattr(wasyncore, "poll2", counted)


def _serve(app, **adjustments):
    """``app`` on waitress as the venue serves it (its channel, poll()), in this process."""
    servers: dict = {}
    server = create_server(
        app,
        host="127.0.0.1",
        port=0,
        threads=2,
        map=servers,
        asyncore_use_poll=True,
        **adjustments,
    )
    use_channel(servers)
    threading.Thread(target=server.run, daemon=True).start()
    return server, servers


def _stop(server, servers):
    server.task_dispatcher.shutdown(timeout=2)
    for channel in list(servers.values()):
        channel.close()


def _ask(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=10)
    client.sendall(b"GET / HTTP/1.1\r\nHost: hall\r\nConnection: close\r\n\r\n")
    return client


def _read_all(client: socket.socket, pause: float = 0.0) -> bytes:
    parts = []
    while chunk := client.recv(65536):
        parts.append(chunk)
        time.sleep(pause)
    return b"".join(parts)


def test_the_loop_sleeps_while_the_serving_thread_sends(monkeypatch):
    """While a thread serves a request it sends its output itself, holding the connection's
    output lock as it does. waitress's loop still asked to be woken whenever the connection
    could take data, found the lock taken, sent nothing and asked again: beside 200
    spectators and 40 phones it went round 15,000 times a second, and every pass took the
    interpreter from the threads serving the phones. Here a page larger than the socket takes
    waits half sent while the test holds the lock as the serving thread would; the client
    reads, so the socket could take more. The venue's loop sleeps meanwhile (waitress's
    spun), and the page arrives whole."""
    loop = CountedLoop(monkeypatch)
    release = threading.Event()
    # more than the sockets on both ends hold (Linux lets them grow to 4 + 6 MB), less than
    # the high-water mark (16 MB), where the loop must send for the waiting thread
    first, rest = b"f" * 12_000_000, b"r" * 100_000

    def app(environ, start_response):
        length = str(len(first) + len(rest))
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", length)])
        yield first
        release.wait(10)
        yield rest

    server, servers = _serve(app)
    try:
        client = _ask(server.effective_port)
        time.sleep(0.3)  # the first piece: sent as far as the socket takes, the rest waits
        (channel,) = [c for c in servers.values() if getattr(c, "requests", None)]
        assert channel.total_outbufs_len > 0
        with channel.outbuf_lock:  # as the serving thread holds it while it sends
            received = b""
            while len(received) < 1_000_000:  # room in the socket: the loop is woken
                received += client.recv(1_000_000)
            time.sleep(0.1)
            before = loop.passes
            time.sleep(0.5)
            passes = loop.passes - before
        release.set()
        answer = received + _read_all(client)
    finally:
        release.set()
        _stop(server, servers)
    assert passes < 20, f"the loop went round {passes} times in half a second"
    assert answer.split(b"\r\n\r\n", 1)[1] == first + rest


def test_a_long_answer_to_a_slow_reader_arrives_whole():
    """An answer of several megabytes, written in pieces while the client reads slowly: the
    serving thread sends what the connection takes, waits at the high-water mark for the loop
    to send the rest (the venue's channel is woken for it then), and every byte arrives, in
    order."""
    pieces = [bytes([i % 251]) * 65_536 for i in range(64)]  # 4 MB
    expected = hashlib.sha256(b"".join(pieces)).hexdigest()

    def app(environ, start_response):
        length = str(sum(len(piece) for piece in pieces))
        start_response(
            "200 OK", [("Content-Type", "application/octet-stream"), ("Content-Length", length)]
        )
        yield from pieces

    server, servers = _serve(app, outbuf_high_watermark=262_144)
    try:
        answer = _read_all(_ask(server.effective_port), pause=0.002)
    finally:
        _stop(server, servers)
    body = answer.split(b"\r\n\r\n", 1)[1]
    assert len(body) == 64 * 65_536
    assert hashlib.sha256(body).hexdigest() == expected


def test_the_venue_serves_with_its_channel_and_its_lanes():
    server = create_venue_server(
        lambda environ, start_response: [],
        host="127.0.0.1",
        port=0,
        threads=2,
        is_crowd=lambda method, path: False,
    )
    try:
        assert server.channel_class is QuietChannel
        assert isinstance(server.task_dispatcher.queue, TwoLanes)
        assert server.adj.connection_limit == CONNECTION_LIMIT
    finally:
        server.task_dispatcher.shutdown(timeout=2)
        server.close()


def _idle_connections(url: str, count: int) -> list[socket.socket]:
    """``count`` connections that ask nothing, as phones keep them open between requests."""
    host, port = url.removeprefix("http://").split(":")
    return [socket.create_connection((host, int(port)), timeout=10) for _ in range(count)]


@pytest.mark.servers
def test_a_phone_is_served_while_hundreds_of_connections_stay_open(tmp_path):
    """waitress's default let the 101st connection wait for as long as the others stayed
    open: a phone's deal never arrived. With 500 connections open (150 players' phones and
    spectators hold about that many), a new phone still stores its deal."""
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    data = tmp_path / "day"
    seeded = seed_venue(data, tables=1, deals=1, env=env)
    server = start_venue(data, log=tmp_path / "venue.log", env=env)
    held = []
    try:
        held = _idle_connections(server.url, min(500, CONNECTION_LIMIT - 5))
        table = seeded["tables"][0]
        phone = Phone(table["token"])
        started = time.monotonic()
        phone.sit_down(server.url)
        status, location, _page = phone.enter_deal(server.url, 1)
        took = time.monotonic() - started
        assert stored(status, location, table["token"]), (status, _page[:300])
        print(f"deal stored {took:.2f} s after the phone opened the table, 500 connections open")
    finally:
        for connection in held:
            connection.close()
        server.stop()


def _kept_alive(url: str, path: str, count: int) -> list[socket.socket]:
    """``count`` HTTP/1.1 connections that each asked for ``path`` once, read the answer and
    stay open (keep-alive), as phones and spectators' browsers keep them between requests."""
    host, port = url.removeprefix("http://").split(":")
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    held = [socket.create_connection((host, int(port)), timeout=30) for _ in range(count)]
    for connection in held:
        connection.sendall(request)
    for connection in held:
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += connection.recv(65536)
        head, body = answer.split(b"\r\n\r\n", 1)
        headers = head.decode("latin-1").lower()
        assert headers.startswith("http/1.1 200"), headers[:200]
        assert "connection: close" not in headers
        length = int(headers.split("content-length:", 1)[1].split("\r\n", 1)[0])
        while len(body) < length:
            body += connection.recv(65536)
    return held


@pytest.mark.servers
def test_a_phone_stores_its_deal_at_once_while_150_browsers_keep_their_connections(tmp_path):
    """150 players' phones keep their connections open after loading the table's page
    (HTTP/1.1 keep-alive): a phone then opening its table and entering a deal is answered at
    once. The issue asks for the deal stored within 2 s; the bound asserted here is generous
    for a shared test machine (waitress's default limit of 100 connections made it wait for
    the others to time out, two minutes)."""
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    data = tmp_path / "day"
    seeded = seed_venue(data, tables=2, deals=4, env=env)
    server = start_venue(data, log=tmp_path / "venue.log", env=env)
    held = []
    try:
        spectator, table = seeded["tables"]
        held = _kept_alive(server.url, f"/t/{spectator['token']}/", 150)
        phone = Phone(table["token"])
        phone.sit_down(server.url)
        started = time.monotonic()
        status, location, page = phone.enter_deal(server.url, 1)
        took = time.monotonic() - started
        assert stored(status, location, table["token"]), (status, page[:300])
        print(f"deal stored and the page shown again {took:.2f} s after posting, 150 kept open")
        assert took < 10
    finally:
        for connection in held:
            connection.close()
        server.stop()
