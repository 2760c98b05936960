"""The roll of honour (public): past seasons' winners and side-ranking winners."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_safe

from seasons.selectors.honours import roll_of_honour
from seasons.words import season_rule_label, side_label


@require_safe
def roll_of_honour_view(request: HttpRequest) -> HttpResponse:
    seasons = roll_of_honour(today=timezone.localdate())
    shown = [
        (
            item,
            season_rule_label(item.scoring),
            [(side_label(key), winners) for key, winners in item.sides],
        )
        for item in seasons
    ]
    return render(request, "seasons/honours.html", {"seasons": shown})


urlpatterns = [
    path("seasons/honours/", roll_of_honour_view, name="roll_of_honour"),
]
