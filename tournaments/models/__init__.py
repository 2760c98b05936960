"""Tournaments and every deal played in them (the season: ``seasons.models``).

Invariants that the database can express live in constraints here; the ones it cannot
(a table has 3 to 5 seats, a deal's seat indices exist at its table) are kept by the
service layer in ``tournaments.services``.

One module per topic; every name is importable from ``tournaments.models`` as before (the
migrations name ``tournaments.models.new_table_token`` and its like). The modules are
imported in the order the models were written, which is the order ``apps.get_models()``
gives them (``venue.backups`` reads and restores in that order).
"""

# In the order of definition (above), not sorted:
# isort: off
from tournaments.models.tournament import Tournament
from tournaments.models.players import Entry, KeepApart, Team
from tournaments.models.rounds import (
    MAX_SEATS,
    SHORT_CODE_ALPHABET,
    SHORT_CODE_LENGTH,
    Round,
    Seat,
    Substitution,
    Table,
    new_short_code,
    new_short_codes,
    new_table_token,
    normalise_short_code,
    random_short_code,
)
from tournaments.models.deals import SCORE_FIELDS, SCORE_LIMIT, Deal
from tournaments.models.log import AppendOnly, DealChange, LotDraw, RoundChange, TournamentChange
from tournaments.models.hall import (
    ANNOUNCEMENT_LENGTH,
    CALL_REASON_LENGTH,
    Announcement,
    RefereeCall,
)
from tournaments.models.fairness import FAIRNESS_TEXT_LENGTH, PENALTY_LENGTH, Ruling, SeatSwap
from tournaments.models.sync import ArchiveItem, HallRegistration, RevisionScope
from tournaments.models.sheets import SheetPhoto, SheetTyping
# isort: on

__all__ = [
    "ANNOUNCEMENT_LENGTH",
    "CALL_REASON_LENGTH",
    "FAIRNESS_TEXT_LENGTH",
    "MAX_SEATS",
    "PENALTY_LENGTH",
    "SCORE_FIELDS",
    "SCORE_LIMIT",
    "SHORT_CODE_ALPHABET",
    "SHORT_CODE_LENGTH",
    "Announcement",
    "AppendOnly",
    "ArchiveItem",
    "Deal",
    "DealChange",
    "Entry",
    "HallRegistration",
    "KeepApart",
    "LotDraw",
    "RefereeCall",
    "RevisionScope",
    "Round",
    "RoundChange",
    "Ruling",
    "Seat",
    "SeatSwap",
    "SheetPhoto",
    "SheetTyping",
    "Substitution",
    "Table",
    "Team",
    "Tournament",
    "TournamentChange",
    "new_short_code",
    "new_short_codes",
    "new_table_token",
    "normalise_short_code",
    "random_short_code",
]
