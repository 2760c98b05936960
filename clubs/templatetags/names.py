"""``{{ tournament.name|de_name }}``: a name typed in by the clubs (tournament, club, season),
marked as German so the browser hyphenates it by German rules whatever the page's language
(an English page would otherwise break "Schwarzwaldmeisterschaft" anywhere, without a
hyphen). The CSS class ``de-name`` sets ``hyphens: auto`` and ``overflow-wrap: anywhere``."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def de_name(value) -> str:
    return format_html('<span lang="de" class="de-name">{}</span>', value)
