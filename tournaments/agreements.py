"""A tournament's agreements: rules it plays by beyond its rule source, each one line that the
tournament's tariff card, its page and the score sheets' head show.

Pure: reads the tournament's fields (no query), strings in the active language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def five_table_line() -> str:
    """The short form for the score sheets' head."""
    return _("Tournament agreement: table of five, the dealer sits out")


def agreements(tournament) -> list[str]:
    """The tournament's agreements, in full sentences (empty: none)."""
    lines = []
    if tournament.five_table_agreement:
        lines.append(
            five_table_line()
            + " "
            + _("and pays or receives like the defenders (REFERENCE 2, as at the Schwärzehof).")
        )
    if tournament.last_round_raeuber:
        lines.append(
            _("Tournament agreement: a Räuber in the last round is worth the higher amount.")
        )
    return lines
