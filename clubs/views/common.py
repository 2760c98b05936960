from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ValidationError next to the fields it names (else above the form)."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, error)
