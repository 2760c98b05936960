"""Tariff cards: every value of a rule source, as a page and as a one-page A4 PDF."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from rules.builtin_sources import BUILTIN_SLUGS, load_builtin
from rules.models import HouseRuleSource
from rules.tariff import TariffCard, tariff_card
from scoring import RuleSourceError

# A card does not change under the same markup: keep it a week (the cache may drop it earlier).
TARIFF_PDF_SECONDS = 7 * 24 * 60 * 60


def _card(slug: str) -> tuple[TariffCard | None, HouseRuleSource | None, list[str]]:
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
    card, house, problems = _card(slug)
    context = {"card": card, "house": house, "problems": problems, "slug": slug}
    return render(request, "rules/tariff_card.html", context, status=409 if problems else 200)


def tariff_card_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    card, house, problems = _card(slug)
    if problems:  # nothing to print: the page says what is wrong
        context = {"card": card, "house": house, "problems": problems, "slug": slug}
        return render(request, "rules/tariff_card.html", context, status=409)
    html = render_to_string(
        "rules/tariff_card_pdf.html", {"card": card, "house": house}, request=request
    )
    response = HttpResponse(_pdf_of(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="tariff-{slug}.pdf"'
    return response


def _pdf_of(html: str) -> bytes:
    """The card's PDF, rendered once and kept: the key is the page's own markup, so a card is
    rendered once per rule source and language, and again only when what it shows changes
    (a club edits its house rules). Rendering costs about a second of CPU, the markup a few
    milliseconds."""
    key = "tariff-pdf:" + hashlib.sha256(html.encode()).hexdigest()
    pdf = cache.get(key)
    if pdf is None:
        from weasyprint import HTML  # imported here: the page views do not need it

        pdf = HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()
        cache.set(key, pdf, TARIFF_PDF_SECONDS)
    return pdf
