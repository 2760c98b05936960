"""Benchmark the seat draw: ms per draw and repeat pairs for 84, 120 and 150 players.

Run from the repository root:  python bench/bench_draw.py [--tournaments N] [--rounds R ...]

Each simulated tournament draws its rounds one after the other (Cego: tables of 4, odd tables
of 5), every round avoiding the opponents of all earlier rounds, with teams of four kept apart.
Times are wall-clock per draw_round call (the lot, the local search and the seat order).

``--staying N``: N players (spread over the start numbers) stay at one table all day
("bleibt am Tisch"), their table from round 1 kept in every later round.

A last section times the worst case, where the local search cannot reach zero and so runs its
whole iteration budget: 150 players after 3 rounds with one keep-apart group of 45 entries
(more than the 37 tables, so at least 8 violations are unavoidable).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.draw import (  # noqa: E402
    draw_round,
    opponents_from_tables,
    plan_table_sizes,
)


def simulate(
    *, players: int, rounds: int, tournament: int, teams: bool, staying: int = 0
) -> list[tuple[float, int, int]]:
    """(ms, repeat pairs, keep-apart violations) for each round of one simulated tournament."""
    entries = list(range(1, players + 1))
    sizes = plan_table_sizes(players=players, allowed_sizes=frozenset({3, 4, 5}), preferred_size=4)
    keep_apart = [frozenset(entries[i : i + 4]) for i in range(0, players - 3, 4)] if teams else []
    stay = entries[:: max(1, players // staying)][:staying] if staying else []
    tables_of: dict[int, int | None] = dict.fromkeys(stay)
    earlier: list[tuple[int, ...]] = []
    results = []
    for r in range(rounds):
        previous = opponents_from_tables(tables=earlier)
        start = time.perf_counter()
        draw = draw_round(
            players=entries,
            table_sizes=sizes,
            seed=1_000_003 * tournament + r,
            previous_opponents=previous,
            keep_apart=keep_apart,
            fixed_tables=tables_of,
        )
        ms = (time.perf_counter() - start) * 1000
        results.append((ms, draw.repeat_pairs, draw.keep_apart_violations))
        earlier += draw.tables
        for entry in stay:
            table = draw.seat_of(entry=entry)[0]
            assert tables_of[entry] in (None, table), "a staying player moved"
            tables_of[entry] = table
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tournaments", type=int, default=20, help="simulated tournaments")
    parser.add_argument("--rounds", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--players", type=int, nargs="+", default=[84, 120, 150])
    parser.add_argument("--no-teams", action="store_true", help="no keep-apart teams of four")
    parser.add_argument("--staying", type=int, default=0, help="players who stay at one table")
    args = parser.parse_args()

    print(
        f"{'players':>7} {'rounds':>6} {'round':>5} {'draws':>5} {'mean ms':>8} {'max ms':>7} "
        f"{'repeats (sum/max)':>17} {'keep-apart viol.':>16}"
    )
    for players in args.players:
        for rounds in args.rounds:
            per_round: list[list[tuple[float, int, int]]] = [[] for _ in range(rounds)]
            for t in range(args.tournaments):
                for r, result in enumerate(
                    simulate(
                        players=players,
                        rounds=rounds,
                        tournament=t,
                        teams=not args.no_teams,
                        staying=args.staying,
                    )
                ):
                    per_round[r].append(result)
            for r, results in enumerate(per_round):
                times = [ms for ms, _, _ in results]
                repeats = [rep for _, rep, _ in results]
                violations = [v for _, _, v in results]
                print(
                    f"{players:>7} {rounds:>6} {r + 1:>5} {len(results):>5} "
                    f"{statistics.mean(times):>8.1f} {max(times):>7.1f} "
                    f"{sum(repeats):>9}/{max(repeats):<7} {sum(violations):>16}"
                )
    print("\nworst case (search budget exhausted): 150 players, round 4, keep-apart group of 45")
    entries = list(range(1, 151))
    sizes = plan_table_sizes(players=150, allowed_sizes=frozenset({3, 4, 5}), preferred_size=4)
    earlier: list[tuple[int, ...]] = []
    for r in range(3):
        earlier += draw_round(
            players=entries,
            table_sizes=sizes,
            seed=r,
            previous_opponents=opponents_from_tables(tables=earlier),
            keep_apart=[],
        ).tables
    for seed in range(5):
        start = time.perf_counter()
        draw = draw_round(
            players=entries,
            table_sizes=sizes,
            seed=seed,
            previous_opponents=opponents_from_tables(tables=earlier),
            keep_apart=[frozenset(entries[:45])],
        )
        ms = (time.perf_counter() - start) * 1000
        print(
            f"  seed {seed}: {ms:6.1f} ms, keep-apart violations {draw.keep_apart_violations} "
            f"(minimum 8), repeat pairs {draw.repeat_pairs}"
        )


if __name__ == "__main__":
    main()
