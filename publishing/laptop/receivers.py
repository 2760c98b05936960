"""What publishing does when the venue server starts, and when a tournament changes."""

from __future__ import annotations

from django.dispatch import receiver
from django.utils.translation import gettext as _

from publishing.laptop import sender as outbox_sender
from publishing.laptop.client import check_url
from publishing.laptop.position import forget
from publishing.laptop.selectors import sync_states
from publishing.models import Publication
from tournaments.signals import revision_committed
from venue.signals import database_restored, serving_started


@receiver(serving_started, dispatch_uid="publishing.start_sender")
def start_sender(sender, *, publish_to=None, publish_token=None, **kwargs) -> list[str]:
    """Always: a tournament's page may name a season server later (its own publication).
    Returns, for the console, where each publication stands."""
    if publish_to and publish_token:
        outbox_sender.start(url=check_url(publish_to), token=publish_token)
    else:
        outbox_sender.start(url=None, token="")
    return start_lines()


def start_lines() -> list[str]:
    lines = []
    for state in sync_states():
        publication = state.publication
        lines.append(
            _("Season server %(url)s, “%(tournament)s”: %(state)s")
            % {
                "url": publication.url,
                "tournament": publication.tournament.name,
                "state": state.text,
            }
        )
        if publication.epoch is None and (publication.taken_back or {}).get("restored"):
            lines.append(
                "    "
                + _(
                    "These data come from a backup: before publishing, this laptop takes back "
                    "from the season server what only it holds (deals entered after the "
                    "backup), and then publishes its own changes. Nothing on the season server "
                    "is deleted."
                )
            )
        if state.taken_back:
            lines.append(f"    {state.taken_back}")
        if state.conflicts:
            lines.append(
                "    "
                + _(
                    "%(count)s entered differently here and there: choose on the page “Season server”."
                )
                % {"count": state.conflicts}
            )
    return lines


@receiver(database_restored, dispatch_uid="publishing.restored")
def forget_epochs(sender, **kwargs) -> list[str]:
    """A restored laptop is a new copy: its publications start a new epoch, so that the
    season server lets it delete nothing it has not seen, and it takes back first."""
    # Every publication reads its tournament whole again (its last read may be another
    # copy's); those the server acknowledged start a new epoch.
    Publication.objects.update(local_revision=None)
    forget()
    restored = Publication.objects.exclude(sent_hash="")
    count = restored.update(epoch=None, sent_revision=None, taken_back={"restored": True})
    if not count:
        return []
    return [
        _(
            "%(count)s tournaments of this backup were published to a season server. At the "
            "next start with --publish-to this laptop first takes back what only the season "
            "server holds (deals entered after the backup, corrections, annulments) and shows "
            "it on the page “Season server”; what was entered differently on both sides waits "
            "there for your choice. Nothing on the season server is deleted."
        )
        % {"count": count}
    ]


@receiver(revision_committed, dispatch_uid="publishing.wake_sender")
def wake_sender(sender, **kwargs) -> None:
    outbox_sender.wake()
