"""Demo data: German names, a club, a season, a finished and an upcoming tournament.

Everything is derived from fixed seeds, so loading it twice gives the same data.
"""

import random
from typing import Any

from scoring import RuleSource
from scoring.cards import FULL_PACK, count_card_points, pack_for

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
GUEST_CLUB = {
    "name": "Cegoclub Furtwangen",
    "short_name": "CC Furtwangen",
    "town": "Furtwangen",
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


def raeuber_points(rng: random.Random, rules: RuleSource, active: int) -> list[int]:
    """Each player's points in a Räuber dealt from a shuffled pack (each trick to someone; the
    blind counts to nobody), so the engine takes them."""
    table = next(t for t in rules.tables.values() if t.active == active)
    counting = rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    cards = list(pack or FULL_PACK)
    while True:
        rng.shuffle(cards)
        tricks = [0] * active
        for _trick in range(table.tricks or 11):
            tricks[rng.randrange(active)] += 1
        shares, start = [], 0
        for taken in tricks:
            pile = cards[start : start + active * taken]
            start += len(pile)
            shares.append(
                count_card_points(pile, counting.method, counting.leftover_deduction) if pile else 0
            )
        if sum(shares) <= table.entered_total:
            return shares


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
        points = [0] * (max(active_seats) + 1)
        for seat, share in zip(
            active_seats, raeuber_points(rng, rules, len(active_seats)), strict=True
        ):
            points[seat] = share
        return {"contract": contract, "declarer": active_seats[0], "points": points}
    win_at = rules.counting.win_at
    if rng.random() < 0.6:
        points = rng.randint(win_at, min(total, win_at + 25))
    else:
        points = rng.randint(max(0, win_at - 22), win_at - 1)
    return {"contract": contract, "declarer": declarer, "declarer_points": points}


# --- the season's other tournaments, at other host clubs, with teams ---------------------

DEMO_HOST_CLUBS = [
    {"name": "Cegoclub Triberg", "short_name": "CC Triberg", "town": "Triberg"},
    {"name": "Cegofreunde Furtwangen", "short_name": "CF Furtwangen", "town": "Furtwangen"},
    {"name": "Cego-Runde Vöhrenbach", "short_name": "CR Vöhrenbach", "town": "Vöhrenbach"},
]
# Played before the championship's 1st tournament: (name, day of November 2026, venue).
DEMO_EXTRA_TOURNAMENTS = [
    ("Eröffnungsturnier Triberg", 1, "Kurhaus Triberg"),
    ("Herbstturnier Furtwangen", 7, "Festhalle Furtwangen"),
    ("Vöhrenbacher Cego-Abend", 8, "Gasthaus Kranz"),
]
DEMO_TEAM_NAMES = [
    "Die Schellen-Asse",
    "Gstieß und Mond",
    "Bräunlinger Buben",
    "Triberger Trümpfe",
    "Die Leeren",
    "Brigach-Stecher",
    "Breg-Räuber",
    "Die Geißbuben",
    "Stadtmauer-Cego",
    "Die Mauskönige",
]
DEMO_EXTRA_PLAYERS = 24  # six tables of four, six teams


def load_season_demo(*, season, players, home_club) -> list:
    """Three more finished tournaments of the season at three other host clubs (24 players,
    six teams of four, keep-apart draw), and teams for the upcoming tournament of the home
    club. Safe to run twice: what exists is left alone. Returns the new tournaments."""
    import datetime as dt

    from clubs.models import Club
    from tournaments.models import Round, Tournament
    from tournaments.seating import sitting_out_position
    from tournaments.services import draws, results, setup, teams

    created = []
    field = players[:DEMO_EXTRA_PLAYERS]
    for (name, day, venue), club_data in zip(DEMO_EXTRA_TOURNAMENTS, DEMO_HOST_CLUBS, strict=True):
        club, _ = Club.objects.get_or_create(short_name=club_data["short_name"], defaults=club_data)
        tournament = Tournament.objects.filter(name=name, host_club=club).first()
        if tournament is not None:
            continue
        tournament = setup.create_tournament(
            name=name,
            host_club=club,
            season=season,
            date=dt.date(2026, 11, day),
            venue=venue,
            rules_slug="swm",
            deals_per_round=12,
        )
        entries = [
            setup.register_player(tournament=tournament, player=p, checked_in=True, fee_paid=True)
            for p in field
        ]
        _demo_teams(tournament, entries, teams)
        rng = random.Random(DEMO_SEED + day)
        rules = results.rule_source_of(tournament)
        for number in range(1, tournament.rounds + 1):
            round_ = draws.draw_next_round(
                tournament=tournament, number=number, seed=DEMO_SEED + day * 10 + number
            )
            if round_.awaiting_release:  # checked and shown, as on the day
                round_ = draws.release_draw(round=round_, user=None)
            for table in round_.tables.order_by("number"):
                size = table.seats.count()
                for deal_number in range(1, tournament.deals_per_round + 1):
                    out = sitting_out_position(
                        rules=rules, table_size=size, deal_number=deal_number
                    )
                    active = [seat for seat in range(size) if seat != out]
                    results.enter_deal(
                        table=table,
                        number=deal_number,
                        inputs=plausible_deal(rng, rules=rules, active_seats=active),
                        actor="Demo",
                    )
            Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
        created.append(tournament)
    upcoming = (
        Tournament.objects.filter(season=season, host_club=home_club, round_set__isnull=True)
        .order_by("date")
        .first()
    )
    if upcoming is not None and not upcoming.teams.exists():
        _demo_teams(upcoming, list(upcoming.entries.order_by("number")), teams)
    return created


def _demo_teams(tournament, entries, teams_service) -> None:
    """Teams of four in registration order, the same names (and people) every tournament."""
    for index in range(len(entries) // 4):
        teams_service.create_team(
            tournament=tournament,
            name=DEMO_TEAM_NAMES[index % len(DEMO_TEAM_NAMES)],
            members=entries[index * 4 : index * 4 + 4],
        )
