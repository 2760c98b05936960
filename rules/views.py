"""Tariff cards: every value of a rule source, as a page and as a one-page A4 PDF."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin
from rules.models import HouseRuleSource
from rules.tariff import TariffCard, tariff_card
from scoring import RuleSourceError


def tariff_card_of(slug: str) -> tuple[TariffCard | None, HouseRuleSource | None, list[str]]:
    """The card of ``slug``; for a stored house rule that no longer validates, its problems."""
    house = None
    if slug in BUILTIN_SLUGS:
        source = load_builtin(slug)
    else:
        house = HouseRuleSource.objects.select_related("club").filter(slug=slug).first()
        if house is None:
            raise Http404(slug)
        try:
            source = house.rule_source()
        except RuleSourceError as error:
            return None, house, [f"{path}: {message}" for path, message in error.problems]
    return tariff_card(source, get_language() or settings.LANGUAGE_CODE), house, []


def rule_sources(request: HttpRequest) -> HttpResponse:
    language = get_language() or settings.LANGUAGE_CODE
    builtins = [tariff_card(load_builtin(slug), language) for slug in BUILTIN_SLUGS]
    houses = HouseRuleSource.objects.select_related("club").order_by("club__name", "slug")
    return render(request, "rules/rule_sources.html", {"builtins": builtins, "houses": houses})


def tariff_card_page(request: HttpRequest, slug: str) -> HttpResponse:
    card, house, problems = tariff_card_of(slug)
    context = {"card": card, "house": house, "problems": problems, "slug": slug}
    return render(request, "rules/tariff_card.html", context, status=409 if problems else 200)
