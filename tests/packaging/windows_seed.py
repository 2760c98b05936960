"""Run inside the Windows bundle (``cego-club.cmd shell -c "exec(open('windows_seed.py').read())"``,
no test code is in the bundle): a tournament of the organiser's club with eight players and its
first round drawn, through the app's services. Prints the tournament's id."""

import datetime

from clubs.models import Club
from clubs.services.players import create_player
from tournaments.services.draws import draw_next_round
from tournaments.services.setup import create_tournament, register_player

club = Club.objects.get()
tournament = create_tournament(
    name="Frühjahrsturnier Überlingen",
    host_club=club,
    date=datetime.date(2026, 4, 18),
    rules_slug="swm",
)
names = ["Anna Bäumer", "Jörg Weiß", "Lena Groß", "Max Müller"]
names += ["Eva Schäfer", "Ulf Öztürk", "Tom Kühn", "Ida Fuß"]
for name in names:
    first, last = name.split()
    player = create_player(first_name=first, last_name=last, club=club)
    register_player(tournament=tournament, player=player, checked_in=True)
draw_next_round(tournament=tournament, number=1, seed=7)
print(f"TOURNAMENT={tournament.pk}")
