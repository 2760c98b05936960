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


# A tournament agreement (REFERENCE 2: "Five at a table: the dealer sits out each deal and pays
# or receives exactly like a defender"): a Cego source played at four only (swm) seats five.
AGREED_TABLE = 5


def five_table_agreement_possible(snapshot: dict) -> bool:
    """Whether a rule source's data can take tables of five by agreement: four-hand Cego
    (four active at a table of four) without a table of five of its own."""
    tables = snapshot.get("tables") or {}
    four = tables.get("4")
    return str(AGREED_TABLE) not in tables and isinstance(four, dict) and four.get("active") == 4


def with_five_table_agreement(snapshot: dict) -> dict:
    """The rule source's data with the agreed table of five: the four-hand table's rule
    (its tricks: the same deal) with one seat sitting out, scoring like a defender."""
    if not five_table_agreement_possible(snapshot):
        raise ValueError("tables of five cannot be agreed for this rule source")
    tables = dict(snapshot["tables"])
    tables[str(AGREED_TABLE)] = {
        **tables["4"],
        "active": 4,
        "sitting_out_scores": "defender",
    }
    return {**snapshot, "tables": tables}


def without_five_table_agreement(snapshot: dict) -> dict:
    """The rule source's data without the agreed table of five."""
    tables = {k: v for k, v in (snapshot.get("tables") or {}).items() if k != str(AGREED_TABLE)}
    return {**snapshot, "tables": tables}
