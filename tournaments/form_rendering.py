"""A form renderer that writes the common widgets in Python.

Django renders every widget, label and error list of a form through its template engine: on
the phone page (about 25 widgets and labels, selects with their options) that was more than
half of the server's time per deal. :class:`PlainRenderer` writes the same HTML, byte for
byte, for the templates below straight from the widget's context; any other template goes
through Django's templates as before. ``tests/results/test_form_rendering.py`` compares the
two renderers on the deal form of every rule source.

:func:`deal_form_fields` keeps the phone's empty deal form in the cache (a new deal's form
differs from the last one only in its number and submission key).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.forms.renderers import DjangoTemplates
from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.functional import Promise
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language

from tournaments.caching import RENDER_VERSION, TIMEOUT_SECONDS

if TYPE_CHECKING:
    from tournaments.forms_entry import DealForm

INPUT = "django/forms/widgets/input.html"
SELECT = "django/forms/widgets/select.html"
OPTION = "django/forms/widgets/select_option.html"
# Widget templates that are nothing but ``{% include "django/forms/widgets/input.html" %}``.
INPUTS = {
    INPUT,
    "django/forms/widgets/text.html",
    "django/forms/widgets/number.html",
    "django/forms/widgets/hidden.html",
    "django/forms/widgets/checkbox.html",
    "django/forms/widgets/email.html",
}
LABEL = "django/forms/label.html"
ERRORS = {"django/forms/errors/list/default.html", "django/forms/errors/list/ul.html"}


def _text(value: Any) -> str:
    """``{{ value }}`` with autoescaping (Django's ``render_value_in_context``)."""
    if not isinstance(value, str | Promise):
        value = localize(template_localtime(value))
    return conditional_escape(value)


def _formatted(value: Any) -> str:
    """``{{ value|stringformat:'s' }}``: the filter keeps a safe string safe."""
    try:
        formatted = "%s" % (str(value) if isinstance(value, tuple) else value)
    except (ValueError, TypeError):
        return ""
    return formatted if isinstance(value, SafeData) else escape(formatted)


def _attrs(attrs: Mapping[str, Any] | None) -> str:
    """``django/forms/widgets/attrs.html`` (and ``django/forms/attrs.html``)."""
    if not attrs:
        return ""
    parts = []
    for name, value in attrs.items():
        if value is False:
            continue
        parts.append(" " + _text(name))
        if value is not True:
            parts.append('="' + _formatted(value) + '"')
    return "".join(parts)


def _input(widget: Mapping[str, Any]) -> str:
    value = widget["value"]
    shown = "" if value is None else ' value="' + _formatted(value) + '"'
    return (
        f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"'
        f"{shown}{_attrs(widget['attrs'])}>"
    )


def _option(option: Mapping[str, Any]) -> str:
    return (
        f'<option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>'
        f"{_text(option['label'])}</option>\n"
    )


def _select(widget: Mapping[str, Any]) -> str | None:
    parts = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_text(group_name)}">')
        for option in group_choices:
            if option["template_name"] != OPTION:
                return None  # an option template of its own: Django renders it
            parts.append("\n  " + _option(option))
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


def _label(context: Mapping[str, Any]) -> str:
    if not context["use_tag"]:
        return _text(context["label"])
    tag = _text(context["tag"])
    return f"<{tag}{_attrs(context['attrs'])}>{_text(context['label'])}</{tag}>"


def _widget(build: Callable[[Mapping[str, Any]], str | None]):
    return lambda context: build(context["widget"])


def _errors(context: Mapping[str, Any]) -> str | None:
    return "" if not context["errors"] else None  # a list with errors: Django renders it


FAST: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    **{name: _widget(_input) for name in INPUTS},
    SELECT: _widget(_select),
    LABEL: _label,
    **{name: _errors for name in ERRORS},
}


class PlainRenderer(DjangoTemplates):
    """Django's template renderer, with the widgets above written in Python."""

    def render(self, template_name: str, context: dict, request=None) -> str:
        fast = FAST.get(template_name)
        if fast is not None:
            html = fast(context)
            if html is not None:
                return html.strip()
        return super().render(template_name, context, request=request)


FIELDS_TEMPLATE = "tournaments/entry/_deal_form_fields.html"
# Shown in a new deal's form, different each time: written into the cached fields afresh.
LIVE_FIELDS = ("number", "submission_key")


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
