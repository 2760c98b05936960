"""The laptop's forms of publishing: a tournament's season server, fetching from it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from publishing.laptop.client import PublishError, check_url


class PublicationForm(forms.Form):
    url = forms.URLField(
        label=_("season server"),
        max_length=300,
        assume_scheme="https",
        help_text=_("The address of the club's or association's server (https://…)."),
    )
    token = forms.CharField(label=_("publishing token"), max_length=100)

    def clean_url(self) -> str:
        try:
            return check_url(self.cleaned_data["url"])
        except PublishError as error:
            raise forms.ValidationError(
                _("Use an https:// address (plain http only to this computer).")
            ) from error


class FetchForm(forms.Form):
    """The season server to fetch a tournament from, and the club's token (left empty: the
    one this venue was started with)."""

    url = forms.URLField(
        label=_("season server"),
        max_length=300,
        assume_scheme="https",
        help_text=_("The address of the club's or association's server (https://…)."),
    )
    token = forms.CharField(
        label=_("publishing token"),
        max_length=100,
        required=False,
        widget=forms.PasswordInput(render_value=False),
    )

    def clean_url(self) -> str:
        try:
            return check_url(self.cleaned_data["url"])
        except PublishError as error:
            raise forms.ValidationError(
                _("Use an https:// address (plain http only to this computer).")
            ) from error
