"""House rules in the admin: start from a copy of a built-in source, change its numbers."""

import json

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from rules.builtin_sources import BUILTIN_SLUGS, builtin_data, load_builtin
from rules.models import HouseRuleSource


class ReadableJSONField(forms.JSONField):
    """Shows the parameters indented, one key per line, with umlauts as they are."""

    def prepare_value(self, value):
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json.dumps(value, ensure_ascii=False, indent=2, cls=self.encoder)


def _builtin_choices() -> list[tuple[str, str]]:
    return [(slug, f"{slug}: {load_builtin(slug).names.de}") for slug in BUILTIN_SLUGS]


class HouseRuleSourceForm(forms.ModelForm):
    based_on = forms.ChoiceField(label=_("based on"), choices=_builtin_choices)
    data = ReadableJSONField(
        label=_("parameters"),
        required=False,
        help_text=_(
            "Leave empty to start from a copy of the built-in rule source; then change the "
            "values you play differently and add your own fixed-amount contracts, e.g. "
            '"trio": {"kind": "fixed", "amount": 20, "name": {"de": "Trio", "en": "Trio"}}. '
            "Every change is checked when you save."
        ),
        widget=forms.Textarea(attrs={"rows": 30, "cols": 100, "style": "font-family: monospace"}),
    )

    class Meta:
        model = HouseRuleSource
        fields = ["club", "slug", "based_on", "data"]

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("data") and cleaned.get("based_on") in BUILTIN_SLUGS:
            cleaned["data"] = builtin_data(cleaned["based_on"])
        return cleaned


@admin.register(HouseRuleSource)
class HouseRuleSourceAdmin(admin.ModelAdmin):
    form = HouseRuleSourceForm
    list_display = ["slug", "club", "based_on", "updated_at", "tariff_card"]
    list_filter = ["club", "based_on"]
    search_fields = ["slug", "club__name"]
    autocomplete_fields = ["club"]
    readonly_fields = ["tariff_card"]

    @admin.display(description=_("tariff card"))
    def tariff_card(self, obj: HouseRuleSource) -> str:
        if obj is None or obj.pk is None:
            return "–"
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">PDF</a>',
            reverse("rules:tariff_card", args=[obj.slug]),
            _("page"),
            reverse("printing:tariff_card_pdf", args=[obj.slug]),
        )
