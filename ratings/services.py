"""Writing the rating across seasons: one service that brings the stored ratings up to date
with the finished tournaments, in one transaction under one lock row.

It finds the earliest place in the order of rating (date, then id) where what is stored and
what the database holds part ways: a finished tournament not rated yet, one whose tables or
points changed since (a new revision with another digest), one moved to another date, one
reopened or deleted. Everything before that place stays as stored; from there on the ratings
are worked out again (``ratings.rating.Rater``), starting from each player's rating as stored
after the last tournament before it. When that place is a new tournament after every rated one
(the usual case: the newest tournament finished or arrived) this is one tournament's work, an
incremental step; an older tournament arriving replays from it. ``full=True`` replays
everything from the first season (``manage.py recompute_ratings``). Each run writes a
``RatingRun`` row: what was done, why, how long it took, and who asked (the command only).
"""

from __future__ import annotations

import time
from collections import defaultdict

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from ratings.models import PlayerRating, RatedTournament, RatingChange, RatingLock, RatingRun
from ratings.rating import METHOD, Match, Rater, Skill
from ratings.selectors import (
    Finished,
    Key,
    changes_before,
    finished_tournaments,
    matches_digest,
    players_changed_from,
    rated_tournaments,
    tournament_matches,
)


def _from_key(key: Key) -> Q:
    """Rows whose (date, tournament) is ``key`` or later."""
    date, pk = key
    return Q(date__gt=date) | Q(date=date, tournament_id__gte=pk)


def bring_up_to_date(
    *,
    reason: str,
    user: User | None = None,
    full: bool = False,
    from_key: Key | None = None,
) -> RatingRun | None:
    """Rate what is not rated as it stands now; ``None`` when everything was up to date.
    ``from_key``: replay at least from there (a tournament deleted: its rows are gone, so
    only the caller knows where it stood); ``full``: replay everything."""
    began = time.perf_counter()
    with transaction.atomic():
        RatingLock.objects.get_or_create(id=1)
        lock = RatingLock.objects.select_for_update().get(id=1)
        if lock.method != METHOD:  # stored the old way (or never): every season again
            full = True
            reason = f"{reason} (method {lock.method or '-'} → {METHOD})"
            RatingLock.objects.filter(id=1).update(method=METHOD)
        order = finished_tournaments()
        rated = rated_tournaments()
        known: dict[int, list[Match]] = {}
        start: Key | None = None
        if not full:
            marks, quiet = _marks(order, rated, known)
            if from_key is not None:
                marks.append(from_key)
            for finished in quiet:  # a new revision, the same tables and points
                RatedTournament.objects.filter(pk=finished.tournament_id).update(
                    revision=finished.revision
                )
            if not marks:
                return None
            start = min(marks)
        if start is not None and order and start <= order[0].key:
            start = None  # from the first tournament on: the whole history
        todo = [f for f in order if start is None or f.key >= start]
        missing = [f.tournament_id for f in todo if f.tournament_id not in known]
        known.update(tournament_matches(tournament_ids=missing))
        kind = _kind(start, todo, rated)
        count = _replay(start=start, todo=todo, matches=known)
        run = RatingRun.objects.create(
            kind=kind,
            reason=reason[:200],
            from_tournament_id=todo[0].tournament_id if todo else None,
            tournaments=count,
            user=user,
            seconds=0,
        )
    run.seconds = time.perf_counter() - began
    RatingRun.objects.filter(pk=run.pk).update(seconds=run.seconds)
    return run


def forget_player(*, player_id: int) -> None:
    """A record about to be merged into another: its rating rows go (they are worked out
    again from the first season once the merge commits, under the kept record). Runs in the
    merge's transaction."""
    with transaction.atomic():
        RatingChange.objects.filter(player_id=player_id).delete()
        PlayerRating.objects.filter(player_id=player_id).delete()


def _marks(
    order: list[Finished], rated: dict[int, RatedTournament], known: dict[int, list[Match]]
) -> tuple[list[Key], list[Finished]]:
    """Where the stored ratings part ways with the tournaments (each such place), and the
    tournaments whose revision moved without changing their matches."""
    marks: list[Key] = []
    wanted = {f.tournament_id: f for f in order}
    for pk, stored in rated.items():
        finished = wanted.get(pk)
        if finished is None:  # reopened (or deleted meanwhile)
            marks.append((stored.date, pk))
        elif finished.date != stored.date:  # moved: from wherever it stood first
            marks.append(min((stored.date, pk), finished.key))
    marks.extend(f.key for f in order if f.tournament_id not in rated)
    moved = [
        f
        for f in order
        if f.tournament_id in rated
        and rated[f.tournament_id].revision != f.revision
        and rated[f.tournament_id].date == f.date
    ]
    quiet = []
    if moved:
        known.update(tournament_matches(tournament_ids=[f.tournament_id for f in moved]))
        for finished in moved:
            if (
                matches_digest(matches=known[finished.tournament_id])
                != rated[finished.tournament_id].digest
            ):
                marks.append(finished.key)
            else:
                quiet.append(finished)
    return marks, quiet


def _kind(start: Key | None, todo: list[Finished], rated: dict[int, RatedTournament]) -> str:
    if start is None:
        return RatingRun.Kind.FULL
    later_rated = any((stored.date, pk) >= start for pk, stored in rated.items())
    if len(todo) == 1 and not later_rated:
        return RatingRun.Kind.INCREMENTAL
    return RatingRun.Kind.REPLAY


def _replay(*, start: Key | None, todo: list[Finished], matches: dict[int, list[Match]]) -> int:
    """Rate ``todo`` (the finished tournaments from ``start`` on) from the ratings stored
    before ``start``, and store what comes out in place of what was stored from there on."""
    new_players = {
        player
        for finished in todo
        for match in matches[finished.tournament_id]
        for player, _points in match.points
    }
    if start is None:
        affected = new_players | set(PlayerRating.objects.values_list("player_id", flat=True))
    else:
        # A deleted tournament's changes went with it: a player whose last tournament it was
        # (``last_tournament`` now empty) is found here, not among the changes from ``start``.
        orphaned = PlayerRating.objects.filter(last_tournament__isnull=True)
        affected = (
            new_players
            | players_changed_from(key=start)
            | set(orphaned.values_list("player_id", flat=True))
        )
    skills: dict[int, Skill] = {}
    counts: dict[int, int] = defaultdict(int)
    last: dict[int, tuple[int, int]] = {}  # player -> (tournament, change of the number)
    if start is not None:
        for change in changes_before(key=start, player_ids=affected):
            skills[change.player_id] = Skill(mu=change.mu_after, sigma=change.sigma_after)
            counts[change.player_id] += 1
            last[change.player_id] = (change.tournament_id, change.change)
    rater = Rater()
    changes: list[RatingChange] = []
    rated_rows: list[RatedTournament] = []
    for finished in todo:
        found = matches[finished.tournament_id]
        outcome = rater.rate_tournament(skills, tournament_id=finished.tournament_id, matches=found)
        for player, before in outcome.before.items():
            after = outcome.after[player]
            changes.append(
                RatingChange(
                    player_id=player,
                    tournament_id=finished.tournament_id,
                    date=finished.date,
                    mu_before=before.mu,
                    sigma_before=before.sigma,
                    mu_after=after.mu,
                    sigma_after=after.sigma,
                    display_before=before.display,
                    display_after=after.display,
                    matches=outcome.matches[player],
                )
            )
            counts[player] += 1
            last[player] = (finished.tournament_id, after.display - before.display)
        rated_rows.append(
            RatedTournament(
                tournament_id=finished.tournament_id,
                date=finished.date,
                revision=finished.revision,
                digest=matches_digest(matches=found),
                players=len(outcome.before),
                matches=len(found),
            )
        )
    if start is None:
        RatingChange.objects.all().delete()
        RatedTournament.objects.all().delete()
        PlayerRating.objects.all().delete()
    else:
        RatingChange.objects.filter(_from_key(start)).delete()
        gone = [f.tournament_id for f in todo]
        RatedTournament.objects.filter(_from_key(start) | Q(tournament_id__in=gone)).delete()
        PlayerRating.objects.filter(player_id__in=list(affected)).delete()
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    RatedTournament.objects.bulk_create(rated_rows, batch_size=1000)
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                player_id=player,
                mu=skills[player].mu,
                sigma=skills[player].sigma,
                display=skills[player].display,
                tournaments=counts[player],
                last_tournament_id=last[player][0],
                last_change=last[player][1],
            )
            for player in affected
            if counts[player]
        ),
        batch_size=1000,
    )
    return len(todo)
