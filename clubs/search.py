"""The search key of a name: what "Mueller" and "Müller" have in common.

Pure Python, no database functions: the key is stored on the player (``Player.search_key``)
and a search is a ``LIKE`` on that column, the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
import unicodedata

# German spellings without umlauts: "Müller" is written "Mueller" on many lists.
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "œ": "oe"})
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def normalise(text: str) -> str:
    """Lower case, umlauts spelt out (ü → ue, ß → ss), other accents dropped, punctuation and
    repeated spaces folded to one space: "Weißhaar" → "weisshaar", "José-María" → "jose maria".
    """
    # NFC first: a "u" followed by a combining diaeresis becomes "ü" and is spelt out as "ue".
    folded = unicodedata.normalize("NFC", text).casefold().translate(_GERMAN)
    decomposed = unicodedata.normalize("NFKD", folded)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_ALNUM.sub(" ", plain).strip()


def player_key(first_name: str, last_name: str) -> str:
    """The stored key: last name first, so that a prefix search finds the family name."""
    return f" {normalise(last_name)} {normalise(first_name)} "
