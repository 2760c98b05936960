"""The hall's network as two hosts in network namespaces, joined by a virtual cable (veth): the
organiser's laptop, whose only network is the hall's (a router without internet is its default
route), and a player's phone. `manage.py venue` runs on the laptop; the phone knows only the
address the venue printed and the short code on the score sheet, and enters a deal.

Needs root and iproute2 (`ip netns`), as in CI; elsewhere skipped, saying why."""

import os
import shutil
import subprocess
import sys
import urllib.request

import pytest

from tests.conftest import REQUIRE_TOOLS
from tests.servers import clean_env, json_from, seed_venue, start_venue
from tests.venue.test_venue_server import deal_count

pytestmark = pytest.mark.servers

LAPTOP, PHONE, ROUTER = "10.77.0.1", "10.77.0.2", "10.77.0.254"


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=30)


@pytest.fixture
def hall():
    """Two namespaces, ``laptop`` and ``phone``, on 10.77.0.0/24; removed afterwards."""
    why = None
    if shutil.which("ip") is None:
        why = "ip (iproute2) is not installed"
    elif os.geteuid() != 0:
        why = "network namespaces need root"
    if why:
        message = f"the hall-network test cannot run: {why}"
        pytest.fail(message) if REQUIRE_TOOLS else pytest.skip(message)
    suffix = str(os.getpid())
    laptop, phone = f"cego-laptop-{suffix}", f"cego-phone-{suffix}"
    try:
        ip("netns", "add", laptop)
        ip("netns", "add", phone)
        ip("link", "add", "hall0", "netns", laptop, "type", "veth")
        ip("-n", laptop, "link", "set", "veth0", "netns", phone)  # the peer's default name
        ip("-n", laptop, "addr", "add", f"{LAPTOP}/24", "dev", "hall0")
        ip("-n", phone, "addr", "add", f"{PHONE}/24", "dev", "veth0")
        for namespace, device in ((laptop, "hall0"), (phone, "veth0")):
            ip("-n", namespace, "link", "set", "lo", "up")
            ip("-n", namespace, "link", "set", device, "up")
        # the hall's router: the laptop's default route, with nothing behind it
        ip("-n", laptop, "route", "add", "default", "via", ROUTER)
        yield laptop, phone
    finally:
        for namespace in (laptop, phone):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def test_a_phone_on_the_hall_network_enters_a_deal(tmp_path, hall):
    laptop, phone = hall
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    data = tmp_path / "day"
    table = seed_venue(data, tables=1, deals=4, env=env)["tables"][0]
    server = start_venue(
        data,
        bind="0.0.0.0",
        log=tmp_path / "venue.log",
        env=env,
        prefix=("ip", "netns", "exec", laptop),
    )
    try:
        # The address printed for phones is the laptop's on the hall's network.
        assert server.url.startswith(f"http://{LAPTOP}:"), server.output()
        # This machine is not on the hall's network: the server is not reachable from here.
        with pytest.raises(OSError):
            urllib.request.urlopen(server.url + "/health/", timeout=3)
        done = json_from(
            ["ip", "netns", "exec", phone, sys.executable, "-m", "tests.hall_phone"]
            + [server.url, table["token"], table["short_code"]],
            env=env,
            timeout=120,
        )
        assert done == {"opened": True, "stored": True}
    finally:
        server.stop()
    assert deal_count(data) == 1
