"""What the venue checks about the laptop as it starts, and how it writes to its console.

- **The Windows firewall.** Windows classes each network as private or public, and its
  firewall lets a program accept connections only on the kinds of network a rule allows it (the
  question "Zugriff zulassen?" at its first start makes that rule; a hall's Wi-Fi is often
  classed public, and a click on "Abbrechen" makes a rule that blocks). At start the venue asks
  PowerShell for the networks, the firewall's profiles and this Python's inbound rules
  (:data:`FIREWALL_SCRIPT`, JSON, at most :data:`FIREWALL_TIMEOUT` seconds, beside the start's
  other work); :func:`firewall_advice` reads that answer, a pure function, and says in German
  what to click where phones would be blocked, or the check failed.
- **A synced data folder.** OneDrive, Dropbox, Google Drive and iCloud copy a file while it is
  being written; a live SQLite database must not be synced (a conflict copy, a database
  copied half-written). :func:`synced_by` names the service whose folder holds the data
  folder (its environment variables, its folders' names).
- **The console.** The QR code is drawn with block characters where the console can show
  them, as ASCII on a console whose encoding lacks them, and not at all into a file or a pipe
  (the address is printed either way); :func:`forgiving` makes a stream replace what its
  encoding cannot write instead of failing.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path, PurePath

import segno
from django.utils.translation import gettext as _

FIREWALL_TIMEOUT = 3.0
# The programs are given in CEGO_PROGRAMS, separated by "|" (a character no Windows path
# holds), the laptop's address in CEGO_LAN: nothing is quoted into the script.
FIREWALL_SCRIPT = r"""
$ErrorActionPreference = 'Stop'
[Console]::OutputEncoding = [System.Text.Encoding]::UTF8
$programs = @($env:CEGO_PROGRAMS -split '\|')
$index = $null
if ($env:CEGO_LAN) {
  $address = Get-NetIPAddress -IPAddress $env:CEGO_LAN -ErrorAction SilentlyContinue
  if ($address) { $index = [int]($address | Select-Object -First 1).InterfaceIndex }
}
$networks = @(Get-NetConnectionProfile | ForEach-Object { [ordered]@{
  name = [string]$_.Name; index = [int]$_.InterfaceIndex
  category = [string]$_.NetworkCategory } })
$profiles = @(Get-NetFirewallProfile -PolicyStore ActiveStore | ForEach-Object { [ordered]@{
  name = [string]$_.Name; enabled = [string]$_.Enabled
  inbound = [string]$_.DefaultInboundAction; allowrules = [string]$_.AllowInboundRules } })
$rules = @(Get-NetFirewallApplicationFilter -PolicyStore ActiveStore |
  Where-Object { $programs -contains $_.Program } | Get-NetFirewallRule |
  Where-Object { [string]$_.Direction -eq 'Inbound' } | ForEach-Object { [ordered]@{
  enabled = [string]$_.Enabled; profile = [string]$_.Profile; action = [string]$_.Action } })
[ordered]@{ interface = $index; networks = $networks; profiles = $profiles; rules = $rules } |
  ConvertTo-Json -Depth 4 -Compress
"""
# A network's category → the firewall profile that applies on it.
PROFILE_OF_CATEGORY = {"public": "public", "private": "private", "domainauthenticated": "domain"}


def firewall_programs() -> list[str]:
    """The programs the firewall sees listening: this Python, and in a virtual environment the
    interpreter its ``python.exe`` starts."""
    programs = [sys.executable, getattr(sys, "_base_executable", sys.executable)]
    return list(dict.fromkeys(str(Path(p)) for p in programs if p))


def firewall_report(*, lan: str | None, timeout: float = FIREWALL_TIMEOUT) -> str | None:
    """PowerShell's answer to :data:`FIREWALL_SCRIPT` (JSON), or None when it failed."""
    env = {**os.environ, "CEGO_PROGRAMS": "|".join(firewall_programs()), "CEGO_LAN": lan or ""}
    command = ["powershell.exe", "-NoProfile", "-NonInteractive", "-Command", FIREWALL_SCRIPT]
    try:
        done = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _as_list(value: object) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _word(value: object) -> str:
    return str(value or "").strip().lower()


def _covers(rule: dict, profile: str) -> bool:
    """Whether a firewall rule applies on ``profile`` ("Any", or e.g. "Private, Public")."""
    names = {_word(part) for part in str(rule.get("profile") or "Any").split(",")}
    return "any" in names or profile in names


def _how_to_private(network: str) -> str:
    return _(
        "Set the hall's network to private: Windows Settings → Network & Internet → Wi-Fi (or "
        "Ethernet) → the network %(network)s → Network profile type: Private. Then start Cego "
        "Club again."
    ) % {"network": network}


def _how_to_allow() -> str:
    return _(
        "Allow Python through the firewall: Control Panel → Windows Defender Firewall → Allow "
        "an app or feature through Windows Defender Firewall → Change settings → tick both "
        "Private and Public for Python (python.exe) → OK."
    )


def firewall_advice(report: str | None) -> str | None:
    """What to click so that phones reach this laptop, from PowerShell's answer to
    :data:`FIREWALL_SCRIPT` (None: the check failed); None where the firewall lets them in.

    On the network the laptop's address is on (else on every connected network), by the
    firewall profile of its category: a profile switched off lets everything in; a blocking
    rule for this Python, or "block all incoming connections", keeps phones out; an allowing
    rule, or a profile that allows by default, lets them in. Without any rule Windows asks
    at the first start: on a private network that question is the way in (a hint), on a
    public one phones stay out unless the network is made private.
    """
    try:
        data = json.loads(report) if report else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return _(
            "Could not ask Windows whether its firewall lets phones in. If phones cannot open "
            "the address: %(private)s %(allow)s"
        ) % {"private": _how_to_private(_("of the hall")), "allow": _how_to_allow()}
    networks = [n for n in _as_list(data.get("networks")) if isinstance(n, dict)]
    ours = [n for n in networks if n.get("index") == data.get("interface")] or networks
    profiles = {
        _word(p.get("name")): p for p in _as_list(data.get("profiles")) if isinstance(p, dict)
    }
    rules = [
        r
        for r in _as_list(data.get("rules"))
        if isinstance(r, dict) and _word(r.get("enabled")) == "true"
    ]
    advice = []
    for network in ours:
        name = f"„{network.get('name') or '?'}“"
        profile = PROFILE_OF_CATEGORY.get(_word(network.get("category")), "public")
        settings = profiles.get(profile, {})
        if _word(settings.get("enabled")) == "false":
            continue  # this profile's firewall is off
        applying = [r for r in rules if _covers(r, profile)]
        if any(_word(r.get("action")) == "block" for r in applying):
            advice.append(
                _(
                    "WINDOWS FIREWALL: it blocks Python on the network %(network)s (perhaps "
                    '"Cancel" was clicked when Windows asked once): phones cannot reach this '
                    "laptop. %(allow)s"
                )
                % {"network": name, "allow": _how_to_allow()}
            )
        elif _word(settings.get("allowrules")) == "false":
            advice.append(
                _(
                    "WINDOWS FIREWALL: it blocks all incoming connections on the network "
                    "%(network)s: phones cannot reach this laptop. Windows Security → Firewall "
                    '& network protection → the active network → untick "Block all incoming '
                    'connections".'
                )
                % {"network": name}
            )
        elif _word(settings.get("inbound")) == "allow" or any(
            _word(r.get("action")) == "allow" for r in applying
        ):
            continue
        elif profile == "public":
            advice.append(
                _(
                    "WINDOWS FIREWALL: Windows classes the network %(network)s as public and "
                    "lets no phone through to Python there. %(private)s Or, when Windows asks "
                    '"Allow access?", tick "Public networks" and click "Allow access".'
                )
                % {"network": name, "private": _how_to_private(name)}
            )
        else:
            advice.append(
                _(
                    "Windows will ask whether Python may communicate on networks: click "
                    '"Allow access" (otherwise phones cannot reach this laptop).'
                )
            )
    return "\n".join(dict.fromkeys(advice)) or None


# Variables the OneDrive client sets to its folders.
ONEDRIVE_VARIABLES = ("OneDrive", "OneDriveConsumer", "OneDriveCommercial")


def _service_of_folder_name(name: str) -> str | None:
    """The sync service a folder of this name belongs to (Windows, macOS), or None."""
    word = name.casefold()
    if word == "onedrive" or word.startswith(("onedrive - ", "onedrive-")):
        return "OneDrive"
    if word == "dropbox" or word.startswith(("dropbox (", "dropbox-")):
        return "Dropbox"
    if word in {"iclouddrive", "icloud drive", "com~apple~clouddocs"}:
        return "iCloud"
    if word in {"google drive", "googledrive", "my drive", "meine ablage"} or word.startswith(
        "googledrive-"
    ):
        return "Google Drive"
    return None


def synced_by(folder: Path | str, environ: Mapping[str, str] | None = None) -> str | None:
    """The service (OneDrive, Dropbox, Google Drive, iCloud) whose synced folder holds
    ``folder``, or None: by the OneDrive client's variables, then by the folders' names."""
    environ = os.environ if environ is None else environ
    path = folder if isinstance(folder, PurePath) else PurePath(folder)
    for variable in ONEDRIVE_VARIABLES:
        root = environ.get(variable)
        if root and path.is_relative_to(type(path)(root)):
            return "OneDrive"
    for part in path.parts:
        service = _service_of_folder_name(part)
        if service:
            return service
    return None


def synced_folder_warning(folder: Path, *, service: str, elsewhere: str) -> str:
    return _(
        "WARNING: the data folder %(folder)s is inside a folder %(service)s synchronises. A "
        "database in use must not be synchronised (it can be damaged or lose what was "
        "entered). Stop Cego Club (Ctrl+C), move the folder out of %(service)s and start it "
        "from there, e.g.: %(command)s (backups may well go into %(service)s)."
    ) % {"folder": folder, "service": service, "command": elsewhere}


QR_BLOCKS = "\u2580\u2584\u2588"


def qr_style(stream: object) -> str | None:
    """How ``stream`` shows a QR code: "blocks" (a console whose encoding has the block
    characters), "ascii" (a console without them, e.g. cp1252), or None (a file or a pipe:
    the address alone)."""
    try:
        console = bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        console = False
    if not console:
        return None
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        QR_BLOCKS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return "ascii"
    return "blocks"


def qr_text(url: str, style: str) -> str:
    """The QR code of ``url`` as text for a console with a dark background: light modules
    drawn, dark ones blank (as ``segno``'s compact form does)."""
    code = segno.make(url, error="m")
    if style == "blocks":
        buffer = io.StringIO()
        code.terminal(out=buffer, compact=True)
        return buffer.getvalue().rstrip("\n")
    return "\n".join(
        "".join("  " if dark else "##" for dark in row) for row in code.matrix_iter(border=4)
    )


def forgiving(stream: object) -> None:
    """Let ``stream`` write what its encoding cannot as "?" instead of failing (a Windows
    console's or a log file's code page and a path with a character outside it)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
        with contextlib.suppress(ValueError, OSError):  # a stream that will not
            reconfigure(errors="replace")
