from django.shortcuts import render
from django.urls import path

from tournaments.models import Tournament


def home(request):
    tournaments = Tournament.objects.select_related("host_club", "season")[:50]
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


urlpatterns = [
    path("", home, name="home"),
]
