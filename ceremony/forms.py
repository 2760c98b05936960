"""The desk's form for the prize ceremony: what to hide from the public and from when."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ceremony.services import MAX_ROUND, MAX_TOP


class HidingForm(forms.Form):
    hide = forms.ChoiceField(
        label=_("Hide from the public"),
        choices=[
            ("none", _("nothing")),
            ("top", _("the top places")),
            ("all", _("the whole standings")),
        ],
        widget=forms.RadioSelect,
    )
    top = forms.IntegerField(
        label=_("number of top places hidden"), min_value=1, max_value=MAX_TOP, required=False
    )
    from_round = forms.IntegerField(
        label=_("from round"),
        min_value=1,
        max_value=MAX_ROUND,
        required=False,
        help_text=_("Hidden once this round is drawn; 1: from the start."),
    )

    def clean(self) -> dict:
        data = super().clean()
        hide = data.get("hide")
        if hide in ("top", "all") and not data.get("from_round"):
            self.add_error("from_round", _("Say from which round the places are hidden."))
        if hide == "top" and not data.get("top"):
            self.add_error("top", _("Say how many top places are hidden."))
        return data
