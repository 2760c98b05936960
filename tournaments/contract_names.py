"""Cego's names are proper names: how contracts and rule sources are shown.

Halbe, Eine, Geiß, Bettel, Räuber … are the game's own names, printed on every sheet and
tariff card, so they are shown in German in every language; in English the English gloss
stands beside them ("Geiß (Little Man)"). Rule sources are shown by their names with a line
of description, never by their slugs.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from scoring import RuleSource


def english() -> bool:
    return (get_language() or "de").startswith("en")


def proper_name(names: Any) -> str:
    """The German name; in English followed by the English gloss where it differs."""
    if english() and names.en and names.en != names.de:
        return f"{names.de} ({names.en})"
    return names.de


def contract_name(rules: RuleSource, slug: str) -> str:
    contract = rules.contracts.get(slug)
    return slug if contract is None else proper_name(contract.names)


def contract_choices(rules: RuleSource, table_size: int) -> list[tuple[str, str]]:
    """The contracts played at a table of this size, in the rule source's order."""
    table = rules.tables.get(table_size)
    forbidden = table.forbidden if table else frozenset()
    return [
        (slug, proper_name(contract.names))
        for slug, contract in rules.contracts.items()
        if slug not in forbidden
    ]


def rule_source_name(rules: RuleSource) -> str:
    """A rule source's name in the active language (its own title, not a game name)."""
    names = rules.names
    return (names.en or names.de) if english() else names.de


def rule_source_description(rules: RuleSource) -> str:
    """One line saying where the rules come from."""
    citation = rules.citation
    return citation.source
