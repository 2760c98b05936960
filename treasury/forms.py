"""The treasurer's forms: a tournament's prize money per place."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import cents

MAX_PRIZE_EUROS = 1_000_000  # a share above this is a typing error


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
                # NaN, Infinity and 1e309 are Decimals too: refused like any other non-amount
                valid = (
                    amount.is_finite()
                    and 0 <= amount <= MAX_PRIZE_EUROS
                    and amount == amount.quantize(Decimal("0.01"))
                )
            except ArithmeticError:
                valid = False
            if not valid:
                raise forms.ValidationError(
                    _("“%(value)s” is not an amount in euros.") % {"value": word}
                )
            amounts.append(cents(amount))
        return amounts
