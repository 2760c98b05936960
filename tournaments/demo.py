"""Demo data: German names, a club, a season and a tournament, the same on every load."""

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
DEMO_TOURNAMENT_NAME = "1. Turnier der Schwarzwaldmeisterschaft"
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
