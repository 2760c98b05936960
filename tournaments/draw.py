"""Seat draw for a tournament round (pure Python, no Django).

A round's seat draw places the round's entries (identified by int entry ids) at numbered tables,
each table's seats in playing order.  The draw is by lot (``random.Random(seed)``), so that it is
fully reproducible from the stored seed, and then improved by a local search that swaps players
between tables:

1. keep-apart violations (e.g. two members of the same team at one table) are minimised first;
   one violation weighs more than all possible repeat meetings together;
2. then repeat meetings (two players seated together who already met in an earlier round of the
   tournament), so that nobody meets the same opponent twice where that is possible.

Finally every table's seat order is drawn by lot, too.

Indices used here are 0-based: ``Draw.tables[t][s]`` is the entry at table ``t`` (table number
``t + 1`` for humans), seat ``s``.  Table sizes from :func:`plan_table_sizes` put the tables of the
preferred size first and the odd-sized tables last (highest table numbers).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

__all__ = [
    "CountAdvice",
    "Draw",
    "DrawError",
    "advise_count",
    "draw_round",
    "evaluate_tables",
    "new_seed",
    "opponents_from_tables",
    "place_fixed_tables",
    "plan_table_sizes",
    "swap_players",
]

Tables = tuple[tuple[int, ...], ...]
PreviousOpponents = Mapping[int, Collection[int]] | Collection[frozenset[int]]

# Largest seed handed out by new_seed(): fits a signed 64-bit integer (PostgreSQL bigint).
MAX_SEED = 2**63 - 1


class DrawError(ValueError):
    """The requested table plan or draw is impossible or the input is inconsistent."""


@dataclass(frozen=True, slots=True)
class Draw:
    """The result of a seat draw.

    ``tables[t]`` holds the entry ids at table ``t`` (0-based) in seat order.
    ``repeat_pairs`` counts the pairs seated together who had already met;
    ``keep_apart_violations`` counts the keep-apart pairs seated together.
    """

    tables: Tables
    seed: int
    repeat_pairs: int
    keep_apart_violations: int

    @property
    def table_sizes(self) -> tuple[int, ...]:
        return tuple(len(table) for table in self.tables)

    def seat_of(self, *, entry: int) -> tuple[int, int]:
        """(table index, seat index) of ``entry``, both 0-based."""
        return _locate(self.tables, entry)


# --------------------------------------------------------------------------- table sizes


def plan_table_sizes(
    *,
    players: int,
    allowed_sizes: frozenset[int],
    preferred_size: int,
    prefer_larger_odd_tables: bool = True,
) -> list[int]:
    """Table sizes for ``players`` players, preferred tables first, odd-sized tables last.

    The rule:

    1. use as few tables of a non-preferred size as possible (all others have the preferred
       size);
    2. if several plans need the same number of non-preferred tables, ``prefer_larger_odd_tables``
       (the default) picks the plan with the larger odd tables, i.e. the fewest tables: a Cego
       organiser would rather seat five (the dealer sits out each deal) than three (a different
       game, three-hand Cego).  With ``prefer_larger_odd_tables=False`` the smaller odd tables
       (more tables) are chosen instead.

    E.g. 42 players, allowed {3, 4, 5}, preferred 4: ``[4] * 8 + [5, 5]`` by default,
    ``[4] * 9 + [3, 3]`` with ``prefer_larger_odd_tables=False``.

    The returned list is sorted: the preferred tables first, then the others, larger before
    smaller.  Raises :class:`DrawError` when no plan exists.
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise DrawError(f"the number of players must be an int, not {players!r}")
    sizes = frozenset(allowed_sizes)
    if not sizes:
        raise DrawError("no table sizes are allowed")
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise DrawError(f"table sizes must be positive ints, not {size!r}")
    if preferred_size not in sizes:
        raise DrawError(
            f"the preferred table size {preferred_size} is not among the allowed sizes "
            f"{sorted(sizes)}"
        )
    if players < 1:
        raise DrawError(f"cannot seat {players} players")
    if players < min(sizes):
        raise DrawError(
            f"{players} players are fewer than the smallest allowed table "
            f"(allowed sizes {sorted(sizes)})"
        )

    others = sorted(sizes - {preferred_size})
    # If a plan uses k >= preferred_size odd tables, some non-empty subset of them sums to a
    # multiple of preferred_size (pigeonhole on prefix sums) and can be replaced by preferred
    # tables.  So a minimal plan never needs more than preferred_size - 1 odd tables.
    for count in range(preferred_size):
        plans: list[tuple[int, ...]] = []
        for odd in combinations_with_replacement(others, count):
            rest = players - sum(odd)
            if rest >= 0 and rest % preferred_size == 0:
                plans.append(tuple(sorted(odd, reverse=True)))
        if plans:
            # Same number of odd tables: more seats at them means fewer tables in all.
            if prefer_larger_odd_tables:
                odd = min(plans, key=lambda p: (-sum(p), [-s for s in p]))
            else:
                odd = min(plans, key=lambda p: (sum(p), list(p)))
            rest = players - sum(odd)
            return [preferred_size] * (rest // preferred_size) + list(odd)
    raise DrawError(
        f"{players} players cannot be seated at tables of the allowed sizes {sorted(sizes)}"
    )


@dataclass(frozen=True, slots=True)
class CountAdvice:
    """What the draw page tells the organiser about the number of players.

    ``over``: players beyond the last full table of the preferred size; ``missing``: players
    short of the next one. ``plan``: the tables at the allowed sizes (None: impossible).
    ``with_size``: for each size the tournament could allow as well, the tables it would give
    (only sizes that make a plan possible). ``fill_ins``: the fewest players to add for a plan
    at the allowed sizes (None: no number up to two tables' worth helps).
    """

    players: int
    preferred_size: int
    over: int
    missing: int
    plan: tuple[int, ...] | None
    with_size: dict[int, tuple[int, ...]]
    fill_ins: int | None


def _plan_or_none(players: int, sizes: frozenset[int], preferred: int) -> tuple[int, ...] | None:
    try:
        return tuple(
            plan_table_sizes(players=players, allowed_sizes=sizes, preferred_size=preferred)
        )
    except DrawError:
        return None


def advise_count(
    *,
    players: int,
    allowed_sizes: frozenset[int],
    preferred_size: int,
    possible_sizes: frozenset[int] = frozenset(),
) -> CountAdvice:
    """The player count against the tournament's table sizes, and what would make it fit.

    ``possible_sizes``: sizes the tournament may add (its rule source's, or a table of five by
    agreement); those already allowed are ignored. E.g. 37 players at tables of 4, possible
    {5}: one over, three missing, ``with_size`` {5: (4,) * 8 + (5,)}, three fill-ins.
    """
    allowed = frozenset(allowed_sizes)
    over = players % preferred_size
    plan = _plan_or_none(players, allowed, preferred_size) if players > 0 else None
    with_size: dict[int, tuple[int, ...]] = {}
    for size in sorted(frozenset(possible_sizes) - allowed):
        found = _plan_or_none(players, allowed | {size}, preferred_size) if players > 0 else None
        if found is not None:
            with_size[size] = found
    fill_ins = None
    if plan is None and players > 0:  # nobody checked in: nothing to fill up
        # Two tables' worth always reaches a count the preferred size alone can seat.
        for extra in range(1, 2 * preferred_size + 1):
            if _plan_or_none(players + extra, allowed, preferred_size) is not None:
                fill_ins = extra
                break
    return CountAdvice(
        players=players,
        preferred_size=preferred_size,
        over=over,
        missing=(preferred_size - over) % preferred_size,
        plan=plan,
        with_size=with_size,
        fill_ins=fill_ins,
    )


# --------------------------------------------------------------------------- helpers


def new_seed() -> int:
    """A fresh random seed in 1 .. 2**63 - 1 (fits a PostgreSQL bigint), from ``secrets``."""
    return secrets.randbelow(MAX_SEED) + 1


def opponents_from_tables(*, tables: Iterable[Iterable[int]]) -> dict[int, set[int]]:
    """Who met whom: every entry mapped to the set of entries it shared a table with.

    Pass the tables of several earlier rounds concatenated to cover all of them, e.g.
    ``opponents_from_tables(tables=[*round_1.tables, *round_2.tables])``.  A player sitting
    out as dealer at a table of five still met everyone at that table.
    """
    result: dict[int, set[int]] = {}
    for table in tables:
        seated = list(table)
        for entry in seated:
            result.setdefault(entry, set())
        for a, b in combinations(seated, 2):
            if a == b:
                continue
            result[a].add(b)
            result[b].add(a)
    return result


def swap_players(*, tables: Sequence[Sequence[int]], a: int, b: int) -> Tables:
    """New tables with entries ``a`` and ``b`` swapped (seats included).

    For the organiser's manual change before a round starts.  Swapping two players at the same
    table swaps their seats.  Raises :class:`DrawError` if either is not seated or ``a == b``.
    """
    if a == b:
        raise DrawError(f"cannot swap entry {a} with itself")
    ta, sa = _locate(tables, a)
    tb, sb = _locate(tables, b)
    new = [list(table) for table in tables]
    new[ta][sa], new[tb][sb] = b, a
    return tuple(tuple(table) for table in new)


def evaluate_tables(
    *,
    tables: Sequence[Sequence[int]],
    previous_opponents: PreviousOpponents,
    keep_apart: Collection[frozenset[int]],
) -> tuple[int, int]:
    """``(repeat_pairs, keep_apart_violations)`` of a seating, e.g. after :func:`swap_players`."""
    met = _pair_set(previous_opponents)
    apart = _pair_set(keep_apart)
    repeats = violations = 0
    for table in tables:
        for a, b in combinations(table, 2):
            pair = frozenset((a, b))
            repeats += pair in met
            violations += pair in apart
    return repeats, violations


def _locate(tables: Sequence[Sequence[int]], entry: int) -> tuple[int, int]:
    for t, table in enumerate(tables):
        for s, seated in enumerate(table):
            if seated == entry:
                return t, s
    raise DrawError(f"entry {entry} is not seated in this draw")


def _pair_set(groups: PreviousOpponents) -> set[frozenset[int]]:
    """Normalise a mapping entry -> opponents, or a collection of groups, to a set of pairs.

    A group (frozenset) of more than two entries stands for all pairs within it (e.g. a team,
    or a whole earlier table).
    """
    pairs: set[frozenset[int]] = set()
    if isinstance(groups, Mapping):
        for a, others in groups.items():
            for b in others:
                if a != b:
                    pairs.add(frozenset((a, b)))
    else:
        for group in groups:
            for a, b in combinations(sorted(set(group)), 2):
                pairs.add(frozenset((a, b)))
    return pairs


# --------------------------------------------------------------------------- the draw


def draw_round(
    *,
    players: Sequence[int],
    table_sizes: Sequence[int],
    seed: int,
    previous_opponents: PreviousOpponents,
    keep_apart: Collection[frozenset[int]],
    fixed: Mapping[int, tuple[int, int]] | None = None,
    fixed_tables: Mapping[int, int | None] | None = None,
    max_iterations: int | None = None,
) -> Draw:
    """Draw the seats of a round by lot and improve the draw by local search.

    ``players``: the entry ids to seat (any order; they are sorted first, so the input order
    does not change the draw).  ``table_sizes``: as from :func:`plan_table_sizes`; must sum to
    the number of players.  ``seed``: the lot; same inputs and seed give the identical draw.
    ``previous_opponents``: entry -> entries already met, or a collection of frozensets
    (pairs, or whole earlier tables).  ``keep_apart``: frozensets of entries that should sit at
    different tables (pairs or e.g. whole teams).  Entries not in ``players`` are ignored in
    both.  ``fixed``: entry -> (table index, seat index), 0-based; such an entry keeps exactly
    that seat (e.g. a wheelchair place).  ``fixed_tables``: entry -> table index (0-based) or
    None, the players who stay at one table all day ("bleibt am Tisch"): such an entry sits at
    that table (its seat there by lot); with None, or where that table does not exist in this
    round or another fixed player holds it, at a table no other fixed player holds (see
    :func:`place_fixed_tables`).  ``max_iterations``: local-search budget (default grows with
    the field).

    Keep-apart violations are minimised first, repeat meetings second.
    """
    entries, sizes = _checked_field(players, table_sizes)
    index = {entry: i for i, entry in enumerate(entries)}
    fixed_seats = _check_fixed(fixed or {}, index, sizes)
    rng = random.Random(seed)  # every step below draws from it in this order: same seed, same draw
    staying = {
        index[entry]: table
        for entry, table in place_fixed_tables(
            wanted={e: t for e, t in (fixed_tables or {}).items() if e not in (fixed or {})},
            table_sizes=sizes,
            taken=[t for t, _s in fixed_seats.values()],
            rng=rng,
        ).items()
    }
    tab, movable = _first_lot(rng, len(entries), sizes, fixed_seats, staying)
    met = [p for p in _pair_set(previous_opponents) if p <= index.keys()]
    apart = [p for p in _pair_set(keep_apart) if p <= index.keys()]
    tab = _local_search(
        rng=rng,
        tab=tab,
        tables=len(sizes),
        nbr=_conflict_weights(len(entries), index, met, apart),
        movable=movable,
        fixed=set(fixed_seats) | set(staying),
        max_iterations=500 + 40 * len(entries) if max_iterations is None else max_iterations,
    )
    tables = _seat_order(rng, entries, sizes, tab, fixed_seats)
    repeats, violations = evaluate_tables(
        tables=tables,
        previous_opponents=[frozenset(p) for p in met],
        keep_apart=[frozenset(p) for p in apart],
    )
    return Draw(tables=tables, seed=seed, repeat_pairs=repeats, keep_apart_violations=violations)


def _checked_field(
    players: Sequence[int], table_sizes: Sequence[int]
) -> tuple[list[int], list[int]]:
    """The players sorted (the input order never changes the draw) and the table sizes, or a
    :class:`DrawError` saying what is wrong with them."""
    entries = sorted(players)
    if any(isinstance(p, bool) or not isinstance(p, int) for p in entries):
        raise DrawError("entry ids must be ints")
    if len(set(entries)) != len(entries):
        raise DrawError("an entry appears more than once among the players")
    sizes = list(table_sizes)
    if not sizes:
        raise DrawError("no tables to seat the players at")
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in sizes):
        raise DrawError(f"table sizes must be positive ints: {sizes}")
    if sum(sizes) != len(entries):
        raise DrawError(f"the table sizes {sizes} seat {sum(sizes)}, not {len(entries)} players")
    return entries, sizes


def _first_lot(
    rng: random.Random,
    n: int,
    sizes: Sequence[int],
    fixed_seats: Mapping[int, tuple[int, int]],
    staying: Mapping[int, int],
) -> tuple[list[int], list[int]]:
    """The lot: fixed players at their tables, everybody else shuffled into the gaps. Each
    player's table (by index), and the players the search may move."""
    tab = [-1] * n
    used = [0] * len(sizes)
    for i, (t, _s) in fixed_seats.items():
        tab[i] = t
        used[t] += 1
    for i, t in staying.items():
        tab[i] = t
        used[t] += 1
    free_places: list[int] = []
    for t, size in enumerate(sizes):
        free_places.extend([t] * (size - used[t]))
    movable = [i for i in range(n) if i not in fixed_seats and i not in staying]
    shuffled = movable[:]
    rng.shuffle(shuffled)
    for i, t in zip(shuffled, free_places, strict=True):
        tab[i] = t
    return tab, movable


def _conflict_weights(
    n: int,
    index: Mapping[int, int],
    met: Sequence[frozenset[int]],
    apart: Sequence[frozenset[int]],
) -> list[dict[int, int]]:
    """Per player, the weight of sitting with each other: a repeat meeting 1, a keep-apart
    pair more than every possible repeat meeting together."""
    apart_weight = len(met) + 1
    nbr: list[dict[int, int]] = [{} for _ in range(n)]
    for pairs, weight in ((met, 1), (apart, apart_weight)):
        for pair in pairs:
            a, b = (index[e] for e in pair)
            nbr[a][b] = nbr[a].get(b, 0) + weight
            nbr[b][a] = nbr[b].get(a, 0) + weight
    return nbr


def _seat_order(
    rng: random.Random,
    entries: Sequence[int],
    sizes: Sequence[int],
    tab: Sequence[int],
    fixed_seats: Mapping[int, tuple[int, int]],
) -> Tables:
    """The seats at each table by lot, fixed players at their seats."""
    seats: list[list[int | None]] = [[None] * size for size in sizes]
    for i, (t, s) in fixed_seats.items():
        seats[t][s] = entries[i]
    at_table: list[list[int]] = [[] for _ in sizes]
    for i in range(len(entries)):
        if i not in fixed_seats:
            at_table[tab[i]].append(i)
    for t, members in enumerate(at_table):
        rng.shuffle(members)
        gaps = [s for s, e in enumerate(seats[t]) if e is None]
        for s, i in zip(gaps, members, strict=True):
            seats[t][s] = entries[i]
    return tuple(tuple(e for e in table if e is not None) for table in seats)


def place_fixed_tables(
    *,
    wanted: Mapping[int, int | None],
    table_sizes: Sequence[int],
    taken: Collection[int] = (),
    rng: random.Random | None = None,
) -> dict[int, int]:
    """The table (0-based index) of each player who stays at one table ("bleibt am Tisch").

    ``wanted``: entry -> the table it sat at so far (0-based; None: not seated yet).
    ``taken``: tables already holding a player fixed to a seat. Every such player gets a table
    of their own, so that the others can move round them: their own table where it exists and
    no other fixed player wants it (of two who want one table, the lower entry id keeps it);
    the rest, in entry order, the free table nearest to the one they had (the lower on a tie),
    or one by lot when they had none. Raises :class:`DrawError` when there are more such
    players than tables (the service says so in German first); two of them share a table
    only where the taken tables leave no other (unavoidable)."""
    tables = len(table_sizes)
    if len(wanted) > tables:
        raise DrawError(f"{len(wanted)} players stay at their table, but there are {tables} tables")
    rng = rng if rng is not None else random.Random(0)
    capacity = list(table_sizes)
    held = [0] * tables  # fixed players at each table
    for t in taken:
        capacity[t] -= 1
        held[t] += 1
    result: dict[int, int] = {}
    later: list[int] = []
    for entry in sorted(wanted):
        table = wanted[entry]
        if table is not None and 0 <= table < tables and not held[table] and capacity[table] > 0:
            result[entry] = table
            held[table] += 1
            capacity[table] -= 1
        else:
            later.append(entry)
    for entry in later:
        open_ = [t for t in range(tables) if capacity[t] > 0]
        if not open_:
            raise DrawError("no seat is left for a player who stays at the table")
        fewest = min(held[t] for t in open_)  # 0 unless every table holds one already
        free = [t for t in open_ if held[t] == fewest]
        had = wanted[entry]
        if had is None:
            table = free[rng.randrange(len(free))]
        else:
            table = min(free, key=lambda t: (abs(t - had), t))
        result[entry] = table
        held[table] += 1
        capacity[table] -= 1
    return result


def _check_fixed(
    fixed: Mapping[int, tuple[int, int]], index: Mapping[int, int], sizes: Sequence[int]
) -> dict[int, tuple[int, int]]:
    result: dict[int, tuple[int, int]] = {}
    taken: dict[tuple[int, int], int] = {}
    for entry, place in sorted(fixed.items()):
        if entry not in index:
            raise DrawError(f"fixed entry {entry} is not among the players")
        t, s = place
        if not (0 <= t < len(sizes)) or not (0 <= s < sizes[t]):
            raise DrawError(f"fixed seat {place} of entry {entry} does not exist")
        if (t, s) in taken:
            raise DrawError(f"entries {taken[(t, s)]} and {entry} are both fixed at seat {place}")
        taken[(t, s)] = entry
        result[index[entry]] = (t, s)
    return result


def _local_search(
    *,
    rng: random.Random,
    tab: list[int],
    tables: int,
    nbr: list[dict[int, int]],
    movable: list[int],
    fixed: set[int],
    max_iterations: int,
) -> list[int]:
    """Min-conflicts tabu search over swaps of two players at different tables.

    ``tab[i]`` is player i's table; the cost is the summed weight of the pairs seated together.
    Returns the best assignment found (a new list).
    """
    n = len(tab)
    conf = _conflicts(tab, tables, nbr)
    cost = sum(conf[i][tab[i]] for i in range(n)) // 2
    floor = _fixed_floor(tab, nbr, fixed)
    best_cost = cost
    best = tab[:]
    if cost <= floor or len(movable) < 2 or tables < 2:
        return best

    tabu = [0] * n
    noise = 0.03
    for it in range(1, max_iterations + 1):
        bad = [i for i in movable if conf[i][tab[i]] > 0]
        if not bad:
            break
        x = bad[rng.randrange(len(bad))]
        if rng.random() < noise:
            swap = _random_partner(rng, x, tab=tab, conf=conf, nbr=nbr, movable=movable)
            if swap is None:
                break
        else:
            swap = _best_partner(
                rng,
                x,
                tab=tab,
                conf=conf,
                nbr=nbr,
                movable=movable,
                tabu=tabu,
                it=it,
                aspiration=best_cost - cost,
            )
            if swap is None:
                continue
        y, delta = swap
        _swap(x, y, tab=tab, conf=conf, nbr=nbr)
        cost += delta
        tabu[x] = it + 2 + rng.randrange(8)
        tabu[y] = it + 2 + rng.randrange(8)
        if cost < best_cost:
            best_cost = cost
            best = tab[:]
            if cost <= floor:
                break
    return best


def _conflicts(tab: list[int], tables: int, nbr: list[dict[int, int]]) -> list[list[int]]:
    """``conf[i][t]``: the weight between player i and the players at table t (i excluded)."""
    conf = [[0] * tables for _ in range(len(tab))]
    for i, row in enumerate(conf):
        for j, w in nbr[i].items():
            row[tab[j]] += w
    return conf


def _fixed_floor(tab: list[int], nbr: list[dict[int, int]], fixed: set[int]) -> int:
    """Pairs of fixed players at the same table cannot be separated: a lower bound."""
    return sum(w for i in fixed for j, w in nbr[i].items() if j in fixed and tab[j] == tab[i]) // 2


def _random_partner(
    rng: random.Random,
    x: int,
    *,
    tab: list[int],
    conf: list[list[int]],
    nbr: list[dict[int, int]],
    movable: list[int],
) -> tuple[int, int] | None:
    """The noise step: any movable player at another table than x's, and the swap's change of
    cost; None when every movable player sits at x's table."""
    a = tab[x]
    others = [y for y in movable if tab[y] != a]
    if not others:
        return None
    y = others[rng.randrange(len(others))]
    b = tab[y]
    return y, conf[x][b] - conf[x][a] + conf[y][a] - conf[y][b] - 2 * nbr[x].get(y, 0)


def _best_partner(
    rng: random.Random,
    x: int,
    *,
    tab: list[int],
    conf: list[list[int]],
    nbr: list[dict[int, int]],
    movable: list[int],
    tabu: list[int],
    it: int,
    aspiration: int,
) -> tuple[int, int] | None:
    """The greedy step: the swap partner for x that lowers the cost most (ties drawn at
    random), and that change; a tabu partner only where the swap would beat the best cost so
    far (``aspiration``: the best cost minus the current one). None when every partner is
    tabu."""
    a = tab[x]
    cx = conf[x]
    own_x = cx[a]
    wx = nbr[x]
    best_delta: int | None = None
    candidates: list[int] = []
    for y in movable:
        b = tab[y]
        if b == a:
            continue
        cy = conf[y]
        d = cx[b] - own_x + cy[a] - cy[b]
        if wx:
            d -= 2 * wx.get(y, 0)
        if tabu[y] > it and d >= aspiration:
            continue
        if best_delta is None or d < best_delta:
            best_delta = d
            candidates = [y]
        elif d == best_delta:
            candidates.append(y)
    if best_delta is None:
        return None
    return candidates[rng.randrange(len(candidates))], best_delta


def _swap(
    x: int, y: int, *, tab: list[int], conf: list[list[int]], nbr: list[dict[int, int]]
) -> None:
    """Swap x (table a) and y (table b), keeping the conflict table up to date."""
    a, b = tab[x], tab[y]
    for j, w in nbr[x].items():
        row = conf[j]
        row[a] -= w
        row[b] += w
    for j, w in nbr[y].items():
        row = conf[j]
        row[b] -= w
        row[a] += w
    tab[x] = b
    tab[y] = a
