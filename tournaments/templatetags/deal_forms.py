"""``{% deal_form_fields form %}``: the deal form's fields, from the cache where they can be."""

from __future__ import annotations

import hashlib

from django import template
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments.caching import RENDER_VERSION, TIMEOUT_SECONDS
from tournaments.forms.entry import DealForm

register = template.Library()


FIELDS_TEMPLATE = "tournaments/entry/_deal_form_fields.html"
# Shown in a new deal's form, different each time: written into the cached fields afresh.
LIVE_FIELDS = ("number", "submission_key")


@register.simple_tag
def deal_form_fields(form: DealForm) -> str:
    """``_deal_form_fields.html`` for ``form``, from the cache where it can be.

    A new deal's empty form is the same at a table deal after deal, except for the deal
    number and the submission key: those two inputs are written into the cached HTML afresh.
    The key names what the rest is built from (the rule source, the players, the language),
    not the tournament's revision, which every deal moves on. A form with data or other
    initial values (errors, a change) is rendered as it is.
    """
    if form.is_bound or set(form.initial) - set(LIVE_FIELDS):
        return render_to_string(FIELDS_TEMPLATE, {"form": form})
    live = {f"\x00{name}\x00": str(form[name]) for name in LIVE_FIELDS}
    raw = "|".join(
        str(part)
        for part in (
            RENDER_VERSION,
            get_language(),
            hashlib.sha1(form.rules.source_json.encode()).hexdigest(),
            form.fields["number"].max_value,
            form.fields["expected_version"].required,
            *(label for _position, label in form.seat_choices),
        )
    )
    key = "deal-form-fields:" + hashlib.sha1(raw.encode()).hexdigest()
    html = cache.get(key)
    if html is None:
        html = render_to_string(FIELDS_TEMPLATE, {"form": form})
        if any(html.count(text) != 1 for text in live.values()):
            return html  # not where it is expected: no cached copy
        for mark, text in live.items():
            html = html.replace(text, mark)
        cache.set(key, html, TIMEOUT_SECONDS)
    for mark, text in live.items():
        html = html.replace(mark, text)
    return mark_safe(html)  # noqa: S308 - the template's output, escaped there
