"""The season in the Django admin (superusers only)."""

from __future__ import annotations

from django.contrib import admin

from seasons.models import Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on"]
    search_fields = ["name"]
