"""Every deal of an archive scored again (part of the plan: ``archive_plan``): from the
tournament's rule snapshot, a deal whose stored scores differ is an ArchiveError naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext as _

from scoring import ScoringError, rule_source_from_dict
from tournaments.archive_format import ArchiveError, kind_of, table_key
from tournaments.models import Deal, Seat, Tournament
from tournaments.services.paper_sheets import WrittenRow, check_written_row
from tournaments.services.results_common import ResultError, TableFacts, compute_scores

# Deal-record keys the table supplies rather than the person entering.
_TABLE_KEYS = {"id", "rules", "seats", "sitting_out"}


def _deal_name(round_number: Any, table_number: Any, deal_number: Any) -> str:
    return _("Round %(round)s, table %(table)s, deal %(deal)s") % {
        "round": round_number,
        "table": table_number,
        "deal": deal_number,
    }


def rules_of(settings: Mapping[str, Any]):
    try:
        return rule_source_from_dict(settings["rules_snapshot"])
    except (ScoringError, KeyError, TypeError, ValueError) as error:
        raise ArchiveError(
            _("The archive's rule snapshot cannot be read: %(error)s") % {"error": error}
        ) from error


def _scores_of(deal: Mapping[str, Any], record: Mapping[str, Any], facts: TableFacts) -> list:
    stored = deal["scores"]
    if deal.get("as_written"):
        # A paper sheet's line: the engine checks the amounts as written.
        return list(
            check_written_row(
                facts=facts,
                row=WrittenRow(
                    number=int(deal["number"]),
                    contract=str(record.get("contract", "")),
                    declarer=int(record.get("declarer", -1)),
                    amounts=tuple(stored),
                ),
            ).scores
        )
    inputs = {k: v for k, v in record.items() if k not in _TABLE_KEYS}
    _record, scores = compute_scores(facts=facts, number=int(deal["number"]), inputs=inputs)
    return list(scores)


def check_deal(deal: Mapping[str, Any], *, rules, size: int) -> None:
    """Score one deal item again from the rules; an ArchiveError naming it if its stored
    scores are not what the rules give."""
    name = _deal_name(deal["round"], deal["table"], deal["number"])
    stored = deal["scores"]
    if not isinstance(stored, list) or len(stored) != size:
        raise ArchiveError(_("%(deal)s: there must be one score per seat.") % {"deal": name})
    if deal["kind"] == Deal.Kind.TOTAL:
        if sum(s or 0 for s in stored) != 0:
            raise ArchiveError(_("%(deal)s: the totals do not add up to 0.") % {"deal": name})
        return
    record = deal.get("record")
    if not isinstance(record, Mapping):
        raise ArchiveError(_("%(deal)s has no deal record.") % {"deal": name})
    if record.get("rules") != rules.slug or record.get("seats") != size:
        raise ArchiveError(
            _("%(deal)s: the record's rules or seats do not match the tournament.") % {"deal": name}
        )
    facts = TableFacts(table=None, rules=rules, table_size=size)  # type: ignore[arg-type]
    try:
        scores = _scores_of(deal, record, facts)
    except (ResultError, TypeError, ValueError) as error:
        raise ArchiveError(
            _("%(deal)s cannot be scored: %(error)s") % {"deal": name, "error": error}
        ) from error
    if scores != list(stored):
        raise ArchiveError(
            _(
                "%(deal)s: the archive says %(stored)s, but its rules give "
                "%(scores)s. Nothing was imported."
            )
            % {"deal": name, "stored": stored, "scores": scores}
        )


def _table_sizes(
    deals: list[Mapping[str, Any]], items: Mapping[str, Mapping[str, Any]], existing
) -> dict[str, int]:
    """The number of seats of each table the deals are at: from the items, else from the
    copy here (1 query)."""
    sizes: dict[str, int] = {}
    wanted = set()
    for deal in deals:
        key = table_key(deal["round"], deal["table"])
        if key in items:
            sizes[key] = len(items[key]["seats"])
        else:
            wanted.add((deal["round"], deal["table"]))
    if wanted and existing is not None:
        rows = (
            Seat.objects.filter(
                round__tournament=existing, round__number__in={r for r, _t in wanted}
            )
            .values("round__number", "table__number")
            .annotate(seats=Count("pk"))
            .order_by()
        )
        for row in rows:
            sizes[table_key(row["round__number"], row["table__number"])] = row["seats"]
    for deal in deals:
        if table_key(deal["round"], deal["table"]) not in sizes:
            raise ArchiveError(
                _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
                % {"key": table_key(deal["round"], deal["table"])}
            )
    return sizes


def check_deal_items(
    upserts: Mapping[str, Mapping[str, Any]],
    *,
    settings: Mapping[str, Any],
    items: Mapping[str, Mapping[str, Any]] | None = None,
    existing: Tournament | None = None,
) -> int:
    """Score every deal item of ``upserts`` again from the tournament's rule snapshot; raise
    on the first mismatch. ``items``: where the tables are (else ``upserts``, then the copy
    here). Returns the number of deals checked."""
    deals = [item for key, item in upserts.items() if kind_of(key) == "deal"]
    if not deals:
        return 0
    rules = rules_of(settings)
    sizes = _table_sizes(deals, items if items is not None else upserts, existing)
    for deal in deals:
        check_deal(deal, rules=rules, size=sizes[table_key(deal["round"], deal["table"])])
    return len(deals)


# What is here.
