"""``{% deal_form_fields form %}``: the deal form's fields, from the cache where they can be
(``tournaments.form_rendering.deal_form_fields``)."""

from django import template

from tournaments.form_rendering import deal_form_fields as _deal_form_fields

register = template.Library()


@register.simple_tag
def deal_form_fields(form):
    return _deal_form_fields(form)
