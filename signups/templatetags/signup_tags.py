"""What other areas' pages show of the online sign-up, without importing this area: the
calendar (``seasons``) links each tournament whose sign-up is open to its form."""

from django import template

from signups.selectors import open_tournaments

register = template.Library()


@register.simple_tag
def open_signup_ids() -> frozenset[int]:
    """The ids of the tournaments whose sign-up is open now (one query)."""
    return frozenset(open_tournaments().values_list("pk", flat=True))
