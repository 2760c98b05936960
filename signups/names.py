"""What a name typed into the public sign-up form may hold (pure: no model, no Django).

A name reaches other people: the organisers' list, the hall's check-in list, and the mail
to the address the form was given (which need not be the sender's). So a name is one line
of letters as people write them, never a carrier for text or links:

- no line break and no control character: Unicode categories ``Cc`` (tab, newline, escape,
  NUL …), ``Cf`` (invisible formatting: right-to-left override, zero-width characters, soft
  hyphen), ``Cs``/``Co``/``Cn`` (surrogates, private use, unassigned) and ``Zl``/``Zp`` (the
  line and paragraph separators);
- nothing that looks like a web or mail address: ``://``, ``@``, or a letter or digit, a
  dot and two or more letters straight after it (``spam.de``, ``t.co``, ``www.x``). "J. R.",
  "J.R.", "Dr. Hans", "St. Georgen", "Hans-Peter", "O'Neill" pass; "Dr.Hans" is refused
  with the hint to put a space after the dot.
"""

from __future__ import annotations

import re
import unicodedata

# Categories of characters that are no part of a written name.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_ADDRESS = re.compile(r"://|@|[^\W_]\.[^\W\d_]{2,}")


def has_control_character(text: str) -> bool:
    """A line break, tab or other control or invisible formatting character in ``text``."""
    return any(unicodedata.category(c) in _INVISIBLE for c in text)


def looks_like_address(text: str) -> bool:
    """``text`` holds something a mail program would show as a link (web or mail address)."""
    return _ADDRESS.search(text) is not None
