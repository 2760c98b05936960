"""What the desk does to deals: confirms one that waits for a second phone, annuls and
restores, and stores a whole round's deals at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from tournaments.models import (
    Deal,
    DealChange,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.rule_snapshot import rule_source_of
from tournaments.seating import dealer_position
from tournaments.services.results_common import (
    DealConflict,
    ResultError,
    TableFacts,
    _apply,
    _change_status,
    _check_open,
    _check_version,
    _locked_deal,
    _snapshot,
    check_round_unlocked,
    compute_scores,
)
from tournaments.services.revision import bump_revision


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
        raise ResultError(_("This tournament records round totals only."), code="totals_only")
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
                % {"round": locked.number, "table": number},
                code="no_such_table",
            )
        if table.voided:
            raise ResultError(
                _("This table's round was voided: %(reason)s") % {"reason": table.void_reason},
                code="table_voided",
            )
        if len(inputs) > tournament.deals_per_round:
            raise ResultError(
                _("The deal number must be between 1 and %(limit)s.")
                % {"limit": tournament.deals_per_round},
                code="deal_number_range",
            )
    taken = Deal.objects.filter(table__round=locked, table__number__in=list(deals)).first()
    if taken is not None:
        raise DealConflict(
            _("Deal %(number)s at table %(table)s has already been entered.")
            % {"number": taken.number, "table": taken.table.number},
            code="deal_taken",
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
                    code=error.code,
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
            _("Deal %(number)s is not waiting for confirmation.") % {"number": deal.number},
            code="not_pending",
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
def annul_deal(*, deal: Deal, reason: str, user: User, expected_version: int | None = None) -> Deal:
    """The organiser (or referees) strike a deal: it stays on record but counts nothing.
    Given an ``expected_version``, a deal changed meanwhile is a conflict."""
    if not reason.strip():
        raise ResultError(
            _("Give a reason for annulling the deal."), field="reason", code="reason_required"
        )
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
        raise ResultError(
            _("Give a reason for restoring the deal."), field="reason", code="reason_required"
        )
    deal = _locked_deal(deal, None, check=False)
    check_round_unlocked(deal.table.round)
    if deal.status != Deal.Status.ANNULLED:
        raise ResultError(_("Only an annulled deal can be restored."), code="not_annulled")
    return _change_status(
        deal, Deal.Status.CONFIRMED, DealChange.Action.RESTORED, user=user, reason=reason
    )
