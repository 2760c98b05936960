"""The season server's form of publishing: a token's label."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class TokenForm(forms.Form):
    label = forms.CharField(
        label=_("label"), max_length=80, required=False, help_text=_("e.g. the laptop's name")
    )
