"""Who deals and who sits out at a table: pure functions, no Django.

[D] The first deal of a round is dealt by the player in seat 1 (position 0) and the deal passes
on in playing order; at a table with more players than the game has active seats (5 in Cego,
4 in Dreierles) the dealer sits out.
"""

from scoring import RuleSource


def dealer_position(*, deal_number: int, table_size: int) -> int:
    return (deal_number - 1) % table_size


def sitting_out_position(*, rules: RuleSource, table_size: int, deal_number: int) -> int | None:
    table_rule = rules.tables.get(table_size)
    if table_rule is None or table_rule.active >= table_size:
        return None
    return dealer_position(deal_number=deal_number, table_size=table_size)
