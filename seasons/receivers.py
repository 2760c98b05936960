"""The season area's answers to the tournament day: a tournament that finishes or arrives
(an archive imported, a published batch applied) has its results for the seasons worked out
and stored then (``seasons.selectors.results``), once its transaction has committed, so that
no reader of a player page or a season page pays for everybody.

``SEASON_RESULTS_AHEAD`` (setting): ``"thread"`` (default: in a background thread, off the
request that finished or imported the tournament), ``"inline"`` (right after the commit, in
the same thread: the commands and the benches) or ``"off"`` (the first reader works them
out, as before; the tests, whose transaction a thread could not see).
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connection, transaction
from django.db.models.signals import post_migrate, post_save
from django.dispatch import receiver

from seasons.selectors.results import fresh_results, store_results
from tournaments.models import Tournament
from tournaments.signals import copy_changed

logger = logging.getLogger(__name__)
_one_at_a_time = threading.Lock()  # a batch of archives: one tournament after the other


def _store(tournament_id: int) -> None:
    try:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is not None:
            store_results(tournament=tournament)
    except Exception:  # ahead of time only: the first reader works them out instead
        logger.exception("Storing the results of tournament %s failed", tournament_id)


def _store_in_thread(tournament_id: int) -> None:
    def run() -> None:
        try:
            with _one_at_a_time:
                _store(tournament_id)
        finally:
            connection.close()  # this thread's own database connection

    threading.Thread(target=run, name="season-results", daemon=True).start()


@receiver(post_save, sender=Tournament, dispatch_uid="seasons.tournament_settled")
def tournament_settled(sender, instance: Tournament, **kwargs) -> None:
    """A finished tournament saved (finishing it, or its copy arriving or changing: an archive
    import or a published batch writes its deals in the same transaction): its results once it
    commits. A tournament still in play is left alone: the hall publishes it deal by deal, and
    working out its season results after every deal would be work nobody reads."""
    if instance.finished_at is None:
        return
    mode = getattr(settings, "SEASON_RESULTS_AHEAD", "thread")
    if mode == "inline":
        transaction.on_commit(lambda: _store(instance.pk))
    elif mode == "thread":
        transaction.on_commit(lambda: _store_in_thread(instance.pk))


@receiver(copy_changed, sender=Tournament, dispatch_uid="seasons.copy_changed")
def copy_changed_in_place(sender, tournament: Tournament, **kwargs) -> None:
    """A copy published deal by deal arriving finished (or changing after): as a save."""
    tournament_settled(sender, instance=tournament)


@receiver(post_migrate, dispatch_uid="seasons.after_migrate")
def after_migrate(sender, app_config=None, using: str = "default", **kwargs) -> None:
    """``migrate`` (an upgrade, or the venue's start): every finished tournament's results
    stored by this version's method (``RESULTS_METHOD``), so that after an upgrade no page
    shows figures of the old way and no first reader pays for them. Only from the migrate
    command (``plan`` given), once (for this app)."""
    if app_config is None or app_config.name != "seasons" or "plan" not in kwargs:
        return
    if getattr(settings, "SEASON_RESULTS_AHEAD", "thread") == "off":
        return
    worked_out = fresh_results(
        tournaments=Tournament.objects.using(using).filter(finished_at__isnull=False)
    )
    stdout = kwargs.get("stdout")
    if worked_out and stdout is not None and kwargs.get("verbosity", 1):
        stdout.write(
            f"Saisonergebnisse neu berechnet: {worked_out} "
            f"{'Turnier' if worked_out == 1 else 'Turniere'}."
        )
