"""The message catalogues compile themselves: German whichever way the app is started.

The .mo files are build output (not committed). ``ensure_compiled`` runs when Django starts
(``CegoClubConfig.ready``): a catalogue whose .mo is missing or older than its .po is compiled
with GNU ``msgfmt`` when it is installed, else with the small compiler below, so a fresh clone
started with plain ``manage.py runserver`` (or the venue server, or gunicorn) speaks German.
A catalogue that still cannot be compiled (read-only checkout) is reported by a system check.

``python -m cego_club.catalogues`` (``make install`` / ``make messages``) compiles every
catalogue with the compiler below only, so a checkout needs no GNU gettext; CI also checks the
catalogues with ``msgfmt`` where it is installed.
"""

from __future__ import annotations

import ast
import logging
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

logger = logging.getLogger(__name__)


def catalogues(locale_dirs: list[Path]) -> list[Path]:
    return sorted(po for base in locale_dirs for po in Path(base).glob("*/LC_MESSAGES/*.po"))


def stale(po: Path) -> bool:
    mo = po.with_suffix(".mo")
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def ensure_compiled(locale_dirs: list[Path]) -> list[Path]:
    """Compile every stale catalogue; returns those that could not be compiled."""
    failed = []
    compiled = False
    for po in catalogues(locale_dirs):
        if not stale(po):
            continue
        try:
            compile_catalogue(po)
            compiled = True
        except (OSError, ValueError, subprocess.SubprocessError) as error:
            logger.warning("could not compile %s: %s", po, error)
            failed.append(po)
    if compiled:
        _forget_loaded_translations()
    return failed


def _forget_loaded_translations() -> None:
    """A module imported while the apps loaded may have translated something already, which
    cached the catalogues without the new .mo: drop that cache (as Django's own settings
    change handler does)."""
    import gettext

    from asgiref.local import Local
    from django.utils.translation import trans_real

    gettext._translations.clear()  # the standard library caches parsed .mo files by path
    trans_real._translations = {}
    trans_real._default = None
    trans_real._active = Local()


def compile_with_python(po: Path) -> None:
    """Write ``po``'s .mo beside it with the compiler below (no GNU gettext), atomically."""
    data = mo_bytes(parse_po(po.read_text(encoding="utf-8")))
    mo = po.with_suffix(".mo")
    handle, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide it from a server's own user
        os.replace(temporary, mo)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def compile_catalogue(po: Path) -> None:
    """Write ``po``'s .mo beside it, atomically (two starting processes may race)."""
    mo = po.with_suffix(".mo")
    handle, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
    os.close(handle)
    try:
        msgfmt = shutil.which("msgfmt")
        if msgfmt:
            subprocess.run(
                [msgfmt, "--check-format", "-o", temporary, str(po)],
                check=True,
                capture_output=True,
                timeout=60,
            )
        else:
            Path(temporary).write_bytes(mo_bytes(parse_po(po.read_text(encoding="utf-8"))))
        os.replace(temporary, mo)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


# --------------------------------------------------------------------------- fallback compiler


def parse_po(text: str) -> dict[str, str]:
    """The translated, non-fuzzy messages of a .po file as .mo keys and values.

    Keys follow the .mo conventions: ``context\\x04msgid`` and ``msgid\\x00msgid_plural``;
    plural translations are joined with NUL. The header (msgid "") is kept.
    """
    messages: dict[str, str] = {}
    entry: dict[str, str] = {}
    fuzzy = False
    current = None

    def flush() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry and not fuzzy:
            plurals = sorted(k for k in entry if k.startswith("msgstr["))
            if plurals:
                value = "\x00".join(entry[k] for k in plurals)
                key = entry["msgid"] + "\x00" + entry.get("msgid_plural", "")
            else:
                value = entry.get("msgstr", "")
                key = entry["msgid"]
            if "msgctxt" in entry:
                key = entry["msgctxt"] + "\x04" + key
            if value.replace("\x00", "") or key == "":
                messages[key] = value
        entry, fuzzy = {}, False

    def has_translation() -> bool:
        return any(key.startswith("msgstr") for key in entry)

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if has_translation():
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            if current is not None:
                entry[current] += ast.literal_eval(line)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and has_translation():
            flush()
        current = keyword
        entry[keyword] = ast.literal_eval(rest)
    flush()
    return messages


def mo_bytes(messages: dict[str, str]) -> bytes:
    """GNU .mo format: header, sorted key table, value table, then the strings."""
    keys = sorted(messages)
    ids = b""
    strs = b""
    offsets = []
    for key in keys:
        key_bytes, value_bytes = key.encode(), messages[key].encode()
        offsets.append((len(ids), len(key_bytes), len(strs), len(value_bytes)))
        ids += key_bytes + b"\x00"
        strs += value_bytes + b"\x00"
    count = len(keys)
    keys_start = 7 * 4
    values_start = keys_start + count * 8
    ids_start = values_start + count * 8
    strs_start = ids_start + len(ids)
    key_table = b"".join(
        struct.pack("<II", length, ids_start + off) for off, length, _, _ in offsets
    )
    value_table = b"".join(
        struct.pack("<II", length, strs_start + off) for _, _, off, length in offsets
    )
    header = struct.pack("<7I", 0x950412DE, 0, count, keys_start, values_start, 0, 0)
    return header + key_table + value_table + ids + strs


def main(argv: list[str] | None = None) -> int:
    """Compile every catalogue under the given locale folders (default: the app's own) with
    the compiler above; exit code 1 when one cannot be read or written."""
    folders = [Path(arg) for arg in (sys.argv[1:] if argv is None else argv)]
    folders = folders or [Path(__file__).resolve().parent / "locale"]
    pos = catalogues(folders)
    if not pos:
        print(f"no message catalogues in {', '.join(map(str, folders))}", file=sys.stderr)
        return 1
    status = 0
    for po in pos:
        try:
            compile_with_python(po)
        except (OSError, ValueError, SyntaxError, UnicodeDecodeError) as error:
            print(f"could not compile {po}: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
