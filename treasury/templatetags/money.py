from django import template

from tournaments.money import euros as format_euros

register = template.Library()


@register.filter
def euros(cents) -> str:
    """Cents as German money: 1234 → "12,34 €"."""
    if cents is None or cents == "":
        return ""
    return format_euros(int(cents))
