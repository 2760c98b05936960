"""Forms of the fairness pages (``tournaments.services.fairness``): the second official's
signature at another's login, a refusal's note, a referee's ruling.

**The second signature on one laptop.** A swap of drawn seats, and a ruling where the
tournament wants two referees, need two different officials, each signing with their own
login. The second one either opens the page on their own device (their own session), or
types their user name and password into the form at the desk's laptop: ``SecondOfficialForm``
checks them as the login page does (``django.contrib.auth.authenticate`` with the request, so
django-axes counts a wrong password and blocks after five), without logging anybody in or
out. No second secret (a PIN) is kept: the password is the official's own, and nothing of
it is stored.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import authenticate
from django.utils.translation import gettext_lazy as _

from tournaments.models import FAIRNESS_TEXT_LENGTH, PENALTY_LENGTH


class SecondOfficialForm(forms.Form):
    """The second official's user name and password, typed at another's login."""

    username = forms.CharField(
        label=_("user name of the second official"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=_("their password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request
        self.signer = None

    def clean(self):
        cleaned = super().clean()
        username, password = cleaned.get("username"), cleaned.get("password")
        if username and password:
            user = authenticate(self.request, username=username, password=password)
            if user is None:
                raise forms.ValidationError(
                    _("User name or password is wrong (or this login is blocked for a while)."),
                    code="invalid_login",
                )
            self.signer = user
        return cleaned


class NoteForm(forms.Form):
    note = forms.CharField(
        label=_("note"),
        max_length=FAIRNESS_TEXT_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class RulingForm(forms.Form):
    """A ruling that closes a table's call (the deal offered from the call)."""

    decision = forms.CharField(
        label=_("decision"),
        max_length=FAIRNESS_TEXT_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    deal = forms.IntegerField(
        label=_("deal"),
        required=False,
        min_value=1,
        max_value=99,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    conduct = forms.BooleanField(label=_("about conduct"), required=False)
    penalty = forms.CharField(
        label=_("penalty, if one follows"),
        max_length=PENALTY_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "decision": data["decision"],
            "deal_number": data["deal"],
            "conduct": data["conduct"],
            "penalty": data["penalty"],
        }


class ConductRulingForm(RulingForm):
    """A referee's ruling about conduct without a table's call: round, table and deal where
    there are any."""

    round = forms.IntegerField(
        label=_("round"),
        required=False,
        min_value=1,
        max_value=20,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    table = forms.IntegerField(
        label=_("table"),
        required=False,
        min_value=1,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    field_order = ["decision", "round", "table", "deal", "penalty"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["conduct"]  # without a call, a ruling is about conduct

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "decision": data["decision"],
            "round_number": data["round"],
            "table_number": data["table"],
            "deal_number": data["deal"],
            "penalty": data["penalty"],
        }
