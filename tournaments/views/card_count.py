"""The card-counting helper of the entry forms: how many card points a pile is worth.

Each group of cards loses the same amount whatever it holds, so the pile's worth depends only
on how many cards of each face value it has; the engine's ``count_card_points`` does the sum.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_POST

from scoring import count_card_points
from tournaments.forms.card_count import CardCountForm


@require_POST
def count_cards(request: HttpRequest) -> HttpResponse:
    form = CardCountForm(request.POST, prefix="count")
    context: dict = {"form": form}
    if form.is_valid():
        values = form.card_values()  # each value within what the deck holds: 54 at most
        if values:
            context["points"] = count_card_points(values, form.cleaned_data["method"])
            context["cards"] = len(values)
    return render(request, "tournaments/entry/_card_count_result.html", context)


urlpatterns = [
    path("count-cards/", count_cards, name="count_cards"),
]
