"""The change log of an archive written here (part of the write: ``archive_write``): one
row saying what changed, and the notes the organiser must see (never dropped silently)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clubs.services.imports import NO_CLUB
from tournaments.archive_format import kind_of
from tournaments.models import Tournament, TournamentChange
from tournaments.services import changelog
from tournaments.services.archive_plan import ArchivePlan, change_words


def plan_notes(plan: ArchivePlan) -> tuple[str, ...]:
    """What the organiser should know of an applied plan, never dropped silently: the season
    it could not join, the clubs this server does not know whose players came without one,
    the clubs the importer does not run whose new players came without a membership."""
    notes = [plan.season_note] if plan.season_note else []
    for unknown in plan.unknown_clubs:
        if unknown.choice is not None and unknown.choice.action == NO_CLUB:
            notes.append(
                _(
                    "The club “%(club)s” is unknown on this server: its players (%(count)s) "
                    "were taken without a club; create or map the club here and publish again."
                )
                % {"club": unknown.name, "count": unknown.lines}
            )
    for name, count in plan.without_membership:
        notes.append(
            _(
                "The club “%(club)s” is not run by whoever imported: its new players "
                "(%(count)s) were taken without a club membership; its organisers may add them."
            )
            % {"club": name, "count": count}
        )
    return tuple(notes)


def _last_notes(tournament: Tournament) -> list[str]:
    """The notes of the last apply (its log row keeps them with what changed)."""
    rows = (
        TournamentChange.objects.filter(
            tournament=tournament,
            action__in=(
                TournamentChange.Action.ARCHIVE_IMPORTED,
                TournamentChange.Action.ARCHIVE_REPLACED,
            ),
        )
        .order_by("-pk")
        .values_list("after", flat=True)[:50]
    )
    for after in rows:
        if isinstance(after, dict) and "items" in after:
            return list(after.get("notes") or [])
    return []


def log_applied(
    *, tournament: Tournament, plan: ArchivePlan, changes, old_revision, user, actor: str
) -> None:
    who = {"user": user, "actor": actor}
    notes = plan_notes(plan)
    deals = changes.get("deal", {})
    ids = {
        "added": sorted(
            k[5:] for k in plan.upserts if kind_of(k) == "deal" and k not in plan.stored
        ),
        "changed": sorted(k[5:] for k in plan.upserts if kind_of(k) == "deal" and k in plan.stored),
        "removed": sorted(k[5:] for k in plan.deletes if kind_of(k) == "deal"),
    }
    after = {"revision": plan.revision, "content_hash": plan.content_hash, "items": changes}
    if notes:
        after["notes"] = list(notes)
    action = (
        TournamentChange.Action.ARCHIVE_IMPORTED
        if plan.existing is None
        else TournamentChange.Action.ARCHIVE_REPLACED
    )
    # Each note its own line of the log, where the organiser looks: when the tournament
    # arrives, and again only when what causes notes (settings, players, clubs) was written
    # and the notes differ from the last apply's.
    causes = plan.existing is None or any(
        kind_of(key) in ("tournament", "entry", "team", "club") for key in plan.upserts
    )
    if notes and causes and list(notes) != _last_notes(tournament):
        for note in notes:
            changelog.record(tournament_id=tournament.pk, action=action, subject=note, **who)
    if plan.existing is None:
        changelog.record(
            tournament_id=tournament.pk,
            action=TournamentChange.Action.ARCHIVE_IMPORTED,
            subject=_("revision %(revision)s") % {"revision": plan.revision},
            after=after,
            **who,
        )
        return
    others = change_words(changes, kinds=[k for k in changes if k != "deal"])
    subject = _(
        "revision %(old)s → %(new)s: %(added)s deals added, %(changed)s changed, "
        "%(removed)s removed"
    ) % {
        "old": old_revision,
        "new": plan.revision,
        "added": deals.get("new", 0),
        "changed": deals.get("changed", 0),
        "removed": deals.get("removed", 0),
    }
    subject = f"{subject}; {others}" if others else subject
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.ARCHIVE_REPLACED,
        subject=subject,
        before={"revision": old_revision},
        after={**after, **ids},
        **who,
    )


def log_taken_back(*, tournament: Tournament, plan: ArchivePlan, changes, user, actor) -> None:
    deals = changes.get("deal", {})
    others = change_words(changes, kinds=[k for k in changes if k != "deal"])
    subject = _("taken back from the season server: %(added)s deals added, %(changed)s changed") % {
        "added": deals.get("new", 0),
        "changed": deals.get("changed", 0),
    }
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.ARCHIVE_REPLACED,
        subject=f"{subject}; {others}" if others else subject,
        after={"items": changes, "keys": sorted(plan.upserts)},
        user=user,
        actor=actor,
    )
