"""Templates ask the permissions module whether to show a button:
``{% may "manage_tournament" tournament as can_manage %}``."""

from django import template

from clubs import permissions

register = template.Library()


@register.simple_tag(takes_context=True)
def may(context, action: str, obj) -> bool:
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return permissions.has_perm(user, action, obj)


@register.simple_tag(takes_context=True)
def runs_a_club(context) -> bool:
    """May the signed-in user create tournaments (organiser of some club, or superuser)?"""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return permissions.manageable_clubs(user).exists() if permissions.is_organiser(user) else False
