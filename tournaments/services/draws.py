"""Drawing the seats of a round and redrawing it before it starts (a swap of two players'
drawn seats needs two officials: ``tournaments.services.fairness``).

When may a round be drawn? Round ``N`` is always the next round (the highest drawn round + 1,
at most ``tournament.rounds``), and round ``N - 1`` must exist. That is all: the organiser
decides when the hall is ready (in a Black Forest Championship the second half is drawn while
the first is being played out). Because a later round's draw avoids the opponents of all
earlier rounds, a round can be redrawn (same or new seed) or have players swapped only while
it has no deals and no substitutions **and no later round has been drawn**
(``check_changeable``).

Who is drawn: entries that are checked in and not withdrawn before the round
(``withdrawn_after_round`` empty or >= the round number). The stored seed reproduces the draw
exactly as long as those entries, the keep-apart pairs and the earlier rounds are unchanged.

Query count: a draw or redraw runs a fixed number of queries whatever the field size (tables
and seats are written with ``bulk_create``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import draw as seat_draw
from tournaments.models import (
    Deal,
    Entry,
    KeepApart,
    Round,
    RoundChange,
    Seat,
    Substitution,
    Table,
    Tournament,
    TournamentChange,
    new_short_codes,
)
from tournaments.services import changelog
from tournaments.services.revision import bump_revision


def eligible_entries(*, tournament: Tournament, round_number: int) -> QuerySet[Entry]:
    """Entries drawn in round ``round_number``: checked in and not withdrawn before it."""
    return tournament.entries.filter(checked_in=True).filter(
        Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__gte=round_number)
    )


def not_checked_in(*, tournament: Tournament, round_number: int) -> QuerySet[Entry]:
    """Registered, not withdrawn before the round, but not checked in: they will not be drawn."""
    return (
        tournament.entries.filter(checked_in=False)
        .filter(Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__gte=round_number))
        .select_related("player")
    )


def keep_apart_pairs(*, tournament: Tournament) -> list[frozenset[int]]:
    """The pairs the draw must not seat together: the organiser's keep-apart pairs and, unless
    the tournament turned it off, every two members of one team."""
    pairs = {
        frozenset(pair)
        for pair in KeepApart.objects.filter(tournament=tournament).values_list("first", "second")
    }
    if tournament.keep_teams_apart:
        teams: dict[int, list[int]] = defaultdict(list)
        for entry_id, team_id in Entry.objects.filter(
            tournament=tournament, team__isnull=False
        ).values_list("pk", "team_id"):
            teams[team_id].append(entry_id)
        for members in teams.values():
            pairs.update(frozenset(p) for p in _pairs(sorted(members)))
    return sorted(pairs, key=sorted)


def earlier_tables(*, tournament: Tournament, before: int) -> list[list[int]]:
    """The entry ids at each table of rounds 1 .. before-1 (drawn players and substitutes)."""
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in Seat.objects.filter(
        round__tournament=tournament, round__number__lt=before
    ).values_list("table_id", "entry_id"):
        tables[table_id].append(entry_id)
    for table_id, entry_id in Substitution.objects.filter(
        seat__round__tournament=tournament, seat__round__number__lt=before
    ).values_list("seat__table_id", "entry_id"):
        if entry_id not in tables[table_id]:
            tables[table_id].append(entry_id)
    return list(tables.values())


def _compute(*, tournament: Tournament, number: int, seed: int) -> seat_draw.Draw:
    rows = list(
        eligible_entries(tournament=tournament, round_number=number).values_list(
            "pk", "stays_at_table"
        )
    )
    players = [pk for pk, _stays in rows]
    if not players:
        raise ValidationError(_("Nobody is checked in for round %(number)s.") % {"number": number})
    try:
        sizes = seat_draw.plan_table_sizes(
            players=len(players),
            allowed_sizes=tournament.allowed_table_sizes,
            preferred_size=tournament.preferred_table_size,
        )
    except seat_draw.DrawError as error:
        allowed = ", ".join(str(s) for s in sorted(tournament.allowed_table_sizes))
        raise ValidationError(
            ngettext(
                "%(count)s player cannot be seated at tables of %(sizes)s.",
                "%(count)s players cannot be seated at tables of %(sizes)s.",
                len(players),
            )
            % {"count": len(players), "sizes": allowed}
        ) from error
    staying = staying_tables(
        tournament=tournament, number=number, entry_ids=[pk for pk, stays in rows if stays]
    )
    if len(staying) > len(sizes):
        raise ValidationError(
            ngettext(
                "%(count)s players stay at their table (“stays at the table”), but round "
                "%(number)s has only %(tables)s table. Untick “stays at the table” for "
                "%(over)s of them at the check-in before drawing.",
                "%(count)s players stay at their table (“stays at the table”), but round "
                "%(number)s has only %(tables)s tables. Untick “stays at the table” for "
                "%(over)s of them at the check-in before drawing.",
                len(sizes),
            )
            % {
                "count": len(staying),
                "number": number,
                "tables": len(sizes),
                "over": len(staying) - len(sizes),
            }
        )
    return seat_draw.draw_round(
        players=players,
        table_sizes=sizes,
        seed=seed,
        previous_opponents=[
            frozenset(t) for t in earlier_tables(tournament=tournament, before=number)
        ],
        keep_apart=keep_apart_pairs(tournament=tournament),
        fixed_tables=staying,
    )


def staying_tables(
    *, tournament: Tournament, number: int, entry_ids: list[int]
) -> dict[int, int | None]:
    """The players of round ``number`` who stay at one table all day ("bleibt am Tisch",
    ``entry_ids``), each with the table index (0-based) they sat at in their latest earlier
    round, or None (not seated yet: the draw gives them a table). One query, none if nobody
    stays."""
    staying: dict[int, int | None] = dict.fromkeys(entry_ids)
    if not staying:
        return staying
    latest: dict[int, int] = {}
    for entry_id, round_number, table_number in Seat.objects.filter(
        round__tournament=tournament, round__number__lt=number, entry_id__in=list(staying)
    ).values_list("entry_id", "round__number", "table__number"):
        if round_number >= latest.get(entry_id, 0):
            latest[entry_id] = round_number
            staying[entry_id] = table_number - 1
    return staying


def _store(*, round_: Round, tables: seat_draw.Tables) -> None:
    codes = new_short_codes(len(tables))  # one query, not one per table
    created = Table.objects.bulk_create(
        [Table(round=round_, number=t + 1, short_code=codes[t]) for t in range(len(tables))]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, round=round_, position=s, entry_id=entry_id)
            for table, seated in zip(created, tables, strict=True)
            for s, entry_id in enumerate(seated)
        ]
    )


@transaction.atomic
def draw_next_round(
    *,
    tournament: Tournament,
    number: int,
    seed: int | None = None,
    user: User | None = None,
    while_previous_open: bool = False,
) -> Round:
    """Draw round ``number``, which must be the next round; ``seed`` defaults to a new one.

    The previous round must be closed unless the organiser says to draw while it is still
    being played (``while_previous_open``, e.g. a championship's second half drawn early).
    Creates the Round (with the seed), its Tables and Seats. Raises ValidationError."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.finished_at is not None:
        raise ValidationError(_("The tournament is finished; its results are locked."))
    # one query: the highest round drawn so far and its state
    drawn, previous = tournament.round_set.order_by("-number").values_list(
        "number", "state"
    ).first() or (0, None)
    if (
        previous not in (None, Round.State.CLOSED)
        and not while_previous_open
        and number == drawn + 1
    ):
        raise ValidationError(
            _(
                "Round %(number)s is still being played. Close it first, or confirm that the "
                "next round is drawn while it is played."
            )
            % {"number": drawn}
        )
    if number != drawn + 1:
        raise ValidationError(
            _("The next round to draw is round %(number)s.") % {"number": drawn + 1}
        )
    if number > tournament.rounds:
        raise ValidationError(
            _("This tournament has %(rounds)s rounds.") % {"rounds": tournament.rounds}
        )
    seed = seat_draw.new_seed() if seed is None else seed
    result = _compute(tournament=tournament, number=number, seed=seed)
    # Under review (Tournament.review_draws) the seats stay with the organisers until released.
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        draw_seed=seed,
        awaiting_release=tournament.review_draws,
    )
    _store(round_=round_, tables=result.tables)
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.ROUND_DRAWN,
        user=user,
        subject=_("Round %(number)s") % {"number": number},
        after={"seed": seed, "tables": len(result.tables)},
    )
    bump_revision(tournament_id=tournament.pk)
    return round_


def _delete_seating(round_: Round) -> None:
    """Delete a round's seats and tables in two statements whatever the field size.

    ``QuerySet.delete()`` would collect the ids first and delete them in batches of 100; the
    caller has checked (under the round lock) that no deal or substitution refers to them, and
    the database's foreign keys still refuse the delete if one slipped in."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model in (Seat, Table):
            table, column = model._meta.db_table, model._meta.get_field("round").column
            cursor.execute(
                f"DELETE FROM {quote(table)} WHERE {quote(column)} = %s",
                [round_.pk],
            )


def _locked_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)


def check_changeable(round_: Round) -> None:
    """Raise ValidationError unless the round's seating may still change (see module doc)."""
    if round_.state != Round.State.DRAWN or Deal.objects.filter(table__round=round_).exists():
        raise ValidationError(
            _("Round %(number)s has started; its seats can no longer be changed.")
            % {"number": round_.number}
        )
    if Substitution.objects.filter(seat__round=round_).exists():
        raise ValidationError(
            _("Round %(number)s has substitutions; its seats can no longer be changed.")
            % {"number": round_.number}
        )
    if Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number).exists():
        raise ValidationError(
            _("Round %(number)s is drawn already; redraw or change the later round first.")
            % {"number": round_.number + 1}
        )


@transaction.atomic
def redraw_round(
    *,
    round: Round,  # noqa: A002 - the model's name
    same_seed: bool,
    user: User | None = None,
) -> Round:
    """Draw a round again: with its stored seed (reproduces the draw if nothing changed since),
    or with a new seed. Only while the round has no deals (see :func:`check_changeable`).
    The tables are created anew (with new entry tokens)."""
    round_ = _locked_round(round)
    check_changeable(round_)
    before = round_.draw_seed
    seed = round_.draw_seed if same_seed else seat_draw.new_seed()
    result = _compute(tournament=round_.tournament, number=round_.number, seed=seed)
    _delete_seating(round_)
    round_.draw_seed = seed
    # A new seating under review is checked again before the players see it.
    if round_.tournament.review_draws and not round_.awaiting_release:
        round_.awaiting_release, round_.released_at, round_.released_by = True, None, None
    round_.save(update_fields=["draw_seed", "awaiting_release", "released_at", "released_by"])
    _store(round_=round_, tables=result.tables)
    changelog.record(
        tournament_id=round_.tournament_id,
        action=TournamentChange.Action.ROUND_REDRAWN,
        user=user,
        subject=_("Round %(number)s") % {"number": round_.number},
        before={"seed": before},
        after={"seed": seed, "tables": len(result.tables)},
    )
    bump_revision(tournament_id=round_.tournament_id)
    return round_


@transaction.atomic
def release_draw(*, round: Round, user: User | None) -> Round:  # noqa: A002
    """Show a round's draw to the players (phones, the players' pages, the projector): it was
    held back for the organisers to check (``Tournament.review_draws``). Recorded in the
    round's history with who released it and when."""
    round_ = _locked_round(round)
    if not round_.awaiting_release:
        raise ValidationError(
            _("The draw of round %(number)s has already been released.") % {"number": round_.number}
        )
    round_.awaiting_release = False
    round_.released_at = timezone.now()
    round_.released_by = user if user is not None and user.is_authenticated else None
    round_.save(update_fields=["awaiting_release", "released_at", "released_by"])
    RoundChange.objects.create(
        round=round_, action=RoundChange.Action.RELEASED, changed_by=round_.released_by
    )
    bump_revision(tournament_id=round_.tournament_id)
    return round_


@dataclass
class DrawReport:
    """What the draw page shows about a round's seating."""

    tables: list[list[Seat]]
    repeat_pairs: int
    keep_apart_violations: int
    repeats: list[tuple[Entry, Entry, int]] = field(default_factory=list)  # (a, b, table no.)
    violations: list[tuple[Entry, Entry, int]] = field(default_factory=list)


def seating_report(*, round: Round) -> DrawReport:  # noqa: A002
    """The round's tables (seats with entry and player loaded) and the warnings of
    ``tournaments.draw.evaluate_tables``: repeat meetings and keep-apart pairs seated together."""
    seats = (
        Seat.objects.filter(round=round)
        .select_related("table", "entry__player")
        .order_by("table__number", "position")
    )
    by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        by_table[seat.table.number].append(seat)
    tables = [by_table[n] for n in sorted(by_table)]
    id_tables = [[seat.entry_id for seat in table] for table in tables]
    previous = [
        frozenset(t) for t in earlier_tables(tournament=round.tournament, before=round.number)
    ]
    apart = keep_apart_pairs(tournament=round.tournament)
    repeat_count, violation_count = seat_draw.evaluate_tables(
        tables=id_tables, previous_opponents=previous, keep_apart=apart
    )
    met = {frozenset(p) for t in previous for p in _pairs(t)}
    apart_set = set(apart)
    report = DrawReport(
        tables=tables, repeat_pairs=repeat_count, keep_apart_violations=violation_count
    )
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                pair = frozenset((a.entry_id, b.entry_id))
                if pair in met:
                    report.repeats.append((a.entry, b.entry, a.table.number))
                if pair in apart_set:
                    report.violations.append((a.entry, b.entry, a.table.number))
    return report


def _pairs(group):
    members = sorted(group)
    return [(a, b) for i, a in enumerate(members) for b in members[i + 1 :]]
