"""A deal entered, confirmed or revised at the table on a phone; the desk's one-deal form
enters and corrects through the same two functions, with a login (``user``), and its deals
count at once. The errors and shared checks: ``results_common``."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    Deal,
    DealChange,
    Table,
)
from tournaments.seating import dealer_position
from tournaments.services import plain_insert
from tournaments.services.paper_sheets import check_no_typing_waits
from tournaments.services.results_common import (
    NO_DEVICE,
    DealConflict,
    Device,
    ResultError,
    _apply,
    _change_status,
    _check_deals_table,
    _check_number,
    _check_open,
    _check_version,
    _locked_deal,
    _locked_table,
    _plain_value,
    _record_change,
    _replayed,
    _snapshot,
    _start_round,
    compute_scores,
    table_facts,
)
from tournaments.services.revision import bump_revision


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
            code="deal_taken",
        )
    facts = table_facts(table)
    if entered_by_position is not None and not 0 <= entered_by_position < facts.table_size:
        raise ResultError(
            _("That seat does not exist at this table."), field="entered_by", code="no_such_seat"
        )
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
            code="deal_taken",
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
        raise ResultError(_("This deal was annulled."), code="deal_annulled")
    if (
        deal.status == Deal.Status.CONFIRMED
        and expected_version is not None
        and deal.version in (expected_version, expected_version + 1)
    ):
        return deal  # a repeated tap
    _check_version(deal, expected_version)
    _check_open(deal.table)
    if confirmer_position == deal.entered_by_position:
        raise ResultError(
            _("Another player at the table must confirm this deal."), code="same_seat"
        )
    if device.id and device.id == deal.entered_device:
        raise ResultError(
            _(
                "This phone entered the deal, so it cannot confirm it, whichever seat is "
                "chosen. Another player confirms it on their own phone, or the organiser "
                "at the desk."
            ),
            code="same_phone",
        )
    if device.client and device.client == deal.entered_client:
        # the same address and browser: the entering phone with its cookie deleted
        raise ResultError(
            _(
                "Another phone at the table must confirm this deal: it was entered on this "
                "phone (same address and browser). Or the organiser confirms it at the desk."
            ),
            code="same_browser",
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
        raise ResultError(_("Round totals are corrected as totals."), code="is_totals")
    if organiser:
        if not reason.strip():
            raise ResultError(
                _("Give a reason for the correction."), field="reason", code="reason_required"
            )
    elif deal.status != Deal.Status.PENDING:
        raise ResultError(
            _("A confirmed deal can only be corrected by the organiser."), code="organiser_only"
        )
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
