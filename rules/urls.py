"""Tariff cards: every value of a rule source, as a page and as a one-page PDF."""

app_name = "rules"

urlpatterns: list = []
