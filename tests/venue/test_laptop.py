"""What the venue checks about the laptop at start: Windows' firewall (decided from
PowerShell's answer, here the answers of typical laptops), a data folder inside a synced
folder, and what the console can show of the QR code."""

import io
import json
import sys
from pathlib import PurePosixPath, PureWindowsPath

import pytest

from venue import laptop
from venue.laptop import firewall_advice, forgiving, qr_style, qr_text, synced_by

# PowerShell's answers (FIREWALL_SCRIPT, ConvertTo-Json -Compress), as a laptop in a hall gives
# them: its Wi-Fi, the firewall's three profiles, and the inbound rules for this Python.
PROFILES_ON = [
    {
        "name": "Domain",
        "enabled": "True",
        "inbound": "NotConfigured",
        "allowrules": "NotConfigured",
    },
    {
        "name": "Private",
        "enabled": "True",
        "inbound": "NotConfigured",
        "allowrules": "NotConfigured",
    },
    {
        "name": "Public",
        "enabled": "True",
        "inbound": "NotConfigured",
        "allowrules": "NotConfigured",
    },
]
HALL_WIFI_PUBLIC = [{"name": "Stadthalle-Gast", "index": 12, "category": "Public"}]
HALL_WIFI_PRIVATE = [{"name": "Stadthalle-Gast", "index": 12, "category": "Private"}]
# What the "Allow access?" dialog leaves: ticked private only (its default), or Cancel.
ALLOWED_PRIVATE = [
    {"enabled": "True", "profile": "Private", "action": "Allow"},
    {"enabled": "True", "profile": "Private", "action": "Allow"},  # TCP and UDP
]
ALLOWED_BOTH = [{"enabled": "True", "profile": "Private, Public", "action": "Allow"}]
CANCELLED = [{"enabled": "True", "profile": "Private, Public", "action": "Block"}]


def answer(networks, rules, profiles=PROFILES_ON, interface=12) -> str:
    return json.dumps(
        {"interface": interface, "networks": networks, "profiles": profiles, "rules": rules},
        separators=(",", ":"),
    )


def test_a_public_hall_wifi_without_a_rule_for_public_networks_says_what_to_click():
    for rules in ([], ALLOWED_PRIVATE):
        advice = firewall_advice(answer(HALL_WIFI_PUBLIC, rules))
        assert advice.startswith(
            "WINDOWS-FIREWALL: Windows stuft das Netzwerk „Stadthalle-Gast“ als öffentlich ein"
        )
        assert "Netzwerkprofiltyp: Privat" in advice
        assert "den Haken bei „Öffentliche Netzwerke“ setzen" in advice


def test_phones_get_in_where_a_rule_or_the_profile_lets_them():
    assert firewall_advice(answer(HALL_WIFI_PUBLIC, ALLOWED_BOTH)) is None
    assert firewall_advice(answer(HALL_WIFI_PRIVATE, ALLOWED_PRIVATE)) is None
    any_profile = [{"enabled": "True", "profile": "Any", "action": "Allow"}]
    assert firewall_advice(answer(HALL_WIFI_PUBLIC, any_profile)) is None
    public_off = [dict(p, enabled="False") if p["name"] == "Public" else p for p in PROFILES_ON]
    assert firewall_advice(answer(HALL_WIFI_PUBLIC, [], profiles=public_off)) is None


def test_a_blocking_rule_left_by_cancel_says_where_to_tick():
    for networks in (HALL_WIFI_PUBLIC, HALL_WIFI_PRIVATE):
        advice = firewall_advice(answer(networks, [*ALLOWED_PRIVATE, *CANCELLED]))
        assert "Sie sperrt Python im Netzwerk „Stadthalle-Gast“" in advice
        assert "Windows Defender Firewall zulassen → Einstellungen ändern" in advice
    # a disabled blocking rule blocks nothing
    disabled = [dict(CANCELLED[0], enabled="False"), *ALLOWED_BOTH]
    assert firewall_advice(answer(HALL_WIFI_PUBLIC, disabled)) is None


def test_block_all_incoming_connections_is_named():
    shields_up = [dict(p, allowrules="False") for p in PROFILES_ON]
    advice = firewall_advice(answer(HALL_WIFI_PRIVATE, ALLOWED_BOTH, profiles=shields_up))
    assert "alle eingehenden Verbindungen" in advice


def test_a_private_network_without_a_rule_is_told_to_allow_access_when_asked():
    advice = firewall_advice(answer(HALL_WIFI_PRIVATE, []))
    assert advice.startswith("Windows fragt gleich, ob Python in Netzwerken kommunizieren darf")


def test_the_network_of_the_laptops_address_decides():
    home_cable = {"name": "Heimnetz", "index": 3, "category": "Private"}
    networks = [home_cable, *HALL_WIFI_PUBLIC]
    assert "Stadthalle-Gast" in firewall_advice(answer(networks, ALLOWED_PRIVATE, interface=12))
    assert firewall_advice(answer(networks, ALLOWED_PRIVATE, interface=3)) is None
    # the address's network unknown: every connected one counts
    assert "Stadthalle-Gast" in firewall_advice(answer(networks, ALLOWED_PRIVATE, interface=None))


@pytest.mark.parametrize(
    "failed", [None, "", "Get-NetConnectionProfile : Zugriff verweigert", "[]"]
)
def test_a_failed_check_still_says_what_to_click(failed):
    advice = firewall_advice(failed)
    assert advice.startswith("Windows ließ sich nicht fragen, ob seine Firewall Handys durchlässt")
    assert "Netzwerkprofiltyp: Privat" in advice and "Einstellungen ändern" in advice


def test_powershell_is_asked_with_a_timeout_and_its_failure_is_none(monkeypatch):
    seen = {}

    def run(command, **options):
        seen.update(options, command=command)
        raise FileNotFoundError("powershell.exe")

    monkeypatch.setattr(laptop.subprocess, "run", run)
    assert laptop.firewall_report(lan="192.168.1.20") is None
    assert seen["timeout"] == laptop.FIREWALL_TIMEOUT
    assert seen["command"][0] == "powershell.exe"
    assert seen["env"]["CEGO_LAN"] == "192.168.1.20"
    assert sys.executable in seen["env"]["CEGO_PROGRAMS"].split("|")


@pytest.mark.parametrize(
    ("folder", "environ", "service"),
    [
        (PureWindowsPath(r"C:\Users\Anna\OneDrive\Dokumente\cego\venue-data"), {}, "OneDrive"),
        (
            PureWindowsPath(r"C:\Users\Anna\OneDrive - Cego-Club e.V\Turnier\venue-data"),
            {},
            "OneDrive",
        ),
        (
            PureWindowsPath(r"D:\Sync\Anna\Dokumente\venue-data"),
            {"OneDriveConsumer": r"D:\Sync\Anna"},
            "OneDrive",
        ),
        (
            PureWindowsPath(r"d:\sync\anna\venue-data"),
            {"OneDrive": r"D:\Sync\Anna"},
            "OneDrive",
        ),
        (PureWindowsPath(r"C:\Users\Anna\Dropbox\cego\venue-data"), {}, "Dropbox"),
        (PureWindowsPath(r"C:\Users\Anna\iCloudDrive\venue-data"), {}, "iCloud"),
        (PureWindowsPath(r"G:\Meine Ablage\venue-data"), {}, "Google Drive"),
        (
            PurePosixPath("/Users/anna/Library/Mobile Documents/com~apple~CloudDocs/venue-data"),
            {},
            "iCloud",
        ),
        (
            PurePosixPath("/Users/anna/Library/CloudStorage/Dropbox-Personal/venue-data"),
            {},
            "Dropbox",
        ),
        (PureWindowsPath(r"C:\Users\Anna\Dokumente\cego\venue-data"), {}, None),
        (
            PureWindowsPath(r"C:\CegoClub\venue-data"),
            {"OneDrive": r"C:\Users\Anna\OneDrive"},
            None,
        ),
        (PurePosixPath("/home/anna/turnier/venue-data"), {}, None),
    ],
)
def test_a_data_folder_inside_a_synced_folder_is_found(folder, environ, service):
    assert synced_by(folder, environ) == service


def test_the_synced_folder_warning_is_german_and_names_a_way_out():
    text = laptop.synced_folder_warning(
        PureWindowsPath(r"C:\Users\Anna\OneDrive\venue-data"),
        service="OneDrive",
        elsewhere=r"cego-club venue --data C:\CegoClub",
    )
    assert text.startswith(
        r"WARNUNG: Der Datenordner C:\Users\Anna\OneDrive\venue-data liegt in einem Ordner, "
        "den OneDrive synchronisiert."
    )
    assert r"z. B.: cego-club venue --data C:\CegoClub" in text


class Console(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def test_the_qr_code_as_the_console_can_show_it():
    utf8, cp1252 = (Console(io.BytesIO(), encoding=e) for e in ("utf-8", "cp1252"))
    assert qr_style(utf8) == "blocks"
    assert qr_style(cp1252) == "ascii"
    assert qr_style(Console(io.BytesIO(), encoding="cp437")) == "blocks"  # it has the blocks
    assert qr_style(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")) is None  # a file, a pipe
    assert qr_style(io.StringIO()) is None
    url = "http://192.168.1.20:8000/"
    blocks, ascii_art = qr_text(url, "blocks"), qr_text(url, "ascii")
    assert set(blocks) <= set(" \n\u2580\u2584\u2588")
    assert set(ascii_art) <= set(" #\n")
    ascii_art.encode("cp1252")
    rows = ascii_art.splitlines()
    assert len({len(row) for row in rows}) == 1 and len(rows[0]) == 2 * len(rows)  # square
    assert rows[0] == "#" * len(rows[0])  # the quiet zone: light on a dark console


def test_a_stream_whose_encoding_lacks_a_character_replaces_it():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    forgiving(stream)
    stream.write("Datenordner: C:\\Users\\Łukasz\\venue-data ▀▄█\n")
    stream.flush()
    assert stream.buffer.getvalue() == b"Datenordner: C:\\Users\\?ukasz\\venue-data ???\n"


def test_the_firewall_check_never_holds_the_start_up_longer_than_its_timeout(monkeypatch):
    """PowerShell slower than the timeout (a busy laptop): the start goes on, with the
    advice for a check that failed."""
    import time

    from venue.management.commands import venue

    def slow(*, lan, timeout):
        time.sleep(2)
        return "{}"

    monkeypatch.setattr(venue, "firewall_report", slow)
    monkeypatch.setattr(venue, "FIREWALL_TIMEOUT", 0.2)
    started = time.monotonic()
    advice = venue.FirewallCheck().advice()
    assert time.monotonic() - started < 1.5
    assert advice.startswith("Windows ließ sich nicht fragen")

    monkeypatch.setattr(venue, "firewall_report", lambda *, lan, timeout: None)
    assert venue.FirewallCheck().advice().startswith("Windows ließ sich nicht fragen")
    public = json.dumps(
        {"interface": 12, "networks": HALL_WIFI_PUBLIC, "profiles": PROFILES_ON, "rules": []}
    )
    monkeypatch.setattr(venue, "firewall_report", lambda *, lan, timeout: public)
    assert "als öffentlich ein" in venue.FirewallCheck().advice()
