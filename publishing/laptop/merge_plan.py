"""The three-way merge of a laptop's tournament with the season server's copy, by item
digests only (pure: no model, no query).

When the server holds another state than the laptop's acknowledged position, one of them
moved without the other: a laptop restored from a backup, a second laptop from the same
backup or data folder, a server restored from an older backup, or a batch sent with the
club's token from elsewhere. Deals are annulled in this app, never deleted, so an item the
server holds and the laptop lacks is never "deleted on the laptop" unless the laptop's own
acknowledged history holds it.

The common ancestor is the laptop's position: the item digests of the last state the server
acknowledged to this laptop copy (or that it took back). For each item, with ``a`` the
ancestor's digest, ``l`` the laptop's and ``s`` the server's (None: not there):

- ``s`` is None, or ``s == l``: nothing to take; the laptop's version (if any) is published.
- The server knows the ancestor (its history runs through it, so ``s`` is newer than ``a``):
  ``l == a`` → **take** the server's (only the server moved); ``s == a`` → the laptop's
  stands (only the laptop moved); ``l`` None with ``s != a`` → **take** (the server changed
  what the laptop dropped: never lose it); otherwise both moved apart → **conflict**.
- The server does not know the ancestor (it was restored from an older backup, or the
  tournament predates its record): only what the laptop never had is taken (``l`` and ``a``
  None); where the laptop dropped an item the server changed, the server's is taken; where
  ``s == a`` the laptop's stands; everything else is a **conflict**: which is newer is not
  guessed from digests.

A conflict is then read by content (``settle_by_history``): where one version's history
(a deal's corrections, annulment and confirmations; a round's changes) continues the
other's, that one is newer and no conflict: a server restored from an older backup holds
the correction's ancestor, and the laptop's version stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MergePlan:
    """The keys whose server version the laptop takes, and those the desk must choose."""

    take: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.take and not self.conflicts


def plan_merge(
    *,
    ancestor: Mapping[str, str],
    laptop: Mapping[str, str],
    server: Mapping[str, str],
    server_knows_ancestor: bool,
) -> MergePlan:
    """What the laptop takes back and what waits for the desk (see the module's rules)."""
    take: list[str] = []
    conflicts: list[str] = []
    for key in sorted(server):
        a, lap, s = ancestor.get(key), laptop.get(key), server[key]
        if s in (lap, a):
            continue  # the same, or only the laptop moved: its version is published
        if lap is None:
            take.append(key)  # the server holds what the laptop lacks or dropped unchanged
        elif server_knows_ancestor and lap == a:
            take.append(key)  # only the server moved
        else:
            conflicts.append(key)
    return MergePlan(take=take, conflicts=conflicts)


def continues(newer: Mapping[str, Any], older: Mapping[str, Any]) -> bool:
    """Whether ``newer`` is ``older`` with more of its history: ``older``'s history entries
    are the first of ``newer``'s, and ``newer`` has more."""
    new_history, old_history = newer.get("history"), older.get("history")
    if not isinstance(new_history, list) or not isinstance(old_history, list):
        return False
    return len(new_history) > len(old_history) and new_history[: len(old_history)] == old_history


def settle_by_history(
    plan: MergePlan, *, laptop: Mapping[str, Mapping[str, Any]], server: Mapping[str, Any]
) -> MergePlan:
    """The plan with each conflict whose one version continues the other's history settled:
    the laptop's stands where it continues the server's, the server's is taken where it
    continues the laptop's; the rest stay conflicts."""
    take, conflicts = list(plan.take), []
    for key in plan.conflicts:
        here, there = laptop.get(key), server.get(key)
        if here is not None and there is not None and continues(here, there):
            continue
        if here is not None and there is not None and continues(there, here):
            take.append(key)
            continue
        conflicts.append(key)
    return MergePlan(take=sorted(take), conflicts=conflicts)


def effective_digests(
    laptop: Mapping[str, str], server: Mapping[str, str], open_conflicts: set[str]
) -> dict[str, str]:
    """The laptop's digests with each open conflict held at the server's version (or left
    out where the server lacks it): what a batch may publish while the desk has not chosen."""
    digests = {key: digest for key, digest in laptop.items() if key not in open_conflicts}
    for key in open_conflicts:
        if key in server:
            digests[key] = server[key]
    return digests
