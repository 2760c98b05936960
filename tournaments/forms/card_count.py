"""The card-counting helper shown inside the entry forms: how many cards of each face value
a pile holds (the view that answers it: ``tournaments/views/card_count.py``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.cards import DECK_FACE_VALUE_COUNTS
from tournaments.forms.rendering import PlainRenderer

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
            # No more than the deck holds of that value (a pile of 20 kings is a typing slip).
            self.fields[name] = forms.IntegerField(
                label=label, min_value=0, max_value=DECK_FACE_VALUE_COUNTS[_value], required=False
            )

    def card_values(self) -> list[int]:
        return [
            value
            for name, (value, _label) in FACE_VALUES.items()
            for _ in range(self.cleaned_data.get(name) or 0)
        ]
