"""On the laptop: when the season server holds what this laptop lacks, take it back before
publishing on top; where both changed the same item differently, keep both and let the desk
choose.

The walk: the sender's batch is refused with ``lost_track`` or ``fork`` and the server's
item digests → ``merge`` plans it (``merge_plan.plan_merge``: the laptop's acknowledged
position is the common ancestor) → asks the server for the items to take and those in
conflict (``POST /api/publish/take/<archive_id>/``, which also records that this laptop copy
has now seen the server's state) → writes the taken items into this laptop's own
tournament (``archive_write.take_items``: deals with their history, corrections,
annulments, tables, rounds, entries) → keeps each conflict's server version in a
``PublishConflict`` → moves the position to the server's state. The next batch then
publishes only the laptop's own changes on top, each open conflict held at the server's
version and named in the batch, so the server shows that table as provisional.

``settle`` is the desk's choice for one conflict: this laptop's version (published with the
next batch) or the server's (written here); either way logged with who chose.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from publishing.laptop.client import PublishError, request
from publishing.laptop.merge_plan import MergePlan, plan_merge, settle_by_history
from publishing.laptop.outbox import ensure_epoch
from publishing.laptop.position import known_digests, move
from publishing.models import Publication, PublishConflict
from tournaments.archive_format import ArchiveError, item_digests, kind_of
from tournaments.models import Tournament, TournamentChange
from tournaments.selectors.archive import tournament_items
from tournaments.services import changelog
from tournaments.services.archive_write import take_items
from tournaments.services.revision import bump_revision

TAKE_PATH = "/api/publish/take/{archive_id}/"


class MergeError(Exception):
    """The merge could not be finished (the server's answer unreadable, its state moved, the
    items inconsistent); nothing was written here. ``message`` in German."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _server_digests(answer: dict[str, Any]) -> tuple[str, dict[str, str]]:
    state = answer.get("state") or ""
    digests = answer.get("digests") if state else {}
    if not isinstance(digests, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in digests.items()
    ):
        raise MergeError(_("The season server's answer cannot be read (its item digests)."))
    return state, digests


def merge(*, publication: Publication, answer: dict[str, Any]) -> MergePlan:
    """Merge the server's state (``answer``: its state, item digests and whether it knows
    this laptop's position) into this laptop's tournament; the position then is the server's
    state. Returns what was taken and what waits for the desk; ``MergeError`` or
    ``PublishError`` (nothing written here) when it could not be done now."""
    state, server = _server_digests(answer)
    if not state:
        # The server holds nothing: nothing to take; the next batch is a snapshot.
        move(publication=publication, sent={}, sent_hash="")
        return MergePlan()
    tournament = Tournament.objects.get(pk=publication.tournament_id)
    own = tournament_items(tournament=tournament)
    laptop = item_digests(own)
    ancestor = known_digests(publication=publication)
    # Open conflicts, with the server's version they hold: asked again where it moved since.
    already = dict(
        PublishConflict.objects.filter(
            publication=publication, settled_at__isnull=True
        ).values_list("key", "server_digest")
    )
    plan = plan_merge(
        ancestor=ancestor,
        laptop=laptop,
        server=server,
        server_knows_ancestor=bool(answer.get("knows_base")) and bool(publication.sent_hash),
    )
    wanted = [*plan.take, *(key for key in plan.conflicts if already.get(key) != server[key])]
    try:
        taken = request(
            publication.url,
            token=publication.token,
            path=TAKE_PATH.format(archive_id=tournament.archive_id),
            payload={
                "epoch": ensure_epoch(publication=publication),
                "state": state,
                "keys": wanted,
            },
        )
    except PublishError as error:
        if error.status == 404 and not error.code:
            raise MergeError(
                _(
                    "The season server is of an older version that cannot give back what "
                    "this laptop lacks; nothing was sent. Ask its administrators to update it."
                )
            ) from error
        raise
    items = taken.get("items")
    if taken.get("state") != state or not isinstance(items, dict):
        raise MergeError(_("The season server's answer cannot be read (the items taken back)."))
    missing = [key for key in wanted if key not in items]
    if missing:
        raise MergeError(
            _("The season server did not send %(keys)s; nothing was taken back.")
            % {"keys": ", ".join(missing[:5])}
        )
    # Where one version's history continues the other's, the newer is known, not guessed.
    plan = settle_by_history(plan, laptop=own, server=items)
    _write_merge(
        publication=publication,
        tournament=tournament,
        plan=plan,
        items=items,
        server=server,
        laptop=laptop,
        state=state,
        already=already,
    )
    return plan


@transaction.atomic
def _write_merge(
    *,
    publication: Publication,
    tournament: Tournament,
    plan: MergePlan,
    items: dict[str, Any],
    server: dict[str, str],
    laptop: dict[str, str],
    state: str,
    already: dict[str, str],
) -> None:
    taken = {key: items[key] for key in plan.take}
    if taken:
        try:
            take_items(tournament=tournament, items=taken, actor=_("season server"))
        except ArchiveError as error:
            raise MergeError(error.message) from error
    for key in plan.conflicts:
        if key in already:
            # The server's version may have moved since: the desk chooses between the newest.
            newest = {"server_item": items[key]} if key in items else {}
            PublishConflict.objects.filter(
                publication=publication, key=key, settled_at__isnull=True
            ).update(server_digest=server[key], laptop_digest=laptop.get(key, ""), **newest)
            continue
        PublishConflict.objects.create(
            publication=publication,
            key=key,
            server_digest=server[key],
            server_item=items.get(key),
            laptop_digest=laptop.get(key, ""),
        )
    counts: dict[str, int] = {}
    for key in plan.take:
        counts[kind_of(key)] = counts.get(kind_of(key), 0) + 1
    summary = {"items": counts, "conflicts": len(plan.conflicts)}
    moved: dict[str, Any] = {"sent_hash": state, "sent_revision": None}
    if not plan.empty:
        moved |= {"taken_back_at": timezone.now(), "taken_back": summary}
    elif (publication.taken_back or {}).get("restored"):
        moved |= {"taken_back": {}}  # restored, and the server held nothing it lacked
    move(publication=publication, sent=server, **moved)
    if plan.conflicts:
        changelog.record(
            tournament_id=tournament.pk,
            action=TournamentChange.Action.ARCHIVE_REPLACED,
            subject=_(
                "%(count)s items entered differently here and on the season server: the desk "
                "chooses (%(keys)s)"
            )
            % {"count": len(plan.conflicts), "keys": ", ".join(plan.conflicts[:10])},
            actor=_("season server"),
        )


@transaction.atomic
def settle(*, conflict: PublishConflict, choice: str, user: User | None) -> PublishConflict:
    """The desk's choice for one conflict: ``laptop`` (this laptop's version is published
    with the next batch) or ``server`` (the server's is written here). Logged with who chose;
    a conflict settled already is left as it is (``ValueError``)."""
    locked = PublishConflict.objects.select_for_update().get(pk=conflict.pk)
    if locked.settled_at is not None:
        raise ValueError(_("This conflict was settled already."))
    if choice not in PublishConflict.Choice.values:
        raise ValueError(_("Choose this laptop's version or the season server's."))
    tournament = Tournament.objects.get(pk=locked.publication.tournament_id)
    if choice == PublishConflict.Choice.SERVER and locked.server_item is not None:
        try:
            take_items(
                tournament=tournament, items={locked.key: locked.server_item}, actor="", user=user
            )
        except ArchiveError as error:
            raise ValueError(error.message) from error
    locked.settled_at, locked.settled_by, locked.choice = timezone.now(), user, choice
    locked.save(update_fields=["settled_at", "settled_by", "choice"])
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.ARCHIVE_REPLACED,
        subject=_("%(item)s: %(choice)s chosen")
        % {"item": locked.key, "choice": locked.get_choice_display()},
        user=user,
    )
    bump_revision(tournament_id=tournament.pk)  # the sender publishes the choice
    return locked


__all__ = ["MergeError", "PublishError", "merge", "settle"]
