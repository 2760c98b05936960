"""Tournament formats an organiser starts from; every field stays editable afterwards."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str
    description: str
    rules_slug: str
    rounds: int
    deals_per_round: int
    table_sizes: frozenset[int]
    preferred_table_size: int


PRESETS: dict[str, Preset] = {
    preset.slug: preset
    for preset in [
        Preset(
            slug="schwarzwaldmeisterschaft",
            name=_("Black Forest Championship"),
            description=_("Tables of 4, two rounds of 24 deals, championship rules."),
            rules_slug="swm",
            rounds=2,
            deals_per_round=24,
            table_sizes=frozenset({4}),
            preferred_table_size=4,
        ),
        Preset(
            slug="preiscego",
            name=_("Prize Cego"),
            description=_("Three rounds of 15 deals at tables of 3 or 4."),
            rules_slug="bb2013",
            rounds=3,
            deals_per_round=15,
            table_sizes=frozenset({3, 4}),
            preferred_table_size=4,
        ),
        Preset(
            slug="dreierles",
            name=_("Dreierles"),
            description=_("Tables of 3, or of 4 with the dealer sitting out."),
            rules_slug="dreierles",
            rounds=3,
            deals_per_round=15,
            table_sizes=frozenset({3, 4}),
            preferred_table_size=3,
        ),
    ]
}
