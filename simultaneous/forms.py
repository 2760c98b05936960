"""The association's forms for a simultaneous day (the checks are the services')."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.registry import tournament_rule_sources
from seasons.models import Season


class DayForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    # ISO: a browser's date field shows no other format (the day's own date, when changing it)
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    season = forms.ModelChoiceField(
        label=_("Season"), queryset=Season.objects.none(), required=False
    )
    rules_slug = forms.ChoiceField(label=_("Rule source"))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=20, initial=3)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"), min_value=1, max_value=100, initial=16
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.order_by("-starts_on")
        self.fields["rules_slug"].choices = [
            (source.slug, source.names.de) for source in tournament_rule_sources()
        ]


class HallForm(forms.Form):
    tournament = forms.TypedChoiceField(label=_("Tournament"), coerce=int)

    def __init__(self, *args, choices: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = choices
