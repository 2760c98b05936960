"""The register of sanctions as the season scorer reads it: every ban with its reason, who
decided, who recorded it, and where it stands today (in force, to come, run out, lifted);
a ban for N tournaments with the last day the calendar gives it. Three queries (four with a
ban for N tournaments)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clubs.models import Sanction
from tournaments.selectors.sanctions import FIELDS, SanctionTerms, terms_of

IN_FORCE, TO_COME, RUN_OUT, LIFTED = "in_force", "to_come", "run_out", "lifted"


@dataclass(frozen=True)
class RegisterRow:
    sanction: Sanction
    terms: SanctionTerms
    state: str


def sanctions_register(*, today: dt.date) -> list[RegisterRow]:
    """The register's rows, those in force and to come first, then the others, newest first
    (the laptop's copies of a server's register are not the register: left out)."""
    sanctions = list(
        Sanction.objects.filter(from_registry=False)
        .select_related("player", "recorded_by", "lifted_by")
        .prefetch_related("player__memberships__club")
        .order_by("-starts_on", "-pk")
    )
    terms = {t.pk: t for t in terms_of({f: getattr(s, f) for f in FIELDS} for s in sanctions)}
    rows = []
    for sanction in sanctions:
        term = terms[sanction.pk]
        if sanction.lifted_at is not None:
            state = LIFTED
        elif term.starts_on > today:
            state = TO_COME
        elif term.in_force(today):
            state = IN_FORCE
        else:
            state = RUN_OUT
        rows.append(RegisterRow(sanction, term, state))
    order = {IN_FORCE: 0, TO_COME: 1, RUN_OUT: 2, LIFTED: 2}
    return sorted(rows, key=lambda row: order[row.state])
