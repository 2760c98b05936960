"""Writing an archive or a batch of changes here, item by item (step 3 of 3: parse → plan →
write).

``apply_items`` writes only the rows of the items it is given (``archive_rows``: upserts by
natural key, deletes in reverse order of dependence; applying the same items twice changes
nothing). The digest of every item is kept (``ArchiveItem``), the tournament's
``archive_revision`` and ``archive_hash`` (the state digest) set, its revision bumped once
and one log row written saying what changed (``archive_log``). All in the caller's transaction, with the tournament row locked.

``import_tournament_archive`` (uploads, the command line, the publishing endpoint) and
``apply_batch`` (a batch of changes) are plan-then-apply in one transaction.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.services.imports import CREATE, NO_CLUB, ClubChoice
from seasons.models import Season
from tournaments.archive_format import ArchiveError, Batch, state_digest, validate_item
from tournaments.caching import revisions_moved
from tournaments.models import ArchiveItem, Tournament
from tournaments.selectors.archive import tournament_items
from tournaments.services.archive_diff import NEW_TOURNAMENT, UNCHANGED, Held
from tournaments.services.archive_log import log_applied, log_taken_back, plan_notes
from tournaments.services.archive_plan import (
    ArchivePlan,
    plan_archive,
    plan_batch,
    plan_take_back,
    refuse_unless_applicable,
)
from tournaments.services.archive_rows import keep_digests, write_items
from tournaments.signals import copy_changed

logger = logging.getLogger(__name__)


class ArchiveWriteClash(ArchiveError):
    """The database refused a row as a duplicate while writing: the archive's own
    contradiction, or a concurrent writer's row (then trying again once it has committed
    succeeds). Nothing was written."""


@dataclass(frozen=True)
class ImportOutcome:
    tournament: Tournament
    created: bool  # False: this content had been imported before
    replaced: bool = False  # a newer revision changed the copy here
    players_created: int = 0
    deals: int = 0  # deals scored again
    changes: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # by kind
    state: str = ""  # the state digest here now
    notes: tuple[str, ...] = ()  # what the organiser should know (no season, clubs left out)


def tournament_state(*, tournament: Tournament) -> str:
    """The state digest of the items this server holds of ``tournament`` (1 query)."""
    return state_digest(
        dict(ArchiveItem.objects.filter(tournament=tournament).values_list("key", "digest"))
    )


def _apply(
    *,
    plan: ArchivePlan,
    upserts: Mapping[str, Mapping[str, Any]],
    deletes: list[str],
    actor: str,
    user,
    copy: bool = True,
) -> ImportOutcome:
    """``copy`` False: the tournament is this computer's own (items taken back from the
    season server): no archive digests or revision kept, the log says taken back."""
    old_revision = plan.existing.archive_revision if plan.existing is not None else None
    tournament, players_created = write_items(
        plan=plan, upserts=upserts, deletes=deletes, user=user
    )
    if copy:
        keep_digests(tournament=tournament, plan=plan, upserts=upserts, deletes=deletes)
        Tournament.objects.filter(pk=tournament.pk).update(
            archive_revision=plan.revision,
            archive_hash=plan.content_hash,
            revision=F("revision") + 1,
        )
    else:
        Tournament.objects.filter(pk=tournament.pk).update(revision=F("revision") + 1)
    revisions_moved()
    tournament.refresh_from_db()
    if plan.existing is not None:  # a new copy was saved: post_save told the receivers
        copy_changed.send(sender=Tournament, tournament=tournament)
    changes = plan.changes
    if copy:
        log_applied(
            tournament=tournament,
            plan=plan,
            changes=changes,
            old_revision=old_revision,
            user=user,
            actor=actor,
        )
    else:
        log_taken_back(tournament=tournament, plan=plan, changes=changes, user=user, actor=actor)
    return ImportOutcome(
        tournament=tournament,
        created=plan.existing is None,
        replaced=plan.existing is not None,
        players_created=players_created,
        deals=plan.deals,
        changes=changes,
        state=plan.content_hash,
        notes=plan_notes(plan),
    )


@transaction.atomic
def apply_items(
    *,
    plan: ArchivePlan,
    upserts: Mapping[str, Mapping[str, Any]],
    deletes: Iterable[str],
    actor: str,
    user: AbstractBaseUser | None = None,
    locked: bool = False,
) -> ImportOutcome:
    """Write the items of a plan (``archive_plan``): ``upserts`` and ``deletes`` are the
    plan's diff (or a part of it). Raises ArchiveError, writing nothing. ``locked``: the
    caller holds the copy's row lock already."""
    if plan.existing is not None and not locked:
        Tournament.objects.select_for_update().filter(pk=plan.existing.pk).first()
    try:
        return _apply(plan=plan, upserts=upserts, deletes=list(deletes), actor=actor, user=user)
    except KeyError as error:
        raise ArchiveError(
            _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
            % {"key": error.args[0] if error.args else "?"}
        ) from error
    except IntegrityError as error:
        # Either the archive contradicts itself or a concurrent writer got there first (two
        # imports creating the same new player): the caller may try again once the other
        # has committed (``publishing.server.inbox`` does); the database's words stay in the log.
        logger.info("archive write clash: %s", error)
        raise ArchiveWriteClash(
            _(
                "The archive clashes with what is stored here (the same player or item twice) "
                "and was not imported."
            )
        ) from error
    except (TypeError, ValueError) as error:
        raise ArchiveError(
            _("The archive is inconsistent and was not imported: %(error)s") % {"error": error}
        ) from error


@transaction.atomic
def take_items(
    *,
    tournament: Tournament,
    items: Mapping[str, Mapping[str, Any]],
    actor: str,
    user: AbstractBaseUser | None = None,
) -> ImportOutcome:
    """On the laptop: write ``items`` taken back from the season server (what only it held,
    or held in the version chosen at the desk) into this laptop's own ``tournament``,
    checked as any archive (deals scored again by this laptop's rules, players matched by
    registry id or name; clubs unknown here: the player without a club). Nothing is
    deleted. Raises ArchiveError, writing nothing."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    tournament.refresh_from_db()
    own = tournament_items(tournament=tournament)
    for key, item in items.items():
        validate_item(key, item)
    plan = plan_take_back(tournament=tournament, own=own, items=items)
    if plan.unknown_clubs:
        plan = plan_take_back(
            tournament=tournament,
            own=own,
            items=items,
            club_choices={unknown.key: ClubChoice(NO_CLUB) for unknown in plan.unknown_clubs},
        )
    if plan.club_errors:
        raise ArchiveError(" ".join(plan.club_errors))
    try:
        return _apply(
            plan=plan, upserts=plan.upserts, deletes=[], actor=actor, user=user, copy=False
        )
    except KeyError as error:
        raise ArchiveError(
            _("The items refer to %(key)s, which this laptop does not hold; nothing was taken.")
            % {"key": error.args[0] if error.args else "?"}
        ) from error
    except (TypeError, ValueError, IntegrityError) as error:
        raise ArchiveError(
            _("The items taken back are inconsistent; nothing was taken: %(error)s")
            % {"error": error}
        ) from error


def _lock(archive_id: Any) -> None:
    """Lock the copy's row (if there is one) before planning: one writer at a time."""
    try:
        key = uuid.UUID(str(archive_id))
    except ValueError:
        return
    Tournament.objects.select_for_update().filter(archive_id=key).first()


def _with_created_clubs(plan_again, plan: ArchivePlan, club_choices) -> ArchivePlan:
    choices = dict(club_choices or {})
    for unknown in plan.unknown_clubs:
        choices.setdefault(unknown.key, ClubChoice(CREATE, short_name=unknown.short_name))
    return plan_again(choices)


@transaction.atomic
def import_tournament_archive(
    *,
    data: Mapping[str, Any],
    user: AbstractBaseUser | None = None,
    season: Season | None = None,
    allow_unfinished: bool = True,
    club_choices: Mapping[str, ClubChoice] | None = None,
    player_choices: Mapping[str, Any] | None = None,
    create_clubs: bool = False,
    actor: str = "",
    own_club_ids: frozenset[int] | None = None,
) -> ImportOutcome:
    """Import a parsed archive (``archive_format.parse_archive``); raises ArchiveError,
    writing nothing.

    A new tournament is created (in ``season`` if given); a newer revision of one imported
    before changes only the items that differ, with an entry in its log saying what changed;
    the same content again changes nothing; an older revision is refused. ``allow_unfinished``
    False refuses a tournament that is not finished. Unknown clubs need a choice
    (``club_choices``, or ``create_clubs`` to create them as the archive names them);
    uncertain players take ``player_choices`` (key -> a player's pk or ``NEW_PLAYER``), else
    the preview's offer.
    """
    if isinstance(data, Mapping) and "archive_id" in data:
        _lock(data["archive_id"])

    def plan_with(choices) -> ArchivePlan:
        return plan_archive(
            data=data,
            season=season,
            club_choices=choices,
            player_choices=player_choices,
            user=user,
            own_club_ids=own_club_ids,
        )

    plan = plan_with(club_choices)
    if plan.action == UNCHANGED:
        return ImportOutcome(tournament=plan.existing, created=False, state=plan.content_hash)  # type: ignore[arg-type]
    refuse_unless_applicable(plan, allow_unfinished=allow_unfinished)
    if create_clubs and plan.unknown_clubs:
        plan = _with_created_clubs(plan_with, plan, club_choices)
    if plan.club_errors:
        raise ArchiveError(" ".join(plan.club_errors))
    return apply_items(
        plan=plan, upserts=plan.upserts, deletes=plan.deletes, actor=actor, user=user
    )


@transaction.atomic
def apply_batch(
    *,
    batch: Batch,
    actor: str,
    user: AbstractBaseUser | None = None,
    club_choices: Mapping[str, ClubChoice] | None = None,
    own_club_ids: frozenset[int] | None = None,
    unknown_clubs_without_club: bool = False,
    held: Held | None = None,
) -> ImportOutcome:
    """Apply a batch of changes (``archive_format.parse_batch``): plan, refuse what cannot
    be applied (ArchiveError: older, stale, another state than the batch names …), write.
    The same batch twice changes nothing (``created`` and ``replaced`` False).
    ``unknown_clubs_without_club``: clubs this server does not know are left out (their
    players enter without a club), as for a published archive. ``held``: the copy, locked
    and read by the caller in this transaction (``archive_diff.Held``)."""
    if held is None:
        _lock(batch.archive_id)

    def plan_with(choices) -> ArchivePlan:
        return plan_batch(
            batch=batch, club_choices=choices, user=user, own_club_ids=own_club_ids, held=held
        )

    plan = plan_with(club_choices)
    if plan.action == UNCHANGED:
        return ImportOutcome(tournament=plan.existing, created=False, state=plan.content_hash)  # type: ignore[arg-type]
    refuse_unless_applicable(plan)
    if unknown_clubs_without_club and plan.unknown_clubs:
        choices = dict(club_choices or {})
        for unknown in plan.unknown_clubs:
            choices.setdefault(unknown.key, ClubChoice(NO_CLUB))
        plan = plan_with(choices)
    if plan.club_errors:
        raise ArchiveError(" ".join(plan.club_errors))
    return apply_items(
        plan=plan,
        upserts=plan.upserts,
        deletes=plan.deletes,
        actor=actor,
        user=user,
        locked=held is not None,
    )


__all__ = [
    "NEW_TOURNAMENT",
    "ArchiveError",
    "ArchiveWriteClash",
    "ImportOutcome",
    "apply_batch",
    "apply_items",
    "import_tournament_archive",
    "take_items",
    "tournament_state",
]
