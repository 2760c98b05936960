"""A form renderer that writes the common widgets in Python.

Django renders every widget, label and error list of a form through its template engine: on
the phone page (about 25 widgets and labels, selects with their options) that was more than
half of the server's time per deal. :class:`PlainRenderer` writes the same HTML, byte for
byte, for the templates below straight from the widget's context; any other template goes
through Django's templates as before. ``tests/tournaments/forms/test_rendering.py`` compares the
two renderers on the deal form of every rule source.

The phone's empty deal form is kept in the cache by ``{% deal_form_fields %}``
(``tournaments/templatetags/deal_forms.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.functional import Promise
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeData
from django.utils.timezone import template_localtime

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
