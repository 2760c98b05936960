"""``{{ value|points }}``: points with their sign and colour, as in the standings tables."""

from django import template

from tournaments.tables_standings import signed_html

register = template.Library()


@register.filter
def points(value):
    return signed_html(value)
