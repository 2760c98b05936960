"""The German message catalogue is complete: every entry translated, none fuzzy, and every
placeholder of the English text kept in the German one."""

import re
from collections import Counter
from pathlib import Path

import pytest
from django.utils import translation

CATALOGUE = Path(__file__).resolve().parents[2] / "cego_club/locale/de/LC_MESSAGES/django.po"

_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr\[\d+\]|msgstr)\s+"(.*)"\s*$')
_CONTINUATION = re.compile(r'^"(.*)"\s*$')
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
# %(name)s, %(count)d, %s, %d ... and {name} (python-brace-format); "%%" is a literal percent.
_PERCENT = re.compile(r"%\([^)]+\)[sdifr]|%[sdifr]")
_BRACE = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def _entries(path: Path) -> list[dict]:
    """The non-obsolete entries of a PO file, header excluded: fields, flags, first line."""
    entries = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8").strip()):
        lines = block.splitlines()
        if all(line.startswith("#~") or not line.strip() for line in lines):
            continue  # obsolete
        fields: dict[str, str] = {}
        flags: set[str] = set()
        reference = ""
        key = None
        for line in lines:
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#:") and not reference:
                reference = line[2:].strip().split()[0]
            elif line.startswith("#"):
                continue
            elif match := _KEYWORD.match(line):
                key = match.group(1)
                fields[key] = _unescape(match.group(2))
            elif (match := _CONTINUATION.match(line)) and key:
                fields[key] += _unescape(match.group(1))
        if fields.get("msgid"):
            entries.append({"fields": fields, "flags": flags, "where": reference})
    return entries


def _placeholders(text: str) -> Counter:
    text = text.replace("%%", "")
    return Counter(_PERCENT.findall(text)) + Counter(_BRACE.findall(text))


ENTRIES = _entries(CATALOGUE)


def test_catalogue_has_entries():
    assert len(ENTRIES) > 500


def test_every_entry_is_translated_and_none_is_fuzzy():
    untranslated = []
    fuzzy = []
    for entry in ENTRIES:
        fields = entry["fields"]
        msgstrs = [v for k, v in fields.items() if k.startswith("msgstr")]
        expected = 2 if "msgid_plural" in fields else 1
        if len(msgstrs) != expected or not all(msgstrs):
            untranslated.append(f"{entry['where']}: {fields['msgid']!r}")
        if "fuzzy" in entry["flags"]:
            fuzzy.append(f"{entry['where']}: {fields['msgid']!r}")
    assert not untranslated, "untranslated:\n" + "\n".join(untranslated)
    assert not fuzzy, "fuzzy:\n" + "\n".join(fuzzy)


def test_placeholders_match():
    wrong = []
    for entry in ENTRIES:
        fields = entry["fields"]
        if "msgid_plural" in fields:
            pairs = [
                (fields["msgid"], fields.get("msgstr[0]", "")),
                (fields["msgid_plural"], fields.get("msgstr[1]", "")),
            ]
        else:
            pairs = [(fields["msgid"], fields.get("msgstr", ""))]
        for source, translated in pairs:
            if translated and _placeholders(source) != _placeholders(translated):
                wrong.append(f"{entry['where']}: {source!r} -> {translated!r}")
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("english", "german"),
    [("Tournaments", "Turniere"), ("Standings", "Rangliste"), ("Seat plan", "Sitzplan")],
)
def test_compiled_catalogue_is_german(english, german):
    """The compiled catalogue (make messages) is the one Django uses."""
    with translation.override("de"):
        assert translation.gettext(english) == german
    with translation.override("en"):
        assert translation.gettext(english) == english
