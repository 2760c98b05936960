"""A paper result list (one total per player) into a totals-only tournament without drawn
rounds: planned like a member list (``clubs.services.imports``), then registered with totals."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.services.imports import (
    AMBIGUOUS,
    ERROR,
    MATCH,
    NEW,
    ImportBlocked,
    Outcome,
    Plan,
    check_blocked,
    plan_table,
    write_rows,
)
from clubs.tabular import Table


def _tournament_problems(tournament) -> list[str]:
    from tournaments.models import Tournament

    problems = []
    if tournament.entry_mode != Tournament.EntryMode.TOTALS:
        problems.append(
            _("Results from a paper list go into a tournament with “round totals only” entry.")
        )
    if tournament.round_set.exists():
        problems.append(_("This tournament has drawn rounds: its results come from the tables."))
    return problems


def plan_results(*, table: Table, tournament, club: Club | None = None) -> Plan:
    """What importing this paper result list (one total per player) would do."""
    plan = plan_table(table=table, default_club=club, want_total=True)
    plan.warnings = _tournament_problems(tournament) + plan.warnings
    for row in plan.rows:
        if row.status == AMBIGUOUS:
            row.status = ERROR  # a total must go to one person
    entered = {
        entry.player_id: entry
        for entry in tournament.entries.filter(
            player_id__in=[r.player.pk for r in plan.rows if r.player is not None]
        )
    }
    for row in plan.rows:
        if row.status != MATCH:
            continue
        entry = entered.get(cast(Player, row.player).pk)  # a matched row's
        if entry is not None and entry.paper_total is not None and entry.paper_total != row.total:
            row.changes.append(
                _("total %(old)s → %(new)s") % {"old": entry.paper_total, "new": row.total}
            )
        elif entry is None or entry.paper_total is None:
            row.changes.append(_("total"))
    total = sum(r.total for r in plan.rows if r.total is not None and r.status != ERROR)
    if total != 0:
        plan.warnings.append(
            _(
                "The totals add up to %(sum)s, not 0: check the list for a typing error "
                "(a voided table also leaves a difference)."
            )
            % {"sum": total}
        )
    return plan


@transaction.atomic
def apply_results(
    *,
    table: Table,
    tournament,
    club: Club | None = None,
    skip_errors: bool = False,
    user: User | None = None,
) -> Outcome:
    """Write a paper result list into a totals-only tournament without rounds: every row's
    player (created when new) is registered and gets the row's total as ``paper_total``."""
    from tournaments.models import Entry, Tournament
    from tournaments.services.registration import register_players
    from tournaments.services.revision import bump_revision

    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    problems = _tournament_problems(locked)
    if problems:
        raise ImportBlocked(" ".join(problems))
    plan = plan_results(table=table, tournament=locked, club=club)
    check_blocked(plan=plan, skip_errors=skip_errors)
    rows = [row for row in plan.rows if row.status in (NEW, MATCH)]
    players = write_rows(rows=rows)
    register_players(tournament=locked, players=players.values(), user=user)
    entries = {
        e.player_id: e
        for e in Entry.objects.select_for_update().filter(
            tournament=locked, player_id__in=[p.pk for p in players.values()]
        )
    }
    created = updated = unchanged = 0
    for row in rows:
        entry = entries[players[row.line].pk]
        if entry.paper_total == row.total:
            unchanged += 1
            continue
        if row.status == NEW:
            created += 1
        else:
            updated += 1
        entry.paper_total = row.total
        entry.checked_in = True
        entry.save(update_fields=["paper_total", "checked_in"])
    bump_revision(tournament_id=locked.pk)  # the standings show the paper totals
    return Outcome(
        created=created, updated=updated, unchanged=unchanged, skipped=len(plan.rows) - len(rows)
    )
