from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from rules.builtin_sources import BUILTIN_SLUGS, builtin_data
from rules.models import HouseRuleSource


class HouseRuleSourceForm(forms.ModelForm):
    based_on = forms.ChoiceField(label=_("based on"), choices=[(s, s) for s in BUILTIN_SLUGS])
    data = forms.JSONField(
        label=_("parameters"),
        required=False,
        help_text=_(
            "Leave empty to start from a copy of the built-in rule source; then change the "
            "values you play differently and add your own fixed-amount contracts."
        ),
        widget=forms.Textarea(attrs={"rows": 30, "cols": 100, "style": "font-family: monospace"}),
    )

    class Meta:
        model = HouseRuleSource
        fields = ["club", "slug", "based_on", "data"]

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("data") and cleaned.get("based_on"):
            cleaned["data"] = builtin_data(cleaned["based_on"])
            self.instance.data = cleaned["data"]
        return cleaned


@admin.register(HouseRuleSource)
class HouseRuleSourceAdmin(admin.ModelAdmin):
    form = HouseRuleSourceForm
    list_display = ["slug", "club", "based_on", "updated_at"]
    list_filter = ["club", "based_on"]
    search_fields = ["slug", "club__name"]
    autocomplete_fields = ["club"]
