"""The treasurer's forms: a tournament's prize money per place."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import cents


class PrizeMoneyForm(forms.Form):
    shares = forms.CharField(
        label=_("prize money per place (€)"),
        required=False,
        help_text=_("First place first, separated by spaces or semicolons: 30; 20; 10"),
    )
    youth_entry_free = forms.BooleanField(label=_("youth play free"), required=False)

    def clean_shares(self) -> list[int]:
        text = self.cleaned_data["shares"].replace(";", " ").replace("€", " ")
        amounts = []
        for word in text.split():
            try:
                amount = Decimal(word.replace(",", "."))
            except ArithmeticError:
                amount = None
            if amount is None or amount < 0 or amount != amount.quantize(Decimal("0.01")):
                raise forms.ValidationError(
                    _("“%(value)s” is not an amount in euros.") % {"value": word}
                )
            amounts.append(cents(amount))
        return amounts
