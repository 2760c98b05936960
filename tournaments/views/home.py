from django.conf import settings
from django.shortcuts import render
from django.urls import path

from clubs.models import Player
from clubs.permissions import first_run_open, is_organiser
from tournaments.models import Tournament


def home(request):
    tournaments = list(Tournament.objects.select_related("host_club", "season")[:50])
    # On the venue laptop: the button that fetches a tournament from the season server.
    context = {"tournaments": tournaments, "venue_mode": settings.VENUE_MODE}
    if not tournaments:
        # Nothing to list: a new installation points to its setup, an organiser to the
        # next step (these queries only run while there is no tournament at all).
        context["first_run_open"] = first_run_open()
        if is_organiser(request.user):
            context["has_players"] = Player.objects.exists()
    return render(request, "tournaments/home.html", context)


urlpatterns = [
    path("", home, name="home"),
]
