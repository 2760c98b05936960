"""Rule sources looked up by slug: the built-in ones first, then the clubs' house rules."""

from rules.builtin_sources import BUILTIN_SLUGS, builtin_data, load_builtin
from scoring import RuleSource, rule_source_from_dict


def rule_source_data(slug: str) -> dict:
    """The JSON-able parameters of a rule source (what a tournament pins as its snapshot)."""
    if slug in BUILTIN_SLUGS:
        return builtin_data(slug)
    from rules.models import HouseRuleSource

    try:
        return HouseRuleSource.objects.get(slug=slug).data
    except HouseRuleSource.DoesNotExist:
        raise KeyError(slug) from None


def get_rule_source(slug: str) -> RuleSource:
    """Raises KeyError for a slug that is neither built in nor a club's."""
    if slug in BUILTIN_SLUGS:
        return load_builtin(slug)
    return rule_source_from_dict(rule_source_data(slug))


def rule_source_choices() -> list[tuple[str, str]]:
    """(slug, name) of every rule source: built in first, then the clubs' house rules."""
    return [(source.slug, _name(source)) for source in all_rule_sources()]


def all_rule_sources() -> list[RuleSource]:
    from rules.models import HouseRuleSource

    sources = [load_builtin(slug) for slug in BUILTIN_SLUGS]
    for data in HouseRuleSource.objects.values_list("data", flat=True):
        try:
            sources.append(rule_source_from_dict(data))
        except ValueError:
            continue  # an invalid house rule source cannot be chosen
    return sources


def _name(source: RuleSource) -> str:
    from django.utils.translation import get_language

    names = source.names
    return (names.en or names.de) if (get_language() or "de").startswith("en") else names.de
