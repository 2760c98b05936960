"""Uploading a tournament archive (the JSON another server exported)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(label=_("tournament archive (JSON)"))
