"""The tournament day's answers to the registry's signals (``clubs.signals``), connected in
``TournamentsConfig.ready``: renames bump the revisions of the tournaments that show them, and
a merge of two players moves the removed record's entries (with their seats, substitutions,
results and paper totals) to the kept one."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils.translation import gettext as _

from clubs.signals import club_shown_changed, player_shown_changed, players_merging
from tournaments.caching import RECENT_REVISIONS
from tournaments.models import Entry
from tournaments.services.revision import bump_revisions_showing
from tournaments.signals import revision_committed


@receiver(player_shown_changed, dispatch_uid="tournaments.player_shown_changed")
def bump_for_player(sender, *, player_id: int, **kwargs) -> None:
    """The tournaments that show this player (name, club, category) show the change at once:
    their cached pages and printouts are keyed on the revision."""
    bump_revisions_showing(player_id=player_id)


@receiver(club_shown_changed, dispatch_uid="tournaments.club_shown_changed")
def bump_for_club(sender, *, club_id: int, **kwargs) -> None:
    """The tournaments that show this club (host, a team's club, a player's club) show a
    rename at once."""
    bump_revisions_showing(club_id=club_id)


@receiver(players_merging, dispatch_uid="tournaments.players_merging")
def move_entries(sender, *, keep, remove, **kwargs) -> int:
    """Refused where both records played in the same tournament; else the entries move."""
    both = (
        Entry.objects.filter(player=remove)
        .filter(tournament__in=Entry.objects.filter(player=keep).values("tournament"))
        .select_related("tournament")
    )
    clashes = sorted({str(entry.tournament) for entry in both})
    if clashes:
        raise ValidationError(
            {
                "remove": _(
                    "Both records played in the same tournament (%(tournaments)s): they are "
                    "two people, or one result must be corrected first. Nothing was merged."
                )
                % {"tournaments": "; ".join(clashes)}
            }
        )
    return Entry.objects.filter(player=remove).update(player=keep)


@receiver(revision_committed, dispatch_uid="tournaments.forget_recent_revisions")
def forget_recent_revisions(sender, **kwargs) -> None:
    """A committed change (a service's bump, a tournament saved): the venue's front reads the
    revision again at its next request (``caching.RecentRevisions``)."""
    RECENT_REVISIONS.forget()
