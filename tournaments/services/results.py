"""Entering, confirming and correcting results: the only code that writes deals.

Concurrency: every change locks its table row first (``select_for_update`` on PostgreSQL; on
SQLite the IMMEDIATE transactions of the settings serialise writers), then checks the state it
is about to change. A device's ``submission_key`` makes a repeated submit return the deal it
already stored; ``expected_version`` turns an edit of a deal somebody changed meanwhile into a
conflict instead of a lost update.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import RuleSource, ScoringError, deal_from_record, score_deal
from scoring.written import check_written
from tournaments.contract_names import rule_source_name
from tournaments.models import (
    SCORE_LIMIT,
    Deal,
    DealChange,
    Round,
    RoundChange,
    Seat,
    SheetTyping,
    Table,
    Tournament,
    TournamentChange,
    new_short_code,
    new_table_token,
)
from tournaments.rule_snapshot import rule_source_of
from tournaments.scoring_messages import translate_scoring_error
from tournaments.seating import dealer_position, sitting_out_position
from tournaments.selectors.plain import locked_table
from tournaments.services import changelog, plain_insert
from tournaments.services.revision import bump_revision
from venue import backups

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
    """A result that cannot be stored. ``field`` names the form field it belongs to."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
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
        raise ResultError(translate_scoring_error(error, facts.rules), field=error.field) from error
    if sum(result.scores) != 0:
        # A rule source that writes only the declarer's score ("declarer_only") cannot be
        # kept on a tournament sheet, whose columns must balance.
        raise ResultError(
            _(
                "The rule source %(rules)s writes only the declarer's score; a tournament "
                "needs scores that add up to 0 at every table."
            )
            % {"rules": rule_source_name(facts.rules)}
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
            _("This table's round was voided: %(reason)s") % {"reason": table.void_reason}
        )
    check_round_unlocked(table.round)


def check_round_unlocked(round_: Round) -> None:
    if round_.tournament.finished_at is not None:
        raise ResultError(_("The tournament is finished; its results are locked."))
    if round_.state == Round.State.CLOSED:
        raise ResultError(
            _("Round %(number)s is closed; reopen it (with a reason) to change results.")
            % {"number": round_.number}
        )


def _check_number(table: Table, number: int) -> None:
    limit = table.round.tournament.deals_per_round
    if not 1 <= number <= limit:
        raise ResultError(
            _("The deal number must be between 1 and %(limit)s.") % {"limit": limit},
            field="number",
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
        raise DealConflict(_("This form was already used for another deal; reload the page."))
    return deal


def _start_round(table: Table) -> None:
    if table.round.state == Round.State.DRAWN:
        Round.objects.filter(pk=table.round_id).update(state=Round.State.PLAYING)
        table.round.state = Round.State.PLAYING


@transaction.atomic
def enter_deal(
    *,
    table: Table,
    number: int,
    inputs: Mapping[str, Any],
    submission_key: uuid.UUID | None = None,
    via: str = "desk",
    entered_by_position: int | None = None,
    user: User | None = None,
    actor: str = "",
    reason: str = "",
    device: Device = NO_DEVICE,
) -> Deal:
    """Store a new deal. At the desk it counts at once; at the table it waits for a second
    player's confirmation. Raises ResultError (bad input) or DealConflict (number taken)."""
    table = _locked_table(table.pk)
    replay = _replayed(submission_key, table, number)
    if replay is not None:
        return replay
    _check_deals_table(table)
    _check_open(table)
    check_no_typing_waits(table)
    _check_number(table, number)
    if _plain_value("number taken", [table.pk, number]):
        raise DealConflict(
            _("Deal %(number)s at table %(table)s has already been entered.")
            % {"number": number, "table": table.number},
            field="number",
        )
    facts = table_facts(table)
    if entered_by_position is not None and not 0 <= entered_by_position < facts.table_size:
        raise ResultError(_("That seat does not exist at this table."), field="entered_by")
    record, scores = compute_scores(facts=facts, number=number, inputs=inputs)
    deal = Deal(
        table=table,
        number=number,
        dealer_position=dealer_position(deal_number=number, table_size=facts.table_size),
        status=Deal.Status.PENDING if via == "table" else Deal.Status.CONFIRMED,
        submission_key=submission_key,
        entered_via=via,
        entered_by_position=entered_by_position,
        entered_device=device.id,
        entered_client=device.client,
    )
    _apply(deal, record, scores)
    try:
        with transaction.atomic():
            plain_insert.insert(deal)
    except IntegrityError as error:
        # Only reachable where the table lock is not a lock (a race on the unique constraints).
        raise DealConflict(
            _("Deal %(number)s at table %(table)s has already been entered.")
            % {"number": number, "table": table.number},
            field="number",
        ) from error
    _start_round(table)
    _record_change(
        deal,
        DealChange.Action.CREATED,
        before=None,
        user=user,
        actor=actor,
        reason=reason,
        device=device,
    )
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return deal


@transaction.atomic
def enter_round_deals(
    *,
    round: Round,
    deals: Mapping[int, Sequence[Mapping[str, Any]]],
    user: User | None = None,
    actor: str = "",
) -> int:
    """Store a round's deals at once, as the desk would one by one (confirmed, each with its
    "entered" history row): ``deals`` maps a table's number to the inputs of its deals 1, 2,
    … Every deal is scored by the engine as :func:`enter_deal` scores it. For whole rounds
    played elsewhere (the demo of any size): a few queries whatever the round's size, the
    inserts in batches. Raises ResultError (a deal the engine refuses, a table that is not the round's, is
    voided or has deals already, a locked round, too many deals); then nothing is written.
    Returns how many deals were stored."""
    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    tournament = locked.tournament
    check_round_unlocked(locked)
    if tournament.entry_mode != Tournament.EntryMode.DEALS:
        raise ResultError(_("This tournament records round totals only."))
    tables = {
        table.number: table for table in Table.objects.select_for_update().filter(round=locked)
    }
    sizes = dict(
        Seat.objects.filter(round=locked)
        .values("table_id")
        .annotate(size=Count("pk"))
        .values_list("table_id", "size")
    )
    for number, inputs in deals.items():
        table = tables.get(number)
        if table is None:
            raise ResultError(
                _("Round %(round)s has no table %(table)s.")
                % {"round": locked.number, "table": number}
            )
        if table.voided:
            raise ResultError(
                _("This table's round was voided: %(reason)s") % {"reason": table.void_reason}
            )
        if len(inputs) > tournament.deals_per_round:
            raise ResultError(
                _("The deal number must be between 1 and %(limit)s.")
                % {"limit": tournament.deals_per_round}
            )
    taken = Deal.objects.filter(table__round=locked, table__number__in=list(deals)).first()
    if taken is not None:
        raise DealConflict(
            _("Deal %(number)s at table %(table)s has already been entered.")
            % {"number": taken.number, "table": taken.table.number}
        )
    rules = rule_source_of(tournament)
    last_round = tournament.last_round_raeuber and locked.number == tournament.rounds
    new: list[Deal] = []
    for number, inputs in sorted(deals.items()):
        table = tables[number]
        table.round, size = locked, sizes.get(table.pk, 0)
        facts = TableFacts(table=table, rules=rules, table_size=size, last_round=last_round)
        for deal_number, deal_inputs in enumerate(inputs, start=1):
            try:
                record, scores = compute_scores(facts=facts, number=deal_number, inputs=deal_inputs)
            except ResultError as error:
                raise ResultError(
                    _("Table %(table)s, deal %(number)s: %(problem)s")
                    % {"table": number, "number": deal_number, "problem": error.message},
                    field=error.field,
                ) from error
            deal = Deal(
                table=table,
                number=deal_number,
                dealer_position=dealer_position(deal_number=deal_number, table_size=size),
                status=Deal.Status.CONFIRMED,
                entered_via="desk",
            )
            _apply(deal, record, scores)
            new.append(deal)
    created = Deal.objects.bulk_create(new, batch_size=1000)
    if any(deal.pk is None for deal in created):  # a database that returns no keys
        keys = {
            (table_id, number): pk
            for table_id, number, pk in Deal.objects.filter(table__round=locked).values_list(
                "table_id", "number", "pk"
            )
        }
        for deal in created:
            deal.pk = keys[(deal.table_id, deal.number)]
    changed_by = user if user is not None and user.is_authenticated else None
    DealChange.objects.bulk_create(
        [
            DealChange(
                deal=deal,
                action=DealChange.Action.CREATED,
                after=_snapshot(deal),
                changed_by=changed_by,
                actor=actor,
            )
            for deal in created
        ],
        batch_size=1000,
    )
    if created and locked.state == Round.State.DRAWN:
        Round.objects.filter(pk=locked.pk).update(state=Round.State.PLAYING)
    bump_revision(tournament_id=tournament.pk)
    return len(created)


OPEN_TYPING_STATES = (SheetTyping.State.AWAITING_SECOND, SheetTyping.State.DIFFERENCES)


def typing_waits_message(state: str) -> str:
    """What the desk's and the phone's deal form say instead of the form while the table's
    paper sheet is typed twice (``Tournament.double_entry``) and does not count yet."""
    if state == SheetTyping.State.DIFFERENCES:
        return _(
            "The two typings of this table's paper sheet differ and are being settled at the "
            "desk. Until the sheet counts, no deal is entered here."
        )
    return _(
        "This table's paper sheet is waiting for its second typing at the desk. Until it "
        "counts, no deal is entered here."
    )


def check_no_typing_waits(table: Table) -> None:
    """Double entry: a table whose paper sheet was typed once (or whose two typings differ)
    takes no deal from the desk's form or a phone until the sheet counts: the sheet is the
    table's result, and a deal entered beside it would count after one entry, or take a
    number the second typing then finds taken. No query where the tournament types once."""
    if not table.round.tournament.double_entry:
        return
    state = (
        SheetTyping.objects.filter(table=table, state__in=OPEN_TYPING_STATES)
        .values_list("state", flat=True)
        .first()
    )
    if state is not None:
        raise ResultError(typing_waits_message(state))


def _check_typed_twice(table: Table, *, typed_twice: bool) -> None:
    """A new paper sheet (its deals as written, its round totals) in a tournament that types
    sheets twice counts only through ``tournaments.services.double_entry``."""
    if table.round.tournament.double_entry and not typed_twice:
        raise ResultError(
            _("This tournament types paper sheets twice: save the sheet as a typing.")
        )


def _check_deals_table(table: Table) -> None:
    if table.round.tournament.entry_mode != Tournament.EntryMode.DEALS:
        raise ResultError(_("This tournament records round totals only."))
    if _plain_value("kind at table", [table.pk, Deal.Kind.TOTAL.value]):
        raise ResultError(
            _("Table %(table)s was entered as round totals; correct the totals instead.")
            % {"table": table.number}
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
            % {"number": deal.number}
        )
    if deal.version != expected_version:
        raise DealConflict(
            _("Deal %(number)s was changed on another device meanwhile; check it and try again.")
            % {"number": deal.number}
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


@transaction.atomic
def confirm_deal(
    *,
    deal: Deal,
    confirmer_position: int,
    expected_version: int | None,
    actor: str = "",
    device: Device = NO_DEVICE,
) -> Deal:
    """A second player at the table confirms a deal entered there; then it counts.

    ``expected_version`` is the version the confirming player saw: required, so that a deal
    changed meanwhile is never confirmed unseen. The phone that entered (or last changed) the
    deal cannot confirm it, whichever seat it claims."""
    deal = _locked_deal(deal, None, check=False)
    if deal.status == Deal.Status.ANNULLED:
        raise ResultError(_("This deal was annulled."))
    if (
        deal.status == Deal.Status.CONFIRMED
        and expected_version is not None
        and deal.version in (expected_version, expected_version + 1)
    ):
        return deal  # a repeated tap
    _check_version(deal, expected_version)
    _check_open(deal.table)
    if confirmer_position == deal.entered_by_position:
        raise ResultError(_("Another player at the table must confirm this deal."))
    if device.id and device.id == deal.entered_device:
        raise ResultError(
            _(
                "This phone entered the deal, so it cannot confirm it, whichever seat is "
                "chosen. Another player confirms it on their own phone, or the organiser "
                "at the desk."
            )
        )
    if device.client and device.client == deal.entered_client:
        # the same address and browser: the entering phone with its cookie deleted
        raise ResultError(
            _(
                "Another phone at the table must confirm this deal: it was entered on this "
                "phone (same address and browser). Or the organiser confirms it at the desk."
            )
        )
    return _change_status(
        deal,
        Deal.Status.CONFIRMED,
        DealChange.Action.CONFIRMED,
        user=None,
        actor=actor,
        reason=_same_address_note(deal, device),
        device=device,
    )


def _same_address_note(deal: Deal, device: Device) -> str:
    """A confirmation from the address the deal was entered (or last changed) from, in
    another browser: maybe the same phone's second browser. Marked in the deal's history, not
    refused: behind a club server's proxy two phones on one home router share an address."""
    if not device.ip_address:
        return ""
    entered = (
        DealChange.objects.filter(
            deal=deal,
            action__in=[DealChange.Action.CREATED, DealChange.Action.CORRECTED],
            changed_by__isnull=True,
        )
        .exclude(device="")
        .order_by("-pk")
        .values_list("ip_address", flat=True)
        .first()
    )
    if entered != device.ip_address:
        return ""
    return _(
        "Confirmed from the same device? The same address as the phone that entered the deal, "
        "another browser."
    )


@transaction.atomic
def confirm_deal_at_desk(*, deal: Deal, user: User, expected_version: int | None) -> Deal:
    """The organiser or a referee confirms a deal that waits for a second phone (a phone
    changed it and nobody at the table confirmed it again): it counts from now on, recorded
    as confirmed by ``user``. ``expected_version`` is the version shown at the desk, so a
    deal changed meanwhile is never confirmed unseen; a repeated click changes nothing."""
    deal = _locked_deal(deal, None, check=False)
    if (
        deal.status == Deal.Status.CONFIRMED
        and expected_version is not None
        and deal.version == expected_version + 1
    ):
        return deal  # a repeated click
    if deal.status != Deal.Status.PENDING:
        raise ResultError(
            _("Deal %(number)s is not waiting for confirmation.") % {"number": deal.number}
        )
    _check_version(deal, expected_version)
    _check_open(deal.table)
    return _change_status(
        deal,
        Deal.Status.CONFIRMED,
        DealChange.Action.CONFIRMED,
        user=user,
        reason=_("confirmed at the desk"),
    )


@transaction.atomic
def revise_deal(
    *,
    deal: Deal,
    inputs: Mapping[str, Any],
    expected_version: int,
    user: User | None = None,
    actor: str = "",
    reason: str = "",
    entered_by_position: int | None = None,
    device: Device = NO_DEVICE,
) -> Deal:
    """Change a deal's inputs and re-score it.

    At the table (no ``user``) only an unconfirmed deal can be revised; it then waits for a
    player other than the reviser. The organiser corrects any deal, with a reason; a
    correction counts at once.
    """
    deal = _locked_deal(deal, expected_version)
    organiser = user is not None and user.is_authenticated
    if deal.kind != Deal.Kind.DEAL:
        raise ResultError(_("Round totals are corrected as totals."))
    if organiser:
        if not reason.strip():
            raise ResultError(_("Give a reason for the correction."), field="reason")
    elif deal.status != Deal.Status.PENDING:
        raise ResultError(_("A confirmed deal can only be corrected by the organiser."))
    _check_open(deal.table)
    facts = table_facts(deal.table)
    record, scores = compute_scores(facts=facts, number=deal.number, inputs=inputs)
    before = _snapshot(deal)
    _apply(deal, record, scores)
    if organiser:
        deal.status = Deal.Status.CONFIRMED
    else:
        # The reviser's phone has entered this version: another phone must confirm it.
        deal.entered_by_position = entered_by_position
        deal.entered_device = device.id
        deal.entered_client = device.client
    deal.version += 1
    deal.save()
    _record_change(
        deal,
        DealChange.Action.CORRECTED,
        before=before,
        user=user,
        actor=actor,
        reason=reason or _("revised at the table before confirmation"),
        device=device,
    )
    bump_revision(tournament_id=deal.table.round.tournament_id, tables=[deal.table_id])
    return deal


@transaction.atomic
def annul_deal(*, deal: Deal, reason: str, user: User, expected_version: int | None = None) -> Deal:
    """The organiser (or referees) strike a deal: it stays on record but counts nothing.
    Given an ``expected_version``, a deal changed meanwhile is a conflict."""
    if not reason.strip():
        raise ResultError(_("Give a reason for annulling the deal."), field="reason")
    deal = _locked_deal(deal, expected_version, check=expected_version is not None)
    check_round_unlocked(deal.table.round)
    if deal.status == Deal.Status.ANNULLED:
        return deal
    return _change_status(
        deal, Deal.Status.ANNULLED, DealChange.Action.ANNULLED, user=user, reason=reason
    )


@transaction.atomic
def restore_deal(*, deal: Deal, reason: str, user: User) -> Deal:
    """Undo an annulment."""
    if not reason.strip():
        raise ResultError(_("Give a reason for restoring the deal."), field="reason")
    deal = _locked_deal(deal, None, check=False)
    check_round_unlocked(deal.table.round)
    if deal.status != Deal.Status.ANNULLED:
        raise ResultError(_("Only an annulled deal can be restored."))
    return _change_status(
        deal, Deal.Status.CONFIRMED, DealChange.Action.RESTORED, user=user, reason=reason
    )


def check_totals_table(table: Table) -> None:
    """A table takes round totals in a totals-only tournament, or where none of its deals
    has been entered (its totals would otherwise come from them)."""
    if table.round.tournament.entry_mode != Tournament.EntryMode.TOTALS and (
        Deal.objects.filter(table=table, kind=Deal.Kind.DEAL).exists()
    ):
        raise ResultError(
            _("Deals of table %(table)s have been entered; its totals come from them.")
            % {"table": table.number}
        )


def checked_totals(table: Table, totals: Sequence[int]) -> list[int]:
    """One total per player of the table, each within the bounds, adding up to zero."""
    totals = list(totals)
    size = table.seats.count()
    if len(totals) != size or any(total is None for total in totals):
        raise ResultError(_("Enter one total per player."), field="totals")
    if any(abs(total) > SCORE_LIMIT for total in totals):
        raise ResultError(
            _("A total must lie between -%(limit)s and %(limit)s.") % {"limit": SCORE_LIMIT},
            field="totals",
        )
    if sum(totals) != 0:
        raise ResultError(
            _("The totals add up to %(sum)s; a table's totals add up to 0.") % {"sum": sum(totals)},
            field="totals",
        )
    return totals


@transaction.atomic
def enter_totals(
    *,
    table: Table,
    totals: list[int],
    user: User | None,
    expected_version: int | None = None,
    reason: str = "",
    submission_key: uuid.UUID | None = None,
    typed_twice: bool = False,
) -> Deal:
    """One line of round sums per table, which must sum to zero: every table of a totals-only
    tournament, or a table whose paper sheet has only round sums in a tournament that records
    every deal (as long as no deal of that table has been entered).

    Where the tournament types paper sheets twice, new totals come only from
    ``tournaments.services.double_entry`` (``typed_twice``); a correction of totals that
    count is one entry with a reason, as a correction of a deal is."""
    table = _locked_table(table.pk)
    replay = _replayed(submission_key, table, 1)
    if replay is not None:
        return replay
    check_totals_table(table)
    _check_open(table)
    totals = checked_totals(table, totals)
    existing = Deal.objects.filter(table=table, number=1).first()
    if existing is None:
        _check_typed_twice(table, typed_twice=typed_twice)
        deal = Deal(table=table, number=1, kind=Deal.Kind.TOTAL, submission_key=submission_key)
        deal.set_scores(totals)
        deal.save()
        _start_round(table)
        _record_change(deal, DealChange.Action.CREATED, before=None, user=user, reason=reason)
        bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
        return deal
    if expected_version is None or existing.version != expected_version:
        raise DealConflict(_("The totals of this table were entered meanwhile; check them."))
    if not reason.strip():
        raise ResultError(_("Give a reason for the correction."), field="reason")
    before = _snapshot(existing)
    existing.set_scores(totals)
    existing.version += 1
    existing.save()
    _record_change(existing, DealChange.Action.CORRECTED, before=before, user=user, reason=reason)
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return existing


def _log_round(
    round_: Round,
    action: str,
    *,
    user: User | None,
    reason: str = "",
    table: Table | None = None,
) -> None:
    RoundChange.objects.create(
        round=round_,
        table=table,
        action=action,
        reason=reason.strip(),
        changed_by=user if user is not None and user.is_authenticated else None,
    )


@transaction.atomic
def void_table(*, table: Table, reason: str, user: User) -> Table:
    """A writing error that cannot be reconstructed: the table's round counts nothing."""
    if not reason.strip():
        raise ResultError(_("Give a reason for voiding the table."), field="reason")
    table = _locked_table(table.pk)
    check_round_unlocked(table.round)
    table.voided = True
    table.void_reason = reason.strip()
    table.save(update_fields=["voided", "void_reason"])
    _log_round(table.round, RoundChange.Action.TABLE_VOIDED, user=user, reason=reason, table=table)
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return table


@transaction.atomic
def unvoid_table(*, table: Table, reason: str, user: User) -> Table:
    """Let a voided table count again (e.g. the sheet was reconstructed after all)."""
    if not reason.strip():
        raise ResultError(_("Give a reason for counting the table again."), field="reason")
    table = _locked_table(table.pk)
    check_round_unlocked(table.round)
    table.voided = False
    table.void_reason = ""
    table.save(update_fields=["voided", "void_reason"])
    _log_round(
        table.round, RoundChange.Action.TABLE_RESTORED, user=user, reason=reason, table=table
    )
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return table


class RoundStillOpen(ResultError):
    """Closing a round that still has unfinished tables or unconfirmed deals: ``open_tables``
    lists them; closing anyway needs the organiser's explicit confirmation."""

    def __init__(self, message: str, *, open_tables: Sequence[Any]) -> None:
        super().__init__(message)
        self.open_tables = list(open_tables)


@transaction.atomic
def set_round_state(
    *,
    round: Round,
    state: str,
    user: User,
    reason: str = "",
    close_open: bool = False,
    on_backup: Callable[[Path | None], None] | None = None,
) -> Round:
    """Start, close or reopen a round; reopening a closed round needs a reason (logged).

    Closing in venue mode writes a backup once the transaction commits; ``on_backup`` hears
    the file it wrote (None: none, the folder missing or the backup failed).

    Closing a round with tables still missing deals or with deals waiting for confirmation
    raises :class:`RoundStillOpen` unless ``close_open`` says the organiser saw the list and
    closes anyway (unconfirmed deals then count nothing; the reason is logged).
    """
    from tournaments.selectors.round_status import round_status

    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if state not in Round.State.values:
        raise ResultError(_("Unknown round state."))
    if locked.tournament.finished_at is not None:
        raise ResultError(_("The tournament is finished; its results are locked."))
    reopening = locked.state == Round.State.CLOSED and state != Round.State.CLOSED
    if reopening and not reason.strip():
        raise ResultError(_("Give a reason for reopening a closed round."), field="reason")
    closing = state == Round.State.CLOSED and locked.state != Round.State.CLOSED
    if closing:
        still_open = [t for t in round_status(round=locked).tables if t.is_open]
        if still_open and not close_open:
            raise RoundStillOpen(
                _("Round %(number)s is not finished yet.") % {"number": locked.number},
                open_tables=still_open,
            )
    locked.state = state
    locked.save(update_fields=["state"])
    if closing:
        _log_round(locked, RoundChange.Action.CLOSED, user=user, reason=reason)
        # Venue mode: a copy of the closed round on the organiser's backup stick.
        backups.backup_after_commit(on_done=on_backup)
    elif reopening:
        _log_round(locked, RoundChange.Action.REOPENED, user=user, reason=reason)
    bump_revision(tournament_id=locked.tournament_id)
    return locked


@transaction.atomic
def set_round_clock(*, round: Round, minutes: int | None, user: User) -> Round:
    """Start the round clock: the round ends ``minutes`` from now (None stops the clock)."""
    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    check_round_unlocked(locked)
    if minutes is not None and not 1 <= minutes <= 600:
        raise ResultError(_("A time limit is 1 to 600 minutes."), field="minutes")
    locked.time_limit_minutes = minutes
    locked.ends_at = None if minutes is None else timezone.now() + dt.timedelta(minutes=minutes)
    locked.save(update_fields=["time_limit_minutes", "ends_at"])
    changelog.record(
        tournament_id=locked.tournament_id,
        action=TournamentChange.Action.CLOCK_SET,
        user=user,
        subject=_("Round %(number)s") % {"number": locked.number},
        after={"minutes": minutes},
    )
    bump_revision(tournament_id=locked.tournament_id)
    return locked


# --------------------------------------------------------------------------- as written


@dataclass(frozen=True)
class WrittenRow:
    """One line of a paper sheet: contract, declarer and the amounts as written; ``None``
    marks an amount that follows from the others (the defenders' from the declarer's)."""

    number: int
    contract: str
    declarer: int
    amounts: tuple[int | None, ...]


@dataclass(frozen=True)
class WrittenScore:
    scores: tuple[int, ...]
    won: bool | None


def check_written_row(*, facts: TableFacts, row: WrittenRow) -> WrittenScore:
    """The engine's check of one written line (nothing is stored). Raises ResultError."""
    out = sitting_out_position(
        rules=facts.rules, table_size=facts.table_size, deal_number=row.number
    )
    amounts = list(row.amounts)
    if out is not None and amounts[out] is None:
        amounts[out] = None if _out_pays(facts) else 0
    try:
        outcome = check_written(
            facts.rules,
            seats=facts.table_size,
            contract=row.contract,
            declarer=row.declarer,
            sitting_out=out,
            amounts=amounts,
        )
    except ScoringError as error:
        field = error.field if error.field in ("contract", "declarer") else "amounts"
        raise ResultError(translate_scoring_error(error, facts.rules), field=field) from error
    return WrittenScore(scores=outcome.scores, won=outcome.won)


def _out_pays(facts: TableFacts) -> bool:
    rule = facts.rules.tables.get(facts.table_size)
    return rule is not None and rule.sitting_out_scores == "defender"


def _apply_written(deal: Deal, row: WrittenRow, written: WrittenScore) -> None:
    deal.as_written = True
    deal.contract = row.contract
    deal.declarer_position = row.declarer
    deal.declarer_points = None
    deal.won = written.won
    deal.details = {}
    deal.set_scores(written.scores)


@transaction.atomic
def enter_written_deals(
    *,
    table: Table,
    rows: Sequence[WrittenRow],
    user: User | None,
    reason: str = "",
    typed_twice: bool = False,
) -> list[Deal]:
    """Store lines typed in as written on the table's paper sheet, all or none.

    Each line is checked by the engine (:func:`check_written_row`); a line that fails raises
    ResultError naming its deal number, and nothing is stored. Where the tournament types
    paper sheets twice, only ``tournaments.services.double_entry`` stores them
    (``typed_twice``).
    """
    table = _locked_table(table.pk)
    _check_deals_table(table)
    _check_open(table)
    _check_typed_twice(table, typed_twice=typed_twice)
    facts = table_facts(table)
    deals = []
    for row, written in checked_written_rows(table, rows, facts=facts):
        deal = Deal(
            table=table,
            number=row.number,
            dealer_position=dealer_position(deal_number=row.number, table_size=facts.table_size),
            status=Deal.Status.CONFIRMED,
            entered_via="desk",
        )
        _apply_written(deal, row, written)
        deal.save()
        _record_change(deal, DealChange.Action.CREATED, before=None, user=user, reason=reason)
        deals.append(deal)
    _start_round(table)
    bump_revision(tournament_id=table.round.tournament_id, tables=[table.pk])
    return deals


def checked_written_rows(
    table: Table, rows: Sequence[WrittenRow], *, facts: TableFacts | None = None
) -> list[tuple[WrittenRow, WrittenScore]]:
    """The lines of a table's paper sheet, each checked as it would be stored: a number of
    this table's round not entered yet nor typed twice, and the engine's check of the line
    (its error named with the deal's number). Raises at the first line that fails."""
    if not rows:
        raise ResultError(_("Type at least one line of the sheet."))
    facts = facts or table_facts(table)
    taken = set(Deal.objects.filter(table=table).values_list("number", flat=True))
    numbers: set[int] = set()
    checked = []
    for row in rows:
        _check_number(table, row.number)
        if row.number in taken or row.number in numbers:
            raise DealConflict(
                _("Deal %(number)s at table %(table)s has already been entered.")
                % {"number": row.number, "table": table.number},
                field="number",
            )
        numbers.add(row.number)
        try:
            checked.append((row, check_written_row(facts=facts, row=row)))
        except ResultError as error:
            raise ResultError(
                _("Deal %(number)s: %(error)s") % {"number": row.number, "error": error.message},
                field=error.field,
            ) from error
    return checked


@transaction.atomic
def revise_written_deal(
    *,
    deal: Deal,
    row: WrittenRow,
    expected_version: int,
    user: User,
    reason: str,
) -> Deal:
    """The organiser corrects a deal as written (or turns a deal into one), with a reason."""
    if not reason.strip():
        raise ResultError(_("Give a reason for the correction."), field="reason")
    deal = _locked_deal(deal, expected_version)
    if deal.kind != Deal.Kind.DEAL:
        raise ResultError(_("Round totals are corrected as totals."))
    _check_open(deal.table)
    written = check_written_row(facts=table_facts(deal.table), row=row)
    before = _snapshot(deal)
    _apply_written(deal, row, written)
    deal.status = Deal.Status.CONFIRMED
    deal.version += 1
    deal.save()
    _record_change(deal, DealChange.Action.CORRECTED, before=before, user=user, reason=reason)
    bump_revision(tournament_id=deal.table.round.tournament_id, tables=[deal.table_id])
    return deal


@transaction.atomic
def reissue_table_token(*, table: Table, user: User) -> Table:
    """A new entry token for a table (a phone with the old QR code was lost): the old link
    stops working at once, the new QR code is on the table's desk page and score sheet."""
    table = _locked_table(table.pk)
    table.token = new_table_token()
    table.short_code = new_short_code()  # the typed address must stop working too
    table.save(update_fields=["token", "short_code"])
    changelog.record(
        tournament_id=table.round.tournament_id,
        action=TournamentChange.Action.TOKEN_REISSUED,
        user=user,
        subject=_("Round %(round)s, table %(table)s")
        % {"round": table.round.number, "table": table.number},
    )
    return table
