"""Shared helpers for the scoring tests (plain pytest: no database, no Django)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from rules.builtin_sources import BUILTIN_SLUGS, builtin_data, load_builtin
from scoring import DealResult, deal_from_record, rule_source_from_dict, score_deal

# the machine is shared: keep the default example count, but never fail on a slow example
# (applied per test, so other test packages keep their own hypothesis settings)
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def score(slug_or_data: str | dict[str, Any], **record: Any) -> DealResult:
    """Score one record under a built-in slug or a rule-source dict."""
    if isinstance(slug_or_data, str):
        rules = load_builtin(slug_or_data)
    else:
        rules = rule_source_from_dict(slug_or_data)
    return score_deal(rules, deal_from_record(record))


def scores(slug_or_data: str | dict[str, Any], **record: Any) -> list[int]:
    return list(score(slug_or_data, **record).scores)


@pytest.fixture(params=BUILTIN_SLUGS)
def builtin_slug(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def swm_data() -> dict[str, Any]:
    return builtin_data("swm")


@pytest.fixture
def bb_data() -> dict[str, Any]:
    return builtin_data("bb2013")
