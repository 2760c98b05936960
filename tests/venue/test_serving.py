"""The venue serves every phone in the hall: a new connection is answered while hundreds of
others stay open, and waitress's queue warnings come at most once a minute."""

import logging
import socket
import time

import pytest

from tests.servers import Phone, clean_env, seed_venue, start_venue, stored
from venue.serving import CONNECTION_LIMIT, OncePerInterval, quiet_queue_warnings


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
