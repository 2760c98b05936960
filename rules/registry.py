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
    from rules.models import HouseRuleSource

    choices = [(slug, slug) for slug in BUILTIN_SLUGS]
    choices += [(slug, slug) for slug in HouseRuleSource.objects.values_list("slug", flat=True)]
    return choices
