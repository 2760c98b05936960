"""Rule sources looked up by slug: the built-in ones first, then the clubs' house rules."""

from pathlib import Path

from django.db import DatabaseError, connection

from rules.builtin_sources import BUILTIN_SLUGS, builtin_data, load_builtin
from scoring import RuleSource, ScoringError, rule_source_from_dict


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


def batch_rule_source(slug: str) -> RuleSource:
    """:func:`get_rule_source` for the batch scorer, which must work on a database nobody has
    migrated yet: built-in sources never touch the database; for any other slug a database
    that cannot be read is a ScoringError (that line's error), not a traceback."""
    if slug in BUILTIN_SLUGS:
        return load_builtin(slug)
    if _sqlite_file_missing():
        # Connecting would create an empty database file in the checkout: say what to do.
        raise ScoringError("rules", "rules_need_migrate", rules=slug)
    try:
        data = rule_source_data(slug)
    except DatabaseError as error:
        if not _house_rule_table_exists():
            raise ScoringError("rules", "rules_need_migrate", rules=slug) from None
        detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ScoringError("rules", "rules_unavailable", rules=slug, detail=detail) from None
    return rule_source_from_dict(data)


def _sqlite_file_missing() -> bool:
    """An SQLite database whose file does not exist yet (nobody ran migrate)."""
    settings = connection.settings_dict
    if connection.vendor != "sqlite" or connection.connection is not None:
        return False
    name = str(settings.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return False
    return not Path(name).exists()


def _house_rule_table_exists() -> bool:
    from rules.models import HouseRuleSource

    try:
        return HouseRuleSource._meta.db_table in connection.introspection.table_names()
    except DatabaseError:  # no database at all: the error says so
        return True


def all_rule_sources() -> list[RuleSource]:
    """Every rule source: built in first, then the clubs' house rules."""
    from rules.models import HouseRuleSource

    sources = [load_builtin(slug) for slug in BUILTIN_SLUGS]
    for data in HouseRuleSource.objects.values_list("data", flat=True):
        try:
            sources.append(rule_source_from_dict(data))
        except ValueError:
            continue  # an invalid house rule source cannot be chosen
    return sources


def tournament_rule_sources() -> list[RuleSource]:
    """The rule sources a tournament can be played with: not the practice games (two-hand
    Cego), unless a club's own copy says otherwise."""
    return [source for source in all_rule_sources() if not source.practice_only]
