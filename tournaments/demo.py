"""Demo data: German names, a club, a season, a finished and an upcoming tournament.

Everything is derived from fixed seeds, so loading it twice gives the same data.
"""

import random
from typing import Any

from scoring import RuleSource

FIRST_NAMES_WOMEN = [
    "Anna",
    "Brigitte",
    "Christa",
    "Doris",
    "Elke",
    "Franziska",
    "Gertrud",
    "Hannelore",
    "Ingrid",
    "Jutta",
    "Katharina",
    "Lena",
    "Monika",
    "Renate",
    "Sabine",
    "Theresia",
]
FIRST_NAMES_MEN = [
    "Albert",
    "Bernd",
    "Clemens",
    "Dieter",
    "Egon",
    "Fridolin",
    "Gerhard",
    "Hubert",
    "Josef",
    "Klaus",
    "Lothar",
    "Manfred",
    "Norbert",
    "Otto",
    "Reinhold",
    "Siegfried",
    "Thomas",
    "Ulrich",
    "Valentin",
    "Werner",
    "Xaver",
    "Wolfgang",
    "Martin",
    "Konrad",
]
LAST_NAMES = [
    "Kaltenbach",
    "Faller",
    "Schwär",
    "Hummel",
    "Wehrle",
    "Dilger",
    "Ketterer",
    "Rombach",
    "Scherzinger",
    "Löffler",
    "Tritschler",
    "Heizmann",
    "Winterhalter",
    "Saier",
    "Kienzler",
    "Furtwängler",
    "Jäckle",
    "Hättich",
    "Schuler",
    "Ganter",
    "Rotzinger",
    "Blattmann",
    "Dold",
    "Fehrenbach",
    "Kern",
    "Maier",
    "Straub",
    "Zähringer",
    "Volk",
    "Ruf",
    "Hog",
    "Rösch",
    "Stratz",
    "Baumer",
    "Willmann",
    "Thoma",
    "Zipfel",
    "Gremmelspacher",
    "Hauser",
    "Ringwald",
]

DEMO_CLUB = {
    "name": "Cegofreunde Bräunlingen",
    "short_name": "CF Bräunlingen",
    "town": "Bräunlingen",
}
DEMO_SEASON = {"name": "Schwarzwaldmeisterschaft 2026/27"}
DEMO_TOURNAMENT_NAME = "2. Turnier der Schwarzwaldmeisterschaft"
DEMO_FINISHED_NAME = "1. Turnier der Schwarzwaldmeisterschaft"
DEMO_SEED = 20261114
DEMO_PLAYER_COUNT = 40


def demo_players() -> list[dict]:
    """40 distinct players: every third a woman, every seventh a youth."""
    players = []
    for index in range(DEMO_PLAYER_COUNT):
        is_woman = index % 3 == 0
        first_names = FIRST_NAMES_WOMEN if is_woman else FIRST_NAMES_MEN
        youth = index % 7 == 3
        players.append(
            {
                "first_name": first_names[index % len(first_names)],
                "last_name": LAST_NAMES[index],
                "birth_year": 2009 + index % 5 if youth else 1945 + (index * 7) % 50,
                "category": "youth" if youth else ("woman" if is_woman else "open"),
            }
        )
    return players


# How often each contract comes up at a championship table (a rough guess, for the demo).
CONTRACT_WEIGHTS = {
    "cego": 30,
    "halbe": 9,
    "eine": 14,
    "eine_leere": 9,
    "zwei_leere": 5,
    "zwei_verschiedene": 3,
    "geiss": 2,
    "solo": 12,
    "gegensolo": 3,
    "ultimo": 2,
    "piccolo": 4,
    "bettel": 3,
    "raeuber": 4,
}


def plausible_deal(
    rng: random.Random, *, rules: RuleSource, active_seats: list[int]
) -> dict[str, Any]:
    """A made-up but believable deal under ``rules``: declarers win about 60 % of games."""
    contracts = [c for c in CONTRACT_WEIGHTS if c in rules.contracts]
    contract = rng.choices(contracts, weights=[CONTRACT_WEIGHTS[c] for c in contracts])[0]
    declarer = rng.choice(active_seats)
    kind = rules.contracts[contract].kind
    total = rules.counting.total
    if kind == "fixed":
        return {"contract": contract, "declarer": declarer, "won": rng.random() < 0.55}
    if kind == "raeuber":
        cuts = sorted(rng.sample(range(1, total), len(active_seats) - 1))
        shares = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        points = [0] * (max(active_seats) + 1)
        for seat, share in zip(active_seats, shares, strict=True):
            points[seat] = share
        return {"contract": contract, "declarer": active_seats[0], "points": points}
    win_at = rules.counting.win_at
    if rng.random() < 0.6:
        points = rng.randint(win_at, min(total, win_at + 25))
    else:
        points = rng.randint(max(0, win_at - 22), win_at - 1)
    return {"contract": contract, "declarer": declarer, "declarer_points": points}
