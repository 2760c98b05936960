"""Forms of the club area: they parse input; the services validate the rest."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.models import AnnualFee, Category, Club, Membership, Player


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ValidationError next to the fields it names (else above the form)."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, error)


DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def cents(amount: Decimal | None) -> int:
    return int((amount or Decimal(0)) * 100)


class PlayerFilterForm(forms.Form):
    q = forms.CharField(label=_("name"), required=False)
    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.all(), required=False)
    category = forms.ChoiceField(
        label=_("category"), choices=[("", _("all")), *Category.choices], required=False
    )

    def __init__(self, *args, clubs=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if clubs is not None:
            self.fields["club"].queryset = clubs


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=_("first name"), max_length=60)
    last_name = forms.CharField(label=_("last name"), max_length=60)
    birth_year = forms.IntegerField(
        label=_("birth year"), min_value=1900, max_value=2100, required=False
    )
    named_for_age = forms.BooleanField(
        label=Player._meta.get_field("named_for_age").verbose_name,
        help_text=Player._meta.get_field("named_for_age").help_text,
        required=False,
    )
    category = forms.ChoiceField(
        label=_("category"),
        choices=Category.choices,
        help_text=_("Youth is decided by the birth year where the season sets a youth cut-off."),
    )
    email = forms.EmailField(label=_("e-mail"), required=False)
    club = forms.ModelChoiceField(label=_("home club"), queryset=Club.objects.all(), required=False)
    member_number = forms.CharField(label=_("member number"), max_length=20, required=False)


class MergeForm(forms.Form):
    remove = forms.IntegerField(widget=forms.HiddenInput)


# The club's choice about its players' results pages (``Club.public_player_pages``), offered
# where a club is set up (``/setup/``, a new club) and edited, with what it means.
PUBLIC_PLAYER_PAGES_LABEL = _("Show the players' results pages publicly")
PUBLIC_PLAYER_PAGES_HELP = _(
    "On: anyone, without logging in, may open the results page of this club's players "
    "(tournaments with place and points, season ranks, games by contract), linked from the "
    "public standings. Birth year, member number and e-mail are never shown there. Off: only "
    "the club's organisers see these pages."
)


def public_player_pages_field() -> forms.BooleanField:
    return forms.BooleanField(
        label=PUBLIC_PLAYER_PAGES_LABEL, help_text=PUBLIC_PLAYER_PAGES_HELP, required=False
    )


class ClubForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=120)
    short_name = forms.CharField(label=_("short name"), max_length=20)
    town = forms.CharField(label=_("town"), max_length=80)
    public_player_pages = public_player_pages_field()


class MembershipForm(forms.Form):
    member_number = forms.CharField(label=_("member number"), max_length=20, required=False)
    since = forms.DateField(label=_("member since"), widget=DATE, required=False)
    left_on = forms.DateField(label=_("left on"), widget=DATE, required=False)
    status = forms.ChoiceField(label=_("status"), choices=Membership.Status.choices)


class FeeForm(forms.Form):
    status = forms.ChoiceField(label=_("status"), choices=Membership.Status.choices)
    amount = forms.DecimalField(
        label=_("amount (€)"), min_value=Decimal(0), max_digits=7, decimal_places=2, localize=True
    )
    due_on = forms.DateField(label=_("due on"), widget=DATE)
    paid_on = forms.DateField(label=_("paid on"), widget=DATE, required=False)
    method = forms.ChoiceField(
        label=_("paid by"), choices=[("", "–"), *AnnualFee.Method.choices], required=False
    )
    note = forms.CharField(label=_("note"), max_length=200, required=False)


class ChargeFeesForm(forms.Form):
    active_amount = forms.DecimalField(
        label=_("fee for active members (€)"),
        min_value=Decimal(0),
        max_digits=7,
        decimal_places=2,
        localize=True,
    )
    passive_amount = forms.DecimalField(
        label=_("fee for passive members (€)"),
        min_value=Decimal(0),
        max_digits=7,
        decimal_places=2,
        localize=True,
    )
    due_on = forms.DateField(label=_("due on"), widget=DATE)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("file"), help_text=_("CSV (comma or semicolon) or Excel (.xlsx).")
    )
    club = forms.ModelChoiceField(
        label=_("club"),
        queryset=Club.objects.all(),
        required=False,
        help_text=_("For rows without a club column."),
    )


class FirstRunForm(forms.Form):
    """``/setup/``: the first account and its club (checked by ``clubs.services.setup``)."""

    code = forms.CharField(
        label=_("one-time code"),
        max_length=20,
        help_text=_("It is shown in the window on the laptop where the server runs."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
    username = forms.CharField(
        label=_("user name"),
        max_length=150,
        help_text=_("For logging in. No e-mail address needed."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=_("password"),
        strip=False,
        help_text=_("At least 8 characters, not only digits, not a common password."),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password_again = forms.CharField(
        label=_("password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    club_name = forms.CharField(label=_("club's name"), max_length=120)
    club_short_name = forms.CharField(
        label=_("short name"),
        max_length=20,
        help_text=_("As on lists and printouts, e.g. CF Bräunlingen."),
    )
    club_town = forms.CharField(label=_("town"), max_length=80)
    club_public_player_pages = public_player_pages_field()

    def __init__(self, *args, needs_code: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not needs_code:
            del self.fields["code"]  # the laptop itself needs no code

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data
