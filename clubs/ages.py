"""The youngest and the oldest player of a tournament, for the prize ceremony's side prize and
the press report (pure functions, no Django models).

The rule, as a club would read it out:

- Only birth years count (the registry keeps no birthdays): the youngest are the players of
  the latest birth year among those whose birth year is known, the oldest those of the
  earliest. Players of one year tie, and every one of them who agreed is named.
- A player is named only with their consent (``clubs.models.Player.named_for_age``). Where
  the youngest (or oldest) year's players did not agree, nobody is named for it: naming the
  youngest of those who agreed could name someone younger players sat beside, which would be
  wrong in the paper and unfair at the prize table.
- With fewer than two different birth years known there is neither a youngest nor an oldest.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K")


@dataclass(frozen=True)
class AgedPlayer(Generic[K]):
    key: K  # whatever the caller identifies the player by (an entry's id, a standings row)
    birth_year: int | None
    agreed: bool


@dataclass(frozen=True)
class Ages(Generic[K]):
    youngest: tuple[K, ...] = ()  # in the order given
    oldest: tuple[K, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.youngest or self.oldest)


def youngest_and_oldest(players: Iterable[AgedPlayer[K]]) -> Ages[K]:
    """The keys of the youngest and the oldest players who may be named (the rule above)."""
    known = [player for player in players if player.birth_year is not None]
    years = {player.birth_year for player in known}
    if len(years) < 2:
        return Ages()
    latest, earliest = max(years), min(years)  # type: ignore[type-var]
    return Ages(
        youngest=tuple(p.key for p in known if p.birth_year == latest and p.agreed),
        oldest=tuple(p.key for p in known if p.birth_year == earliest and p.agreed),
    )
