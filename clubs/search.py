"""The search key of a name: what "Mueller" and "Müller" have in common.

Pure Python, no database functions: the key is stored on the player (``Player.search_key``)
and a search is a ``LIKE`` on that column, the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import difflib
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


# How alike two names' search keys must be (rapidfuzz's ratio, 0-100) to be offered as maybe
# the same person: "baumer brigite" / "baumer brigitte" 97, "meier hans" / "maier hans" 90,
# "schmid karl" / "schmidt karl" 96. Not offered: "mueller hans" / "mueller anna" 83 (one
# family), "mayer hansi" / "maier hans" 86. Short names are offered more readily ("wolf ida" /
# "wolf ina" 88): an offer costs the desk one click ("a different person"), a duplicate more.
NEAR_MATCH_CUTOFF = 87


def similar_keys(key: str, choices: list[str], *, limit: int = 8) -> list[tuple[int, float]]:
    """Of ``choices`` (search keys without their outer spaces), the positions of those that
    are ``key`` or near it, with the score, closest first. rapidfuzz compares in C++ (a
    list is faster than a dict: 1,500 new names against 1,500 keys in 0.5 s on a busy
    machine, bench/bench_clubs.py)."""
    from rapidfuzz import fuzz, process

    key = key.strip()
    if not key:
        return []
    found = process.extract(
        key,
        choices,
        scorer=fuzz.ratio,
        score_cutoff=NEAR_MATCH_CUTOFF,
        limit=limit,
    )
    return [(index, score) for _choice, score, index in found]


# --- German alphabetical order (DIN 5007, variant 1) ------------------------------------------
# Name lists sort as a dictionary does: ä as a, ö as o, ü as u, ß as ss, case ignored, so
# "Hättich" comes before "Hummel" and "Müller" before "Muster" (variant 2, the phone book's
# ü = ue, would put "Müller" after "Muster"; the search key above spells it that way because
# a search must find "Mueller"). Stored on the player (``Player.sort_key``) and ordered in the
# database: only a-z and 0-9, so byte order and every database collation agree.


def sort_word(text: str) -> str:
    """A name folded for alphabetical order: "Hättich" → "hattich", "Weiß-Haar" → "weisshaar"."""
    # casefold spells ß as ss; the decomposition drops the umlaut's dots and other accents
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFC", text).casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "", plain.replace("æ", "ae").replace("œ", "oe"))


def name_sort_key(first_name: str, last_name: str) -> str:
    """Last name, then first name. The "0" between them sorts before every letter, so that
    "Weber, Zoe" comes before "Webers, Anna" in byte order and in any collation."""
    return f"{sort_word(last_name)}0{sort_word(first_name)}"


# --- club names as member lists spell them ------------------------------------------------

# Words that say "a club" rather than which one: "Cego-Club Bräunlingen", "Cegofreunde
# Bräunlingen" and "CF Bräunlingen e.V." are one club; the town is what tells clubs apart.
CLUB_WORDS = frozenset(
    {
        "cego",
        "cegoclub",
        "cegoklub",
        "cegofreunde",
        "cegorunde",
        "cegoverein",
        "cegospieler",
        "cegostammtisch",
        "club",
        "klub",
        "verein",
        "freunde",
        "runde",
        "stammtisch",
        "spieler",
        "spielgemeinschaft",
        "sg",
        "cf",
        "cc",
        "cr",
        "e",
        "v",
        "ev",
        "der",
        "die",
        "das",
        "des",
        "und",
        "von",
        "in",
        "im",
    }
)


def club_key(name: str) -> str:
    """The key a club's name, short name or remembered spelling is found by."""
    return normalise(name)


def club_town_words(name: str) -> tuple[str, ...]:
    """The words of a club's name that are not "Cego", "Club", "e.V." …: mostly the town."""
    return tuple(word for word in club_key(name).split() if word not in CLUB_WORDS)


def club_similarity(a: str, b: str) -> float:
    """How alike two club names are, 0 to 1. The town words decide (each of one name against
    its likeliest in the other, so "Trieberg" is near "Triberg"); the whole name only breaks
    ties, so "Cego-Club Bräunlingen" is near "Cegofreunde Bräunlingen" and far from
    "Cego-Club Triberg"."""
    whole = difflib.SequenceMatcher(None, club_key(a), club_key(b)).ratio()
    words_a, words_b = club_town_words(a), club_town_words(b)
    if not words_a or not words_b:
        return whole * 0.9  # "Cegoclub" alone says little

    def best(words: tuple[str, ...], others: tuple[str, ...]) -> float:
        return sum(
            max(difflib.SequenceMatcher(None, w, o).ratio() for o in others) for w in words
        ) / len(words)

    towns = min(best(words_a, words_b), best(words_b, words_a))
    return 0.85 * towns + 0.15 * whole
