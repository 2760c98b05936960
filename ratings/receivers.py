"""The rating area's answers to the tournament day and the registry: a tournament that
finishes or arrives (an archive imported, a published batch applied), changes after finishing,
is reopened or deleted, and two players merged, bring the ratings up to date
(``ratings.services.bring_up_to_date``) once the change has committed. Nobody who reads a page
pays for it.

``RATINGS_AHEAD`` (setting), as ``SEASON_RESULTS_AHEAD``: ``"thread"`` (default: in a
background thread, one at a time), ``"inline"`` (right after the commit, in the same thread: the
commands and the benches) or ``"off"`` (nothing: ``manage.py recompute_ratings`` does it; the
tests, whose transaction a thread could not see).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_migrate, post_save
from django.dispatch import receiver

from clubs.models import Player
from clubs.signals import players_merging
from ratings.models import PlayerRating, RatedTournament
from ratings.services import bring_up_to_date, forget_player
from tournaments.models import Tournament
from tournaments.signals import copy_changed

logger = logging.getLogger(__name__)
_one_at_a_time = threading.Lock()


def _run(job: Callable[[], object]) -> None:
    try:
        with _one_at_a_time:
            job()
    except Exception:  # ahead of time only: the next tournament or the command catches up
        logger.exception("Bringing the ratings up to date failed")


def _after_commit(job: Callable[[], object]) -> None:
    mode = getattr(settings, "RATINGS_AHEAD", "thread")
    if mode == "inline":
        transaction.on_commit(lambda: _run(job))
    elif mode == "thread":

        def in_thread() -> None:
            try:
                _run(job)
            finally:
                connection.close()  # this thread's own database connection

        transaction.on_commit(
            lambda: threading.Thread(target=in_thread, name="ratings", daemon=True).start()
        )


@receiver(post_save, sender=Tournament, dispatch_uid="ratings.tournament_saved")
def tournament_saved(sender, instance: Tournament, **kwargs) -> None:
    """A finished tournament saved (finishing it, its date changed; a new copy arriving writes
    its deals in the same transaction), or a rated one saved unfinished (reopened)."""
    if getattr(settings, "RATINGS_AHEAD", "thread") == "off":
        return
    if instance.finished_at is None and not (
        RatedTournament.objects.filter(pk=instance.pk).exists()
    ):
        return  # in play: the hall publishes it deal by deal, nothing to rate yet
    reason = f"tournament {instance.pk} {'finished' if instance.finished_at else 'reopened'}"
    _after_commit(lambda: bring_up_to_date(reason=reason))


@receiver(copy_changed, sender=Tournament, dispatch_uid="ratings.copy_changed")
def copy_changed_in_place(sender, tournament: Tournament, **kwargs) -> None:
    """A copy published deal by deal that now arrives finished, changes after finishing, or
    is reopened: as a save."""
    tournament_saved(sender, instance=tournament)


@receiver(post_delete, sender=Tournament, dispatch_uid="ratings.tournament_deleted")
def tournament_deleted(sender, instance: Tournament, **kwargs) -> None:
    """Its rating rows went with it: replay from where it stood."""
    if instance.finished_at is None:
        return
    key = (instance.date, instance.pk)
    _after_commit(lambda: bring_up_to_date(reason=f"tournament {key[1]} deleted", from_key=key))


@receiver(players_merging, sender=Player, dispatch_uid="ratings.players_merging")
def players_merged(sender, keep: Player, remove: Player, **kwargs) -> int:
    """Two records of one person: the removed record's rating rows go now (the merge would
    refuse two ratings for one player), and one history is worked out from the first season
    on once the merge commits. Moves no entry."""
    forget_player(player_id=remove.pk)
    # Worded now: the removed record has no primary key any more once the merge commits.
    reason = f"players {remove} ({remove.pk}) → {keep} ({keep.pk}) merged"
    _after_commit(lambda: bring_up_to_date(reason=reason, full=True))
    return 0


@receiver(post_migrate, dispatch_uid="ratings.after_migrate")
def after_migrate(sender, app_config=None, using: str = "default", **kwargs) -> None:
    """``migrate`` (an upgrade, or the venue's start) brings the ratings up to date before
    anyone reads them: a tournament finished while ratings were off or failed, or ratings
    stored by an older method (``RatingLock.method``: then every season is replayed). Only
    from the migrate command (``plan`` given; a test's flush sends no plan), once (for this
    app), and only where there is something to rate."""
    if app_config is None or app_config.name != "ratings" or "plan" not in kwargs:
        return
    if getattr(settings, "RATINGS_AHEAD", "thread") == "off":
        return
    if not (
        Tournament.objects.using(using).filter(finished_at__isnull=False).exists()
        or PlayerRating.objects.using(using).exists()
    ):
        return
    run = bring_up_to_date(reason="migrate")
    stdout = kwargs.get("stdout")
    if run is not None and stdout is not None and kwargs.get("verbosity", 1):
        stdout.write(
            f"Wertungszahlen: {run.tournaments} Turniere gewertet "
            f"({run.get_kind_display()}) in {run.seconds:.1f} s."
        )
