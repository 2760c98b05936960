"""The phone's deal form is rendered by ``tournaments.forms.rendering.PlainRenderer``, which
writes the common widgets in Python: its HTML must be Django's, byte for byte."""

from __future__ import annotations

import uuid

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.template.loader import render_to_string
from django.utils import translation

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin
from tournaments.forms.entry import DealForm
from tournaments.forms.rendering import PlainRenderer
from tournaments.templatetags.deal_forms import deal_form_fields

NAMES = ["Anna Maier", "Bernd <b>Müller</b>", "Carla & Co", 'Dieter "D" Ott', "Eva O'Neil"]
KEY = uuid.UUID("12345678-1234-5678-1234-567812345678")


def _form(renderer, rules, size, data=None, initial=None):
    return DealForm(
        data,
        rules=rules,
        player_names=NAMES[:size],
        sitting_out=None,
        deals_per_round=24,
        initial={"number": 3, "submission_key": KEY, **(initial or {})},
        renderer=renderer,
    )


def _everything(form) -> str:
    """Every widget, label and error list of the form, and the phone page's field markup."""
    parts = [render_to_string("tournaments/entry/_deal_form_fields.html", {"form": form})]
    parts.append(str(form.non_field_errors()))
    for field in form:
        parts += [str(field), field.label_tag(), str(field.errors), str(field.as_hidden())]
    return "\n".join(parts)


CASES = [
    ("unbound", None, None),
    ("initial", None, {"contract": "cego", "declarer": 1, "declarer_points": 44, "won": "1"}),
    (
        "bound, valid",
        {"number": "2", "contract": "cego", "declarer": "0", "declarer_points": "50"},
        None,
    ),
    (
        "bound, errors",
        {"number": "99", "contract": "nonsense", "declarer": "7", "knocks": "x", "no_trick": "on"},
        None,
    ),
    ("bound, empty", {}, None),
]


@pytest.mark.parametrize("slug", BUILTIN_SLUGS)
@pytest.mark.parametrize("language", ["de", "en"])
def test_plain_renderer_writes_what_django_writes(slug, language):
    rules = load_builtin(slug)
    sizes = sorted(rules.tables) or [4]
    compared = 0
    with translation.override(language):
        for size in sizes:
            for _label, data, initial in CASES:
                django_html = _everything(_form(DjangoTemplates(), rules, size, data, initial))
                plain_html = _everything(_form(PlainRenderer(), rules, size, data, initial))
                assert plain_html == django_html, (slug, size, _label)
                compared += 1
    assert compared >= len(CASES)
    assert "<select" in django_html and "<input" in django_html and "<label" in django_html


class OddWidgets(forms.Form):
    """Values the deal form does not have: grouped options, attributes that are True or
    False, safe strings, numbers as labels, a text input without a value."""

    grouped = forms.ChoiceField(
        choices=[("Gruppe <1>", [("a", "A & B"), ("b", 2)]), ("c", "C")], initial="b"
    )
    multiple = forms.MultipleChoiceField(choices=[(1, "eins"), (2, "zwei")], initial=[2])
    flags = forms.CharField(
        required=False,
        widget=forms.TextInput(attrs={"disabled": True, "hidden": False, "data-x": '"q"'}),
    )
    amount = forms.DecimalField(initial=1.5, label="Betrag?")
    ticked = forms.BooleanField(initial=True, label_suffix="")
    mail = forms.EmailField(widget=forms.EmailInput, initial="a@b.de")
    secret = forms.CharField(widget=forms.PasswordInput)
    radio = forms.ChoiceField(widget=forms.RadioSelect, choices=[("x", "X")])
    text = forms.CharField(widget=forms.Textarea, initial="<Zeile>")


@pytest.mark.parametrize("data", [None, {"grouped": "zzz", "amount": "x"}])
def test_plain_renderer_matches_django_beyond_the_deal_form(data):
    django_form = OddWidgets(data, renderer=DjangoTemplates())
    plain_form = OddWidgets(data, renderer=PlainRenderer())
    for django_field, plain_field in zip(django_form, plain_form, strict=True):
        assert str(plain_field) == str(django_field)
        assert plain_field.label_tag() == django_field.label_tag()
        assert str(plain_field.errors) == str(django_field.errors)
    assert str(plain_form) == str(django_form)


def test_the_deal_form_uses_the_plain_renderer():
    form = DealForm(
        rules=load_builtin(BUILTIN_SLUGS[0]),
        player_names=NAMES[:4],
        deals_per_round=24,
    )
    assert isinstance(form.renderer, PlainRenderer)


def _phone_form(rules, names, number, key=None, **kwargs):
    return DealForm(
        rules=rules,
        player_names=names,
        deals_per_round=24,
        initial={"number": number, "submission_key": key or uuid.uuid4(), **kwargs},
    )


@pytest.mark.parametrize("language", ["de", "en"])
def test_cached_deal_form_fields_are_what_the_template_writes(language, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.cache import cache

    cache.clear()
    rules = load_builtin("swm")
    with translation.override(language):
        shown = []
        for number in (1, 2, 17):  # the first fills the cache, the others read it
            form = _phone_form(rules, NAMES[:4], number)
            html = deal_form_fields(form)
            assert html == render_to_string(
                "tournaments/entry/_deal_form_fields.html", {"form": form}
            )
            assert f'name="number" value="{number}"' in html
            assert str(form.initial["submission_key"]) in html
            shown.append(html)
        assert len(set(shown)) == 3
        # other players: other fields (names, labels for screen readers)
        other = _phone_form(rules, ["Xaver Huber", *NAMES[1:4]], 2)
        html = deal_form_fields(other)
        assert html == render_to_string("tournaments/entry/_deal_form_fields.html", {"form": other})
        assert "Xaver Huber" in html and "Anna Maier" not in html
        assert "Xaver" not in shown[1]


def test_a_form_with_data_or_a_stored_deal_is_rendered_as_it_is(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    rules = load_builtin("swm")
    deal_form_fields(_phone_form(rules, NAMES[:4], 1))  # an empty form in the cache
    bound = DealForm(
        {"number": "1", "contract": "cego"},
        rules=rules,
        player_names=NAMES[:4],
        deals_per_round=24,
    )
    html = deal_form_fields(bound)
    assert 'class="errorlist' in html and "selected" in html
    stored = _phone_form(rules, NAMES[:4], 1, contract="cego", declarer_points=61)
    html = deal_form_fields(stored)
    assert 'value="61"' in html and 'value="cego" selected' in html
