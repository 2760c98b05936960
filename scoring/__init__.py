"""The Cego Club scoring engine: pure Python, no Django.

Rule sources are data (:func:`rule_source_from_dict`); a deal is a :class:`DealInput`;
:func:`score_deal` scores it; :mod:`scoring.batch` scores JSON Lines.
"""

from scoring.cards import CARD_VALUES, THREE_HAND_REMOVED, count_card_points
from scoring.deal import Bonus, DealInput, Penalty, deal_from_record, deal_to_record
from scoring.engine import DealResult, score_deal
from scoring.errors import MESSAGES, RuleSourceError, ScoringError
from scoring.rulesource import RuleSource, rule_source_from_dict

__all__ = [
    "CARD_VALUES",
    "MESSAGES",
    "THREE_HAND_REMOVED",
    "Bonus",
    "DealInput",
    "DealResult",
    "Penalty",
    "RuleSource",
    "RuleSourceError",
    "ScoringError",
    "count_card_points",
    "deal_from_record",
    "deal_to_record",
    "rule_source_from_dict",
    "score_deal",
]
