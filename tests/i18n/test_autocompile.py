"""The catalogues compile themselves at start-up, with or without GNU gettext installed."""

from __future__ import annotations

import gettext
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from cego_club import catalogues
from cego_club.catalogues import ensure_compiled, mo_bytes, parse_po
from tests.conftest import MSGFMT_WHY, require_tool

LOCALE = Path(settings.PACKAGE_DIR) / "locale"


def _catalog(data: bytes) -> dict:
    found = dict(gettext.GNUTranslations(io.BytesIO(data))._catalog)
    found.pop("", None)  # the header: msgfmt drops POT-Creation-Date
    return found


@pytest.mark.parametrize("language", ["de", "en"])
def test_fallback_compiler_matches_msgfmt(language, tmp_path, msgfmt):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    reference = tmp_path / "reference.mo"
    subprocess.run([msgfmt, "-o", str(reference), str(po)], check=True)
    mine = mo_bytes(parse_po(po.read_text(encoding="utf-8")))
    assert _catalog(mine) == _catalog(reference.read_bytes())


def test_fuzzy_and_untranslated_entries_are_left_out():
    text = (
        'msgid ""\nmsgstr "Language: de\\n"\n\n'
        '#, fuzzy\nmsgid "Table"\nmsgstr "Tisch"\n\n'
        'msgid "Round"\nmsgstr ""\n\n'
        'msgctxt "card"\nmsgid "King"\nmsgstr "König"\n\n'
        'msgid "one deal"\nmsgid_plural "%(n)s deals"\nmsgstr[0] "ein Spiel"\n'
        'msgstr[1] "%(n)s Spiele"\n'
    )
    assert parse_po(text) == {
        "": "Language: de\n",
        "card\x04King": "König",
        "one deal\x00%(n)s deals": "ein Spiel\x00%(n)s Spiele",
    }


@pytest.mark.parametrize("with_msgfmt", [True, False])
def test_a_missing_or_older_catalogue_is_compiled(tmp_path, monkeypatch, with_msgfmt):
    if with_msgfmt:
        require_tool("msgfmt", MSGFMT_WHY)
    else:
        monkeypatch.setattr(catalogues.shutil, "which", lambda name: None)
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "django.po"
    shutil.copy(LOCALE / "de" / "LC_MESSAGES" / "django.po", po)
    mo = po.with_suffix(".mo")
    assert ensure_compiled([tmp_path]) == []
    translation = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    assert translation.gettext("Close round") == "Runde abschließen"
    # an older .mo is compiled again; an up-to-date one is left alone
    os.utime(mo, (1, 1))
    ensure_compiled([tmp_path])
    assert mo.stat().st_mtime > 1
    before = mo.stat().st_mtime_ns
    ensure_compiled([tmp_path])
    assert mo.stat().st_mtime_ns == before
    assert not list(folder.glob("*.tmp"))


def test_a_stale_catalogue_loaded_early_is_replaced(tmp_path):
    """An old .mo read while the apps load is not what the first request sees."""
    copy = tmp_path / "project"
    base = Path(settings.PACKAGE_DIR)
    shutil.copytree(base / "locale", copy / "locale")
    po = copy / "locale" / "de" / "LC_MESSAGES" / "django.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(
        text.replace('msgstr "Runde abschließen"', 'msgstr "Runde zumachen"'), encoding="utf-8"
    )
    catalogues.compile_with_python(po)
    os.utime(po.with_suffix(".mo"), (1, 1))
    po.write_text(text, encoding="utf-8")  # the .po is newer: the .mo is stale
    code = (
        "import django, os, gettext;"
        "os.environ['DJANGO_SETTINGS_MODULE']='cego_club.settings';"
        "import cego_club.settings as s;"
        f"s.LOCALE_PATHS=[{str(copy / 'locale')!r}];"
        "gettext.translation('django', s.LOCALE_PATHS[0], ['de']);"  # read early: cached
        "django.setup();"
        "from django.utils import translation;"
        "translation.activate('de');"
        "print(translation.gettext('Close round'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.strip() == "Runde abschließen", result.stderr


def test_a_fresh_start_speaks_german(tmp_path):
    """A copy of the project without compiled catalogues, started like ``manage.py``."""
    copy = tmp_path / "project"
    base = Path(settings.PACKAGE_DIR)
    shutil.copytree(base / "locale", copy / "locale")
    for mo in (copy / "locale").rglob("*.mo"):
        mo.unlink()
    code = (
        "import django, os;"
        "os.environ['DJANGO_SETTINGS_MODULE']='cego_club.settings';"
        "import cego_club.settings as s;"
        f"s.LOCALE_PATHS=[{str(copy / 'locale')!r}];"
        "django.setup();"
        "from django.utils import translation;"
        "translation.activate('de');"
        "print(translation.gettext('Close round'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.strip() == "Runde abschließen", result.stderr
    assert (copy / "locale" / "de" / "LC_MESSAGES" / "django.mo").exists()


def test_make_install_compiles_without_gettext(tmp_path, monkeypatch, capsys):
    """``python -m cego_club.catalogues`` (make install, make messages): the app's own
    compiler only, so a computer without GNU gettext gets its German catalogue."""

    def no_program(*args, **kwargs):
        raise AssertionError(f"ran a program: {args}")

    monkeypatch.setattr(catalogues.subprocess, "run", no_program)
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "django.po"
    shutil.copy(LOCALE / "de" / "LC_MESSAGES" / "django.po", po)
    assert catalogues.main([str(tmp_path)]) == 0
    mo = po.with_suffix(".mo")
    translation = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    assert translation.gettext("Close round") == "Runde abschließen"
    assert mo.stat().st_mode & 0o777 == 0o644  # readable by a server's own user
    assert not list(folder.glob("*.tmp"))
    # nothing to compile, or a catalogue it cannot read: exit code 1, saying which
    assert catalogues.main([str(tmp_path / "nothing")]) == 1
    po.write_bytes(b"msgid \xff")
    assert catalogues.main([str(tmp_path)]) == 1
    assert f"could not compile {po}" in capsys.readouterr().err
