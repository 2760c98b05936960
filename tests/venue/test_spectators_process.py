"""The spectators' connections are served by a second process of the venue, the phones' by
the first (venue/spectators.py, issue 43): a spectator's page never holds a phone's request
up, whatever the crowd."""

import http.client
import multiprocessing
import os
import signal
import socket
import sys
import time
from pathlib import Path

import pytest

from tests.servers import Phone, clean_env, seed_venue, start_venue, stored
from venue.spectators import Handover, for_spectators, request_head


def _standings(method: str, path: str) -> bool:
    return method == "GET" and path.endswith("/standings/")


def _head(request_line: str, *headers: str, complete: bool = True) -> bytes:
    text = "\r\n".join([request_line, "Host: hall:8000", *headers]) + "\r\n"
    return (text + ("\r\n" if complete else "")).encode()


def _spectators(data: bytes) -> bool | None:
    return for_spectators(data, is_crowd=_standings, private_cookies=("sessionid", "messages"))


def test_a_spectators_request_is_told_from_a_phones_by_its_head():
    assert _spectators(_head("GET /tournaments/3/standings/?partial=1 HTTP/1.1")) is True
    assert _spectators(_head("GET /tournaments/3/standings/ HTTP/1.1", "Cookie: lang=de")) is True
    # a reader with a session or a message gets a page of their own: the phones' process
    signed_in = _head("GET /tournaments/3/standings/ HTTP/1.1", "Cookie: a=1; sessionid=x")
    assert _spectators(signed_in) is False
    assert (
        _spectators(_head("GET /tournaments/3/standings/ HTTP/1.1", "cookie: messages=m")) is False
    )
    assert _spectators(_head("POST /tournaments/3/standings/ HTTP/1.1")) is False
    assert _spectators(_head("GET /t/abc/ HTTP/1.1")) is False
    # a head not complete yet stays where it is
    assert _spectators(_head("GET /tournaments/3/standings/ HTTP/1.1", complete=False)) is None
    assert request_head(b"\x16\x03\x01 TLS hello\r\n\r\n") is None


@pytest.mark.skipif(sys.platform == "win32", reason="SCM_RIGHTS here; socket.share on Windows")
def test_a_connection_handed_over_arrives_with_its_unread_request():
    """The request a process only peeked at is read by the process it is handed to, and the
    answer written there reaches the client."""
    context = multiprocessing.get_context("spawn")
    sending_end, receiving_end = context.Pipe(duplex=True)
    sender = Handover(sending_end, peer_pid=os.getpid())
    receiver = Handover(receiving_end)
    fallen_back = []
    sender.start_sending(lambda sock, addr: fallen_back.append(sock))
    client, served = socket.socketpair()
    try:
        client.sendall(b"GET / HTTP/1.1\r\n\r\n")
        assert served.recv(100, socket.MSG_PEEK).startswith(b"GET /")
        sender.send(served, ("127.0.0.9", 4711))
        kind, addr, taken = receiver.receive()
        assert (kind, tuple(addr)) == ("socket", ("127.0.0.9", 4711))
        with taken:
            assert taken.recv(100) == b"GET / HTTP/1.1\r\n\r\n"
            taken.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
        assert client.recv(100) == b"HTTP/1.1 200 OK\r\n\r\n"
        assert not fallen_back
    finally:
        client.close()
        sending_end.close()
        receiving_end.close()


# --- the venue itself (Linux: who holds a connection is read from /proc) --------------------

linux_only = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc")


def _holders(client: socket.socket, pids: list[int]) -> list[int]:
    """The processes among ``pids`` holding the server's end of ``client``'s connection."""
    client_port = client.getsockname()[1]
    server_port = client.getpeername()[1]
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = fields[1], fields[2]
            if (
                int(local.rsplit(":", 1)[1], 16) == server_port
                and int(remote.rsplit(":", 1)[1], 16) == client_port
            ):
                inodes.add(f"socket:[{fields[9]}]")
    holders = []
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    holders.append(pid)
                    break
            except OSError:
                continue
    return holders


def _spectators_process(venue_pid: int, timeout: float = 60) -> int:
    """The venue's spectators' process (spawned by multiprocessing), once it serves."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if int(stat[1]) == venue_pid and b"spawn_main" in command:
                return int(entry)
        time.sleep(0.2)
    raise AssertionError("the venue started no spectators' process")


def _get(connection: http.client.HTTPConnection, path: str, cookie: str = "") -> int:
    connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = connection.getresponse()
    response.read()
    return response.status


def _wait_until_it_serves_spectators(server, standings: str, venue: int, spectators: int):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection(server.url.removeprefix("http://"), timeout=30)
        _get(connection, standings)
        _get(connection, standings)  # a held connection's next request is where it was read
        held_by = _holders(connection.sock, [venue, spectators])
        connection.close()
        if held_by == [spectators]:
            return
        time.sleep(0.3)
    raise AssertionError("no spectator's connection was handed to the spectators' process")


def _start(folder: Path):
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    data = folder / "day"
    seeded = seed_venue(data, tables=2, deals=2, env=env)
    server = start_venue(data, log=folder / "venue.log", env=env)
    try:
        spectators = _spectators_process(server.process.pid)
        standings = f"/tournaments/{seeded['tournament']}/standings/"
        _wait_until_it_serves_spectators(server, standings, server.process.pid, spectators)
    except BaseException:
        server.stop()
        raise
    return server, seeded, spectators, standings


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    """One venue for the tests that leave it as it was (a venue starts in a minute here)."""
    started = _start(tmp_path_factory.mktemp("venue"))
    yield started
    started[0].stop()


@pytest.fixture
def own_venue(tmp_path):
    """A venue of the test's own (it stops a process of it)."""
    started = _start(tmp_path)
    yield started
    started[0].stop()


@pytest.mark.servers
@linux_only
def test_spectators_are_served_by_the_second_process_and_phones_by_the_first(venue):
    server, seeded, spectators, standings = venue
    assert "Die Zuschauerseiten beantwortet jetzt ein zweiter Prozess." in server.output()
    pids = [server.process.pid, spectators]
    address = server.url.removeprefix("http://")
    browser = http.client.HTTPConnection(address, timeout=30)
    assert _get(browser, standings) == 200
    assert _get(browser, standings + "?partial=1") == 200
    assert _holders(browser.sock, pids) == [spectators]
    # the same browser opens a table's page: its connection is handed back to the phones'
    assert _get(browser, f"/t/{seeded['tables'][0]['token']}/") == 200
    assert _holders(browser.sock, pids) == [server.process.pid]
    assert _get(browser, standings) == 200
    assert _holders(browser.sock, pids) == [spectators]
    browser.close()
    # a reader with a session (a phone, the desk) stays with the phones' process
    signed_in = http.client.HTTPConnection(address, timeout=30)
    assert _get(signed_in, standings, cookie="sessionid=abc") == 200
    assert _get(signed_in, standings, cookie="sessionid=abc") == 200
    assert _holders(signed_in.sock, pids) == [server.process.pid]
    signed_in.close()


@pytest.mark.servers
@linux_only
def test_a_phone_stores_its_deal_while_the_spectators_process_is_stuck(venue):
    """However long a spectator's page takes (here: its process stopped dead), a phone's deal
    is stored at once: it is never served behind one. In one process, a spectator's page
    held the interpreter (and the phones' write lock waited for it)."""
    server, seeded, spectators, standings = venue
    table = seeded["tables"][1]
    phone = Phone(table["token"])
    phone.sit_down(server.url)
    crowd = []
    os.kill(spectators, signal.SIGSTOP)
    try:
        for _ in range(20):  # spectators asking meanwhile: their connections wait there
            host, port = server.url.removeprefix("http://").split(":")
            waiting = socket.create_connection((host, int(port)), timeout=30)
            waiting.sendall(f"GET {standings} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            crowd.append(waiting)
        started = time.monotonic()
        status, location, page = phone.enter_deal(server.url, 1)
        took = time.monotonic() - started
        assert stored(status, location, table["token"]), (status, page[:300])
        assert took < 5, took
    finally:
        os.kill(spectators, signal.SIGCONT)
    for waiting in crowd:  # and the spectators are answered once it goes on
        waiting.settimeout(30)
        assert waiting.recv(12) == b"HTTP/1.1 200"
        waiting.close()


@pytest.mark.servers
@linux_only
def test_spectators_are_served_by_the_venue_when_their_process_is_gone(own_venue):
    server, _seeded, spectators, standings = own_venue
    os.kill(spectators, signal.SIGKILL)
    time.sleep(1)
    browser = http.client.HTTPConnection(server.url.removeprefix("http://"), timeout=30)
    assert _get(browser, standings) == 200
    assert _get(browser, standings) == 200
    assert _holders(browser.sock, [server.process.pid]) == [server.process.pid]
    browser.close()


@pytest.mark.servers
@linux_only
def test_the_spectators_process_ends_with_the_venue(venue):
    """(Last: it stops the module's venue.)"""
    server, _seeded, spectators, _standings = venue
    server.process.kill()  # not even a chance to tidy up
    server.process.wait()
    deadline = time.monotonic() + 10
    while Path(f"/proc/{spectators}").exists() and time.monotonic() < deadline:
        state = Path(f"/proc/{spectators}/stat").read_text().rsplit(")", 1)[1].split()[0]
        if state == "Z":
            break  # gone, only not yet reaped
        time.sleep(0.1)
    assert time.monotonic() < deadline, "the spectators' process outlived the venue"
