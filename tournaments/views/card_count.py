"""The card-counting helper of the entry forms: how many card points a pile is worth.

Each group of cards loses the same amount whatever it holds, so the pile's worth depends only
on how many cards of each face value it has; the engine's ``count_card_points`` does the sum.
"""

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from scoring import count_card_points
from tournaments.form_rendering import PlainRenderer

FACE_VALUES = {
    "fives": (5, _("Kings, Gstieß, 21 and 1 (5 each)")),
    "queens": (4, _("Queens (4)")),
    "cavaliers": (3, _("Cavaliers (3)")),
    "jacks": (2, _("Jacks (2)")),
    "others": (1, _("all other cards (1)")),
}


class CardCountForm(forms.Form):
    default_renderer = PlainRenderer()  # shown inside the deal form on every phone page
    method = forms.ChoiceField(choices=[("threes", _("in threes")), ("pairs", _("in pairs"))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, (_value, label) in FACE_VALUES.items():
            self.fields[name] = forms.IntegerField(
                label=label, min_value=0, max_value=54, required=False
            )

    def card_values(self) -> list[int]:
        return [
            value
            for name, (value, _label) in FACE_VALUES.items()
            for _ in range(self.cleaned_data.get(name) or 0)
        ]


@require_POST
def count_cards(request: HttpRequest) -> HttpResponse:
    form = CardCountForm(request.POST, prefix="count")
    context: dict = {"form": form}
    if form.is_valid():
        values = form.card_values()
        if len(values) > 54:
            context["error"] = _("A pack has 54 cards.")
        elif values:
            context["points"] = count_card_points(values, form.cleaned_data["method"])
            context["cards"] = len(values)
    return render(request, "tournaments/entry/_card_count_result.html", context)


urlpatterns = [
    path("count-cards/", count_cards, name="count_cards"),
]
