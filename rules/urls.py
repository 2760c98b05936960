"""Tariff cards: every value of a rule source, as a page and as a one-page PDF."""

from django.urls import path

from rules import views

app_name = "rules"

urlpatterns = [
    path("", views.rule_sources, name="rule_sources"),
    path("<slug:slug>/", views.tariff_card_page, name="tariff_card"),
]
