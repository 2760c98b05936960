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
    # Its players' results pages are public (linked from the standings); the other demo
    # clubs keep theirs for their organisers (the sized demo's players are spread over them).
    "public_player_pages": True,
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
    won = rng.random() < 0.6
    points = declarer_points(rng, rules, len(active_seats), won=won)
    if points is None:  # a pack these bounds do not know: a believable count
        win_at = rules.counting.win_at
        if won:
            points = rng.randint(win_at, min(total, win_at + 25))
        else:
            points = rng.randint(max(0, win_at - 22), win_at - 1)
    return {"contract": contract, "declarer": declarer, "declarer_points": points}


def declarer_points(rng: random.Random, rules: RuleSource, active: int, *, won: bool) -> int | None:
    """A declarer's card points dealt from a shuffled pack: the blind (where it counts to the
    declarer) and the cards of the tricks they took, dealt again until the game is ``won`` or
    lost. None where the table's pack is not known (a club counting to another total)."""
    table = next(t for t in rules.tables.values() if t.active == active)
    counting = rules.counting
    pack = pack_for(table.entered_total, counting.method, counting.leftover_deduction)
    if pack is None or table.tricks is None or len(pack) < active * table.tricks:
        return None
    cards = list(pack)
    blind = len(pack) - active * table.tricks if counting.blind_to_declarer else 0
    while True:
        rng.shuffle(cards)
        pile = cards[: blind + active * rng.randint(1, table.tricks)]
        points = count_card_points(pile, counting.method, counting.leftover_deduction)
        if (points >= counting.win_at) == won:
            return points


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
    from tournaments import rule_snapshot
    from tournaments.models import Round, Tournament
    from tournaments.seating import sitting_out_position
    from tournaments.services import draws, phone_entry, setup, teams

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
        rules = rule_snapshot.rule_source_of(tournament)
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
                    phone_entry.enter_deal(
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


# --- a demo of any size: one more finished tournament, for trials and benchmarks ----------

SIZED_MAX_PLAYERS = 400
SIZED_MAX_ROUNDS = 10
SIZED_DEALS_PER_ROUND = 24
SIZED_TABLE_SIZES = frozenset({4})  # the championship's tables (swm is played at four)
SIZED_CLUBS = [DEMO_CLUB, *DEMO_HOST_CLUBS, GUEST_CLUB]


def sized_demo_name(players: int, rounds: int) -> str:
    return f"Demoturnier: {players} Spieler, {rounds} Runden"


def sized_demo_problem(players: int, rounds: int) -> str:
    """Why a demo tournament of ``players`` and ``rounds`` cannot be built ("" when it can)."""
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    from tournaments import draw as seat_draw

    if not 1 <= players <= SIZED_MAX_PLAYERS:
        return _("The demo tournament has 1 to %(most)s players, not %(players)s.") % {
            "most": SIZED_MAX_PLAYERS,
            "players": players,
        }
    if not 1 <= rounds <= SIZED_MAX_ROUNDS:
        return _("The demo tournament has 1 to %(most)s rounds, not %(rounds)s.") % {
            "most": SIZED_MAX_ROUNDS,
            "rounds": rounds,
        }
    try:
        seat_draw.plan_table_sizes(
            players=players, allowed_sizes=SIZED_TABLE_SIZES, preferred_size=4
        )
    except seat_draw.DrawError:
        return ngettext(
            "%(count)s player cannot be seated at tables of %(sizes)s.",
            "%(count)s players cannot be seated at tables of %(sizes)s.",
            players,
        ) % {"count": players, "sizes": ", ".join(str(s) for s in sorted(SIZED_TABLE_SIZES))}
    return ""


def sized_demo_players(count: int) -> list[dict]:
    """``count`` distinct players: the 40 of the demo first, then more names made of the same
    first and last names (every third a woman, every seventh a youth)."""
    players = demo_players()[:count]
    taken = {(p["first_name"], p["last_name"]) for p in players}
    index = len(players)
    while len(players) < count:
        is_woman = index % 3 == 0
        first_names = FIRST_NAMES_WOMEN if is_woman else FIRST_NAMES_MEN
        last = LAST_NAMES[index % len(LAST_NAMES)]
        step = index // len(LAST_NAMES)
        first = first_names[(index + step) % len(first_names)]
        while (first, last) in taken:  # the first names of a last name, one after the other
            step += 1
            first = first_names[(index + step) % len(first_names)]
        taken.add((first, last))
        youth = index % 7 == 3
        players.append(
            {
                "first_name": first,
                "last_name": last,
                "birth_year": 2009 + index % 5 if youth else 1945 + (index * 7) % 50,
                "category": "youth" if youth else ("woman" if is_woman else "open"),
            }
        )
        index += 1
    return players


def load_sized_demo(*, players: int, rounds: int, seed: int, season, host_club, organiser):
    """One more finished tournament of ``players`` (registered, checked in, fees taken) and
    ``rounds`` drawn by the app's draw, 24 deals a table each dealt from a shuffled pack
    (:func:`plausible_deal`), scored by the engine and stored a round at a time
    (``desk_entry.enter_round_deals``); every round closed and the tournament finished by
    ``organiser``. Players the registry lacks are created, members of the demo's clubs in
    turn. Deterministic for a ``seed``. Returns the tournament and whether it was built now
    (False: one of that size exists already and is left alone). Raises ValueError with
    :func:`sized_demo_problem`'s message."""
    import datetime as dt

    from clubs.models import Club, Membership, Player
    from tournaments import rule_snapshot
    from tournaments.models import Round, Tournament
    from tournaments.seating import sitting_out_position
    from tournaments.services import (
        checkin,
        desk_entry,
        draws,
        finish,
        registration,
        round_state,
        setup,
    )

    problem = sized_demo_problem(players, rounds)
    if problem:
        raise ValueError(problem)
    name = sized_demo_name(players, rounds)
    existing = Tournament.objects.filter(name=name, host_club=host_club).first()
    if existing is not None:
        return existing, False

    wanted = sized_demo_players(players)
    pairs = [(w["first_name"], w["last_name"]) for w in wanted]

    def registry() -> dict[tuple[str, str], Player]:
        candidates = Player.objects.filter(
            first_name__in={first for first, _ in pairs}, last_name__in={last for _, last in pairs}
        ).order_by("-pk")  # two records of one name: the first made
        return {(p.first_name, p.last_name): p for p in candidates}

    found = registry()
    missing = [pair for pair in pairs if pair not in found]
    if missing:
        Player.objects.bulk_create(
            [Player(**w) for w in wanted if (w["first_name"], w["last_name"]) not in found]
        )
        found = registry()
        clubs = [
            Club.objects.get_or_create(short_name=data["short_name"], defaults=data)[0]
            for data in SIZED_CLUBS
        ]
        Membership.objects.bulk_create(
            [
                Membership(player=found[pair], club=clubs[index % len(clubs)])
                for index, pair in enumerate(missing)
            ]
        )
    field = [found[pair] for pair in pairs]

    tournament = setup.create_tournament(
        name=name,
        host_club=host_club,
        season=season,
        date=dt.date(2026, 12, 12),
        venue="Stadthalle Bräunlingen",
        rules_slug="swm",
        rounds=rounds,
        deals_per_round=SIZED_DEALS_PER_ROUND,
        table_sizes=SIZED_TABLE_SIZES,
        user=organiser,
    )
    registration.register_players(tournament=tournament, players=field, user=organiser)
    for entry in tournament.entries.order_by("number"):
        if entry.plays_free:
            checkin.set_checked_in(entry=entry, checked_in=True, user=organiser)
        else:
            checkin.check_in_and_pay(entry=entry, user=organiser)
    rng = random.Random(seed)
    rules = rule_snapshot.rule_source_of(tournament)
    for number in range(1, rounds + 1):
        round_ = draws.draw_next_round(
            tournament=tournament, number=number, seed=seed + number, user=organiser
        )
        sizes: dict[int, int] = {}
        for table_number, _position in round_.seats.values_list("table__number", "position"):
            sizes[table_number] = sizes.get(table_number, 0) + 1
        deals = {}
        for table_number, size in sorted(sizes.items()):
            deals[table_number] = []
            for deal_number in range(1, SIZED_DEALS_PER_ROUND + 1):
                out = sitting_out_position(rules=rules, table_size=size, deal_number=deal_number)
                active = [seat for seat in range(size) if seat != out]
                deals[table_number].append(plausible_deal(rng, rules=rules, active_seats=active))
        desk_entry.enter_round_deals(round=round_, deals=deals, user=organiser)
        round_state.set_round_state(round=round_, state=Round.State.CLOSED, user=organiser)
    finish.finish_tournament(tournament=tournament, user=organiser)
    return tournament, True
