"""What every way of entering results shares: the errors, the device a change came from,
the facts of a table that scoring needs, the scoring of one deal, and the checks, locks and
history rows of a change. The ways themselves: ``phone_entry`` (a deal at the table, or on
the desk's one-deal form), ``desk_entry`` (the desk's confirmations, annulments and whole
rounds), ``paper_sheets`` (a sheet's deals as written, round totals), ``round_state`` (a
round's state and clock, a voided table, a table's token).

Concurrency: every change locks its table row first (``select_for_update`` on PostgreSQL; on
SQLite the IMMEDIATE transactions of the settings serialise writers), then checks the state it
is about to change. A device's ``submission_key`` makes a repeated submit return the deal it
already stored; ``expected_version`` turns an edit of a deal somebody changed meanwhile into a
conflict instead of a lost update.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.utils.translation import gettext as _

from scoring import RuleSource, ScoringError, deal_from_record, score_deal
from tournaments.contract_names import rule_source_name
from tournaments.models import (
    Deal,
    DealChange,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.rule_snapshot import rule_source_of
from tournaments.scoring_messages import translate_scoring_error
from tournaments.seating import sitting_out_position
from tournaments.selectors.plain import locked_table
from tournaments.services import plain_insert
from tournaments.services.revision import bump_revision

# Deal-record fields a person enters; ``seats`` and ``sitting_out`` come from the table.
INPUT_FIELDS = (
    "contract",
    "after_solo",
    "declarer",
    "declarer_points",
    "declarer_tricks",
    "won",
    "points",
    "tricks",
    "last_trick",
    "ouvert",
    "knocks",
    "bonuses",
    "penalty",
)


COLUMN_FIELDS = {"contract", "declarer", "declarer_points", "won"}


class ResultError(Exception):
    """A result that cannot be stored: ``message`` says why, in the reader's language;
    ``code`` says which kind of refusal it is, for code and tests ("round_closed",
    "deal_taken", "reason_required", …; "invalid" where nothing more is said); ``field``
    names the form field it belongs to."""

    def __init__(self, message: str, *, code: str = "invalid", field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field


class DealConflict(ResultError):
    """Somebody else entered or changed this deal first."""


@dataclass(frozen=True)
class Device:
    """The phone (a random id from a long-lived cookie) and address a change came from, and
    its browser's User-Agent."""

    id: str = ""
    ip_address: str | None = None
    user_agent: str = ""

    @property
    def client(self) -> str:
        """Address and browser together (a hash, so no User-Agent is stored): the same phone
        even after it deleted its cookie. Empty when either is unknown (no browser sends no
        User-Agent), and then nothing is compared."""
        if not self.ip_address or not self.user_agent.strip():
            return ""
        text = f"{self.ip_address}\n{self.user_agent.strip()}"
        return hashlib.sha256(text.encode()).hexdigest()[:32]


NO_DEVICE = Device()


@dataclass(frozen=True)
class TableFacts:
    """What scoring a deal at a table needs to know about it."""

    table: Table
    rules: RuleSource
    table_size: int
    last_round: bool = False  # a Räuber here is worth the source's last-round amount


def last_round_raeuber(table: Table) -> bool:
    """Whether the tournament's last-round Räuber option applies at this table."""
    tournament = table.round.tournament
    return tournament.last_round_raeuber and table.round.number == tournament.rounds


def table_facts(table: Table) -> TableFacts:
    return TableFacts(
        table=table,
        rules=rule_source_of(table.round.tournament),
        table_size=_plain_value("seats", [table.pk]),
        last_round=last_round_raeuber(table),
    )


def deal_record(*, facts: TableFacts, number: int, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The deal record (spec/deal-record.md) of deal ``number`` at this table."""
    record: dict[str, Any] = {
        key: inputs[key] for key in INPUT_FIELDS if inputs.get(key) not in (None, "", [])
    }
    record["rules"] = facts.rules.slug
    record["seats"] = facts.table_size
    out = sitting_out_position(rules=facts.rules, table_size=facts.table_size, deal_number=number)
    if out is not None:
        record["sitting_out"] = out
    contract = facts.rules.contracts.get(record.get("contract", ""))
    if facts.last_round and getattr(contract, "last_round_amount", None) is not None:
        record["last_round"] = True
    return record


def compute_scores(
    *, facts: TableFacts, number: int, inputs: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[int, ...]]:
    """Score a deal without storing it (the preview before saving). Raises ResultError."""
    record = deal_record(facts=facts, number=number, inputs=inputs)
    try:
        result = score_deal(facts.rules, deal_from_record(record))
    except ScoringError as error:
        raise ResultError(
            translate_scoring_error(error, facts.rules), field=error.field, code="scoring"
        ) from error
    if sum(result.scores) != 0:
        # A rule source that writes only the declarer's score ("declarer_only") cannot be
        # kept on a tournament sheet, whose columns must balance.
        raise ResultError(
            _(
                "The rule source %(rules)s writes only the declarer's score; a tournament "
                "needs scores that add up to 0 at every table."
            )
            % {"rules": rule_source_name(facts.rules)},
            code="declarer_only_rules",
        )
    return record, result.scores


def stored_record(deal: Deal) -> dict[str, Any]:
    """The rule inputs stored with a deal, as entered (without rules/seats/sitting_out)."""
    inputs = dict(deal.details)
    inputs["contract"] = deal.contract
    for key, value in (
        ("declarer", deal.declarer_position),
        ("declarer_points", deal.declarer_points),
        ("won", deal.won),
    ):
        if value is not None:
            inputs[key] = value
    return inputs


def _snapshot(deal: Deal) -> dict[str, Any]:
    return {
        "number": deal.number,
        "kind": deal.kind,
        "status": deal.status,
        "inputs": stored_record(deal) if deal.kind == Deal.Kind.DEAL else {},
        "scores": [s for s in deal.scores if s is not None],
        "as_written": deal.as_written,
    }


def _apply(deal: Deal, record: Mapping[str, Any], scores: tuple[int, ...]) -> None:
    deal.as_written = False
    deal.contract = record["contract"]
    deal.declarer_position = record.get("declarer")
    deal.declarer_points = record.get("declarer_points")
    deal.won = record.get("won")
    deal.details = {
        key: value
        for key, value in record.items()
        if key in INPUT_FIELDS and key not in COLUMN_FIELDS
    }
    deal.set_scores(scores)


def _locked_table(table_id: int) -> Table:
    """The table with its round and tournament, locked (select_for_update): one plain query."""
    return locked_table(table_id)


def _check_open(table: Table) -> None:
    """Results change in open rounds only: a closed round is a lock until it is reopened
    (with a reason); a finished tournament locks every round."""
    if table.voided:
        raise ResultError(
            _("This table's round was voided: %(reason)s") % {"reason": table.void_reason},
            code="table_voided",
        )
    check_round_unlocked(table.round)


def check_round_unlocked(round_: Round) -> None:
    if round_.tournament.finished_at is not None:
        raise ResultError(
            _("The tournament is finished; its results are locked."), code="tournament_finished"
        )
    if round_.state == Round.State.CLOSED:
        raise ResultError(
            _("Round %(number)s is closed; reopen it (with a reason) to change results.")
            % {"number": round_.number},
            code="round_closed",
        )


def _check_number(table: Table, number: int) -> None:
    limit = table.round.tournament.deals_per_round
    if not 1 <= number <= limit:
        raise ResultError(
            _("The deal number must be between 1 and %(limit)s.") % {"limit": limit},
            field="number",
            code="deal_number_range",
        )


def _record_change(
    deal: Deal,
    action: str,
    *,
    before: dict | None,
    user: User | None,
    actor: str = "",
    reason: str = "",
    device: Device = NO_DEVICE,
) -> None:
    change = DealChange(
        deal=deal,
        action=action,
        before=before,
        after=_snapshot(deal),
        changed_by=user if user is not None and user.is_authenticated else None,
        actor=actor,
        reason=reason,
        device=device.id,
        ip_address=device.ip_address,
    )
    plain_insert.insert(change)


def _replayed(submission_key: uuid.UUID | None, table: Table, number: int) -> Deal | None:
    """The deal a repeated submission already stored, or None for a new submission."""
    if submission_key is None:
        return None
    field = Deal._meta.get_field("submission_key")
    if not _plain_value("key used", [field.get_db_prep_value(submission_key, connection)]):
        return None  # a new submission, as nearly every one is
    deal = Deal.objects.filter(submission_key=submission_key).first()
    if deal is not None and (deal.table_id != table.pk or deal.number != number):
        raise DealConflict(
            _("This form was already used for another deal; reload the page."), code="form_reused"
        )
    return deal


def _start_round(table: Table) -> None:
    if table.round.state == Round.State.DRAWN:
        Round.objects.filter(pk=table.round_id).update(state=Round.State.PLAYING)
        table.round.state = Round.State.PLAYING


def _check_deals_table(table: Table) -> None:
    if table.round.tournament.entry_mode != Tournament.EntryMode.DEALS:
        raise ResultError(_("This tournament records round totals only."), code="totals_only")
    if _plain_value("kind at table", [table.pk, Deal.Kind.TOTAL.value]):
        raise ResultError(
            _("Table %(table)s was entered as round totals; correct the totals instead.")
            % {"table": table.number},
            code="table_has_totals",
        )


@functools.cache
def _plain_sql() -> dict[str, str]:
    """The checks every phone deal makes, written out once: building them with the ORM
    cost more than running them (a count, or 1 where there is such a row)."""
    q = connection.ops.quote_name
    deal, seat = Deal._meta, Seat._meta

    def column(meta, name: str) -> str:
        return q(meta.get_field(name).column)

    deals, seats = q(deal.db_table), q(seat.db_table)
    return {
        "seats": f"SELECT COUNT(*) FROM {seats} WHERE {column(seat, 'table')} = %s",  # noqa: S608
        "key used": f"SELECT 1 FROM {deals} WHERE {column(deal, 'submission_key')} = %s",  # noqa: S608
        "number taken": (
            f"SELECT 1 FROM {deals} WHERE {column(deal, 'table')} = %s "  # noqa: S608
            f"AND {column(deal, 'number')} = %s LIMIT 1"
        ),
        "kind at table": (
            f"SELECT 1 FROM {deals} WHERE {column(deal, 'table')} = %s "  # noqa: S608
            f"AND {column(deal, 'kind')} = %s LIMIT 1"
        ),
    }


def _plain_value(name: str, params: list) -> Any:
    """The first column of the first row of the plain query ``name`` (0 for no row)."""
    with connection.cursor() as cursor:
        cursor.execute(_plain_sql()[name], params)
        row = cursor.fetchone()
    return 0 if row is None else row[0]


def _check_version(deal: Deal, expected_version: int | None) -> None:
    """A change says which version it was made on; none, or an older one, is a conflict."""
    if expected_version is None:
        raise DealConflict(
            _("The form did not say which version of deal %(number)s it changes; reload it.")
            % {"number": deal.number},
            code="version_missing",
        )
    if deal.version != expected_version:
        raise DealConflict(
            _("Deal %(number)s was changed on another device meanwhile; check it and try again.")
            % {"number": deal.number},
            code="version_changed",
        )


def _locked_deal(deal: Deal, expected_version: int | None, *, check: bool = True) -> Deal:
    _locked_table(deal.table_id)
    current = Deal.objects.select_related("table__round__tournament").get(pk=deal.pk)
    if check:
        _check_version(current, expected_version)
    return current


def _change_status(
    deal: Deal,
    status: str,
    action: str,
    *,
    user: User | None,
    actor: str = "",
    reason: str = "",
    device: Device = NO_DEVICE,
) -> Deal:
    before = _snapshot(deal)
    deal.status = status
    deal.version += 1
    fields = ["status", "version", "updated_at"]
    if action == DealChange.Action.CONFIRMED:
        deal.confirmed_device = device.id
        fields.append("confirmed_device")
    deal.save(update_fields=fields)
    _record_change(
        deal, action, before=before, user=user, actor=actor, reason=reason, device=device
    )
    bump_revision(tournament_id=deal.table.round.tournament_id, tables=[deal.table_id])
    return deal
