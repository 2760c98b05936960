"""A tournament's own tariff card: its pinned rule source (what every deal is scored with) and
the tournament's agreements above it. Public, like every tariff card."""

from django.conf import settings
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import get_language

from rules.tariff import tariff_card
from tournaments.agreements import agreements
from tournaments.models import Tournament
from tournaments.rule_snapshot import rule_source_of


def tournament_rules(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club"), pk=pk)
    card = tariff_card(rule_source_of(tournament), get_language() or settings.LANGUAGE_CODE)
    return render(
        request,
        "tournaments/rules/tariff_card.html",
        {"tournament": tournament, "card": card, "agreements": agreements(tournament)},
    )


urlpatterns = [
    path("tournaments/<int:pk>/rules/", tournament_rules, name="tournament_rules"),
]
