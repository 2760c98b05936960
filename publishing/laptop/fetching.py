"""The way back, on the venue laptop: a tournament set up on the season server comes to the
hall, and the registrations made there later follow while the laptop is online.

The walk: ``fetchable`` lists the token's club's tournaments the server offers
(``GET /api/publish/tournaments/``) → ``fetch_tournament`` takes one
(``POST …/<archive_id>/fetch/``, ``publishing.server.handover`` on the server): the laptop takes the
server's registry first (``services.fetch_registry``, so the players are the server's
records, by registry id), then ``take_over`` imports the archive as this laptop's own
tournament (same archive id: no second tournament on the server, no name clash; editable here
like one created here) and creates its ``Publication`` at the position the server said it
holds, so the sender's first batch is only what differs.

While the tournament has no round drawn, the sender asks every ``REGISTRATION_SECONDS`` for
registrations made on the server since (``take_registrations``): each is registered here
through ``tournaments.services.registration``, and the publication remembers the last id
taken, so a registration is taken once whatever is asked twice; they go back to the server
as entries with the next batch. A registration taken back on the server (a cancelled online
sign-up) removes the entry here while the player is only pre-registered.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Category, Club, Membership, Player
from publishing.laptop.client import PublishError, check_url, request
from publishing.laptop.position import move
from publishing.laptop.services import fetch_registry
from publishing.models import Publication
from seasons.models import Season
from tournaments.archive_format import ArchiveError, parse_archive
from tournaments.models import ArchiveItem, Entry, Round, Tournament
from tournaments.services.archive_write import import_tournament_archive
from tournaments.services.registration import register_players, unregister

logger = logging.getLogger(__name__)

LIST_PATH = "/api/publish/tournaments/"
FETCH_PATH = "/api/publish/tournaments/{archive_id}/fetch/"
REGISTRATIONS_PATH = "/api/publish/tournaments/{archive_id}/registrations/?after={after}"
# How often a running venue asks for registrations made on the server (while no round is
# drawn): a player registered there at the last minute is at the check-in desk within this.
REGISTRATION_SECONDS = 30.0


class FetchError(Exception):
    """The tournament was not fetched; ``message`` says why (German). Nothing was written
    here."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def fetchable(*, url: str, token: str) -> list[dict[str, Any]]:
    """What the season server offers this token's club to fetch; ``PublishError`` when it
    is not reached or refuses the token, ``FetchError`` for an answer not understood."""
    answer = request(check_url(url), token=token, path=LIST_PATH)
    rows = answer.get("tournaments")
    if not isinstance(rows, list) or not all(
        isinstance(row, dict) and isinstance(row.get("archive_id"), str) for row in rows
    ):
        raise FetchError(_("The season server's list of tournaments cannot be read."))
    return rows


@dataclass(frozen=True)
class Fetched:
    tournament: Tournament
    publication: Publication
    warning: str = ""  # the server's: fetched before
    entries: int = 0


def _archive_id(value: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(value).strip())
    except ValueError:
        raise FetchError(
            _("%(id)s is not a tournament id (see the list without --tournament).") % {"id": value}
        ) from None


def fetch_tournament(*, url: str, token: str, archive_id: Any) -> Fetched:
    """Fetch tournament ``archive_id`` from the season server ``url`` (see the module).
    ``PublishError`` (not reached, or refused with the server's German reason) or
    ``FetchError``; either way nothing of the tournament is written here."""
    url = check_url(url)
    key = _archive_id(archive_id)
    here = Tournament.objects.filter(archive_id=key).first()
    if here is not None:
        raise FetchError(
            _("%(name)s is on this laptop already; it is published from here.")
            % {"name": here.name}
        )
    answer = request(url, token=token, path=FETCH_PATH.format(archive_id=key), payload={})
    fetch_registry(url=url, token=token)
    return take_over(url=url, token=token, answer=answer)


def _digests(answer: dict[str, Any]) -> tuple[str, dict[str, str]]:
    state, digests = answer.get("state"), answer.get("digests")
    if (
        not isinstance(state, str)
        or not isinstance(digests, dict)
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in digests.items())
    ):
        raise FetchError(_("The season server's answer lacks its position; nothing was taken."))
    return state, digests


def _season(settings: dict[str, Any]) -> Season | None:
    """The season the tournament names, here (created with the server's dates if missing)."""
    named = settings.get("season") or None
    if not named:
        return None
    season = Season.objects.filter(name=named["name"]).first()
    if season is None:
        season = Season.objects.create(
            name=named["name"],
            starts_on=dt.date.fromisoformat(named["starts_on"]),
            ends_on=dt.date.fromisoformat(named["ends_on"]),
        )
    return season


@transaction.atomic
def take_over(*, url: str, token: str, answer: dict[str, Any]) -> Fetched:
    """Import the server's answer to a fetch as this laptop's own tournament, followed to
    ``url`` from the position the server holds. ``FetchError``: nothing written."""
    state, digests = _digests(answer)
    try:
        data = parse_archive(answer.get("archive"))  # type: ignore[arg-type]
        outcome = import_tournament_archive(
            data=data,
            season=_season(dict(data["tournament"])),
            allow_unfinished=True,
            create_clubs=True,
            actor=_("fetched from %(url)s") % {"url": url},
        )
    except (ArchiveError, ValueError, KeyError, TypeError) as error:
        message = getattr(error, "message", None) or str(error)
        raise FetchError(
            _("The tournament from the season server cannot be taken: %(problem)s")
            % {"problem": message}
        ) from error
    tournament = outcome.tournament
    # Written here from now on, like a tournament created here: no copy's marks; its
    # revision past the one the server holds (fetched again after another laptop sent
    # revisions), else the server would take this laptop's batches for older ones.
    held = answer.get("revision")
    held = held if isinstance(held, int) and held >= 0 else 0
    ArchiveItem.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).update(
        archive_revision=None,
        archive_hash="",
        revision=max(tournament.revision, held + 1),
    )
    tournament.refresh_from_db()
    publication, _created = Publication.objects.update_or_create(
        tournament=tournament,
        url=url,
        defaults={
            "token": token,
            "sent_revision": None,
            "sent_hash": state,
            "registrations_after": 0,
            "failures": 0,
            "last_error": "",
            "next_attempt_at": None,
            "refused_revision": None,
        },
    )
    # The server's digests are the position; this laptop has read nothing of its own yet.
    move(publication=publication, sent=digests, local={}, sent_hash=state, local_revision=None)
    warning = answer.get("warning")
    return Fetched(
        tournament=tournament,
        publication=publication,
        warning=warning if isinstance(warning, str) else "",
        entries=tournament.entries.count(),
    )


# Registrations made on the server after the fetch.


def _player(row: Any) -> Player:
    """The registry's player here (by registry id), else created as the server names them."""
    if not isinstance(row, dict):
        raise FetchError(_("A registration from the season server cannot be read."))
    try:
        key = uuid.UUID(str(row["uuid"]))
        first, last = str(row["first_name"])[:80], str(row["last_name"])[:80]
    except (KeyError, ValueError) as error:
        raise FetchError(_("A registration from the season server cannot be read.")) from error
    player = Player.objects.filter(uuid=key).first()
    if player is None:
        category = row.get("category")
        birth_year = row.get("birth_year")
        player = Player.objects.create(
            uuid=key,
            first_name=first,
            last_name=last,
            category=category if category in Category.values else "open",
            birth_year=birth_year if isinstance(birth_year, int) else None,
        )
    for club_row in row.get("clubs") or []:
        club = (
            Club.objects.filter(uuid=club_row.get("uuid")).first()
            if isinstance(club_row, dict) and club_row.get("uuid")
            else None
        )
        if club is not None and not Membership.objects.filter(player=player, club=club).exists():
            Membership.objects.create(player=player, club=club)
    _take_guest_club(player, row)
    return player


def _take_guest_club(player: Player, row: dict) -> None:
    """A guest's club without membership, where the laptop knows none for the player: the
    club by its registry id, else its name as the server shows it (text, like a club typed
    at sign-up), else the name as typed."""
    if player.guest_club_id or player.guest_club_name:
        return
    guest = row.get("guest_club")
    club, name = None, ""
    if isinstance(guest, dict):
        club = Club.objects.filter(uuid=_registry_uuid(guest.get("uuid"))).first()
        name = str(guest.get("short_name") or guest.get("name") or "")
    else:
        name = str(row.get("guest_club_name") or "")
    if club is not None:
        player.guest_club = club
    elif name.strip():
        player.guest_club_name = name.strip()[:120]
    else:
        return
    player.save(update_fields=["guest_club", "guest_club_name"])


def _registry_uuid(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def take_registrations(*, publication: Publication) -> int:
    """Ask the server for registrations made since the last one taken and register them
    here; nothing once a round is drawn (check-in is closed). Returns how many were new
    here. ``PublishError``/``FetchError`` leave the position where it was."""
    tournament = publication.tournament
    if (
        publication.registrations_after is None
        or Round.objects.filter(tournament=tournament).exists()
    ):
        return 0
    path = REGISTRATIONS_PATH.format(
        archive_id=tournament.archive_id, after=publication.registrations_after
    )
    answer = request(publication.url, token=publication.token, path=path)
    rows = answer.get("registrations")
    withdrawn = answer.get("withdrawn") or []
    if not isinstance(rows, list) or not isinstance(withdrawn, list):
        raise FetchError(_("The registrations from the season server cannot be read."))
    taken = _register(publication=publication, rows=rows)
    _withdraw(publication=publication, rows=withdrawn)
    return taken


def _withdraw(*, publication: Publication, rows: list[Any]) -> int:
    """Registrations taken back on the server (a cancelled online sign-up): the entry goes
    while the player is only pre-registered (not checked in, not paid, not seated); one
    who has arrived stays, the desk decides. Asked again, nothing more happens."""
    keys = set()
    for row in rows:
        try:
            keys.add(uuid.UUID(str(row["player"])))
        except (KeyError, TypeError, ValueError):
            continue
    removed = 0
    for entry in Entry.objects.filter(
        tournament_id=publication.tournament_id, player__uuid__in=keys
    ):
        try:
            unregister(entry=entry)
        except ValidationError as error:
            logger.info("withdrawal of %s kept: %s", entry, error.messages[0])
            continue
        removed += 1
    return removed


@transaction.atomic
def _register(*, publication: Publication, rows: list[Any]) -> int:
    locked = Publication.objects.select_for_update().get(pk=publication.pk)
    after = locked.registrations_after or 0
    new = [
        row
        for row in rows
        if isinstance(row, dict) and isinstance(row.get("id"), int) and row["id"] > after
    ]
    if not new:
        return 0
    if Round.objects.filter(tournament_id=locked.tournament_id).exists():
        return 0  # drawn meanwhile: check-in is closed
    players = [_player(row.get("player")) for row in new]
    result = register_players(tournament=locked.tournament, players=players)
    locked.registrations_after = max(row["id"] for row in new)
    locked.save(update_fields=["registrations_after"])
    publication.registrations_after = locked.registrations_after
    return len(result.registered)


def take_all_registrations() -> int:
    """One pass over the fetched tournaments with no round drawn (for the sender)."""
    taken = 0
    for publication in (
        Publication.objects.filter(registrations_after__isnull=False)
        .exclude(tournament_id__in=Round.objects.values("tournament_id"))
        .select_related("tournament")
    ):
        try:
            taken += take_registrations(publication=publication)
        except (PublishError, FetchError) as error:
            logger.info("registrations for %s: %s", publication, error)
    return taken
