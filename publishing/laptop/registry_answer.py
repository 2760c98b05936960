"""The season server's registry answer as a laptop reads it (``fetch_registry``): fetched
(``GET /api/registry/``, with a timeout and a size limit), then checked whole before anything
is written: the format and version, every club and player row with its fields and types.
Whatever is wrong is a ``RegistryError`` with a German message naming the row; the service
writes only a ``Registry`` that passed (``publishing.laptop.services.load_registry``).

Plain dataclasses, checked by hand: the format is small, and the messages name the row and
field in German, which a schema library's messages would not.

Format ``cego-club/registry`` version 2 (``publishing.server.selectors.registry``): ``club`` (the
token's club's registry id), ``clubs`` (uuid, name, short_name, town) and ``players`` (uuid,
first_name, last_name, category, memberships with the club's uuid, a guest's club without
membership: ``guest_club``, a club's uuid, or ``guest_club_name``). Only the token's club's
own members carry ``birth_year`` and ``email`` (and ``named_for_age``, the member's consent to be
named as youngest or oldest: an addition to version 2; without it the laptop keeps what it
has), and only its own memberships
``member_number``, ``status``, ``since``, ``left_on``; where they are missing the laptop keeps
what it has. ``sanctions`` (optional; a server of an earlier release sends none, and then the
laptop keeps the copies it has): ``player`` (a registry id of the list), ``from``, ``until``
(a date or null) and ``tournaments`` (a number or null), never a reason.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from publishing.bodies import MB, BodyError, read_response_body
from publishing.laptop.client import TIMEOUT_SECONDS, PublishError, check_url

FORMAT = "cego-club/registry"
VERSION = 2
MAX_ANSWER_BYTES = 32 * MB  # some 100,000 players
# As the columns of clubs.models (tests/publishing hold them against the models).
MAX_LENGTHS = {
    "name": 120,
    "short_name": 20,
    "town": 80,
    "first_name": 60,
    "last_name": 60,
    "email": 254,
    "member_number": 20,
    "guest_club_name": 120,
}
STATUSES = ("active", "passive")
MAX_SANCTION_TOURNAMENTS = 99


class RegistryError(Exception):
    """The season server's answer is not a registry this laptop can take; nothing written."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class RegistryClub:
    uuid: uuid.UUID
    name: str
    short_name: str
    town: str


@dataclass(frozen=True)
class MemberData:
    """A membership as the club's own organisers see it."""

    member_number: str
    status: str
    since: dt.date | None
    left_on: dt.date | None


@dataclass(frozen=True)
class RegistryMembership:
    club: uuid.UUID
    own: MemberData | None  # None: another club's membership (no number, no status)


@dataclass(frozen=True)
class PersonalData:
    birth_year: int | None
    email: str
    named_for_age: bool | None = None  # None: not said (a server of an earlier release)


@dataclass(frozen=True)
class RegistryPlayer:
    uuid: uuid.UUID
    first_name: str
    last_name: str
    category: str | None
    personal: PersonalData | None  # None: not the token's club's member
    memberships: tuple[RegistryMembership, ...]
    # A guest's club without membership (``Player.guest_club``, by the club's uuid) or the
    # name as typed; ``guest_given`` False: the server said nothing of it (an older one).
    guest_club: uuid.UUID | None = None
    guest_club_name: str = ""
    guest_given: bool = False


@dataclass(frozen=True)
class RegistrySanction:
    """A ban's terms as the season server gives them (``clubs.models.Sanction``)."""

    player: uuid.UUID
    starts_on: dt.date
    ends_on: dt.date | None  # the last day, where the server knows it
    tournaments: int | None


@dataclass(frozen=True)
class Registry:
    club: uuid.UUID | None
    clubs: tuple[RegistryClub, ...]
    players: tuple[RegistryPlayer, ...]
    # None: the server sent no list (an earlier release); the laptop keeps what it has
    sanctions: tuple[RegistrySanction, ...] | None = None


def fetch(url: str, *, token: str, path: str, timeout: float = TIMEOUT_SECONDS) -> bytes:
    """GET ``url`` + ``path`` with the token: the answer's body (at most
    ``MAX_ANSWER_BYTES``). ``PublishError`` when the server is not reached or refuses (its
    message where it gave one), ``RegistryError`` when the answer is too large."""
    req = urllib.request.Request(
        check_url(url) + path,
        method="GET",
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/json",
            "Accept-Encoding": "gzip",
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:  # noqa: S310 (checked)
            return read_response_body(response, max_bytes=MAX_ANSWER_BYTES)
    except BodyError as error:
        raise RegistryError(error.message) from error
    except urllib.error.HTTPError as error:
        try:
            message = json.loads(error.read(64 * 1024)).get("error", "")
        except (ValueError, AttributeError):
            message = ""
        raise PublishError(
            str(message) or f"HTTP {error.code}",
            refused=400 <= error.code < 500,
            status=error.code,
        ) from error
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise PublishError(
            _("The season server cannot be reached: %(reason)s")
            % {"reason": getattr(error, "reason", error)}
        ) from error


def read_registry(raw: bytes, *, categories: Iterable[str]) -> Registry:
    """The answer's bytes as a ``Registry``, or ``RegistryError`` saying what is wrong."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RegistryError(
            _("The season server's answer is not JSON (%(error)s): is the address right?")
            % {"error": error}
        ) from error
    except RecursionError as error:
        raise RegistryError(_("The season server's answer is nested too deeply.")) from error
    return parse_registry(data, categories=categories)


def parse_registry(data: Any, *, categories: Iterable[str]) -> Registry:
    """``data`` (the answer's JSON) checked whole: a ``Registry`` or ``RegistryError``."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise RegistryError(_("The season server's answer is not a Cego Club registry."))
    if data.get("version") != VERSION:
        raise RegistryError(
            _(
                "Registry version %(found)s cannot be read; this laptop reads version "
                "%(version)s (update the laptop or the season server)."
            )
            % {"found": str(data.get("version"))[:20], "version": VERSION}
        )
    for key in ("clubs", "players"):
        if not isinstance(data.get(key), list):
            raise RegistryError(_("The registry has no list %(key)s.") % {"key": json.dumps(key)})
    own_club = None
    if data.get("club") is not None:
        own_club = _uuid(data["club"], _("the registry"), "club")
    clubs = tuple(_club(row, index) for index, row in enumerate(data["clubs"], 1))
    _unique([c.uuid for c in clubs], _("club"), "uuid")
    _unique([c.name for c in clubs], _("club"), "name")
    _unique([c.short_name for c in clubs], _("club"), "short_name")
    known = {c.uuid for c in clubs}
    choices = frozenset(categories)
    players = tuple(
        _player(row, index, clubs=known, categories=choices)
        for index, row in enumerate(data["players"], 1)
    )
    _unique([p.uuid for p in players], _("player"), "uuid")
    sanctions = None
    if data.get("sanctions") is not None:
        if not isinstance(data["sanctions"], list):
            raise RegistryError(
                _("The registry has no list %(key)s.") % {"key": json.dumps("sanctions")}
            )
        known_players = {p.uuid for p in players}
        sanctions = tuple(
            _sanction(row, index, players=known_players)
            for index, row in enumerate(data["sanctions"], 1)
        )
    return Registry(club=own_club, clubs=clubs, players=players, sanctions=sanctions)


# --- one row ------------------------------------------------------------------------------


def _where(kind: str, index: int, row: Any = None) -> str:
    label = f"{kind} {index}"
    if isinstance(row, Mapping):
        name = (
            row.get("short_name")
            or " ".join(str(row.get(key) or "") for key in ("first_name", "last_name")).strip()
        )
        if isinstance(name, str) and name:
            label += f" ({name[:60]})"
    return label


def _fail(where: str, problem: str) -> RegistryError:
    return RegistryError(
        _("The season server's registry is not usable: %(where)s: %(problem)s")
        % {"where": where, "problem": problem}
    )


def _object(row: Any, where: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(row, Mapping):
        raise _fail(where, _("not an object"))
    missing = [key for key in keys if key not in row]
    if missing:
        raise _fail(where, _("%(keys)s missing") % {"keys": ", ".join(missing)})
    return row


def _text(row: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str:
    value = row.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise _fail(where, _("%(key)s is not a text") % {"key": key})
    value = value.strip()
    if required and not value:
        raise _fail(where, _("%(key)s is empty") % {"key": key})
    if len(value) > MAX_LENGTHS[key]:
        raise _fail(
            where,
            _("%(key)s is longer than %(max)s characters") % {"key": key, "max": MAX_LENGTHS[key]},
        )
    return value


def _uuid(value: Any, where: str, key: str) -> uuid.UUID:
    if not isinstance(value, str):
        raise _fail(where, _("%(key)s is not a registry id") % {"key": key})
    try:
        return uuid.UUID(value)
    except ValueError:
        raise _fail(where, _("%(key)s is not a registry id") % {"key": key}) from None


def _date(row: Mapping[str, Any], key: str, where: str) -> dt.date | None:
    value = row.get(key)
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _fail(where, _("%(key)s is not a date (YYYY-MM-DD)") % {"key": key}) from None


def _unique(values: list[Any], kind: str, key: str) -> None:
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise _fail(kind, _("%(key)s %(value)s appears twice") % {"key": key, "value": value})
        seen.add(value)


def _club(row: Any, index: int) -> RegistryClub:
    where = _where(_("club"), index, row)
    row = _object(row, where, ("uuid", "name", "short_name"))
    return RegistryClub(
        uuid=_uuid(row["uuid"], where, "uuid"),
        name=_text(row, "name", where),
        short_name=_text(row, "short_name", where),
        town=_text(row, "town", where, required=False),
    )


def _membership(row: Any, where: str, *, clubs: set[uuid.UUID]) -> RegistryMembership:
    row = _object(row, where, ("club",))
    club = _uuid(row["club"], where, "club")
    if club not in clubs:
        raise _fail(where, _("its club is not in the registry's list of clubs"))
    if "member_number" not in row and "status" not in row:
        return RegistryMembership(club=club, own=None)
    status = row.get("status")
    if status not in STATUSES:
        raise _fail(where, _("status is not one of %(choices)s") % {"choices": ", ".join(STATUSES)})
    since, left_on = _date(row, "since", where), _date(row, "left_on", where)
    if since and left_on and left_on < since:
        raise _fail(where, _("left before joining"))
    return RegistryMembership(
        club=club,
        own=MemberData(
            member_number=_text(row, "member_number", where, required=False),
            status=status,
            since=since,
            left_on=left_on,
        ),
    )


def _player(
    row: Any, index: int, *, clubs: set[uuid.UUID], categories: frozenset[str]
) -> RegistryPlayer:
    where = _where(_("player"), index, row)
    row = _object(row, where, ("uuid", "first_name", "last_name", "memberships"))
    category = row.get("category")
    if category is not None and category not in categories:
        raise _fail(
            where,
            _("category is not one of %(choices)s") % {"choices": ", ".join(sorted(categories))},
        )
    personal = None
    if "birth_year" in row or "email" in row:
        year = row.get("birth_year")
        if year is not None and (
            isinstance(year, bool) or not isinstance(year, int) or not 1900 <= year <= 2100
        ):
            raise _fail(where, _("birth_year is not a year between 1900 and 2100"))
        email = _text(row, "email", where, required=False)
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise _fail(where, _("email is not an e-mail address")) from None
        consent = row.get("named_for_age")
        if consent is not None and not isinstance(consent, bool):
            raise _fail(where, _("named_for_age is not true or false"))
        personal = PersonalData(birth_year=year, email=email, named_for_age=consent)
    if not isinstance(row["memberships"], list):
        raise _fail(where, _("memberships is not a list"))
    memberships = tuple(
        _membership(m, f"{where}, {_('membership')} {number}", clubs=clubs)
        for number, m in enumerate(row["memberships"], 1)
    )
    if len({m.club for m in memberships}) < len(memberships):
        raise _fail(where, _("a club appears twice among its memberships"))
    guest_club = None
    if row.get("guest_club") is not None:
        guest_club = _uuid(row["guest_club"], where, "guest_club")
        if guest_club not in clubs:
            raise _fail(where, _("its club is not in the registry's list of clubs"))
    return RegistryPlayer(
        uuid=_uuid(row["uuid"], where, "uuid"),
        first_name=_text(row, "first_name", where, required=False),
        last_name=_text(row, "last_name", where),
        category=category,
        personal=personal,
        memberships=memberships,
        guest_club=guest_club,
        guest_club_name="" if guest_club else _text(row, "guest_club_name", where, required=False),
        guest_given="guest_club" in row or "guest_club_name" in row,
    )


def _sanction(row: Any, index: int, *, players: set[uuid.UUID]) -> RegistrySanction:
    where = f"{_('sanction')} {index}"
    row = _object(row, where, ("player", "from"))
    player = _uuid(row["player"], where, "player")
    if player not in players:
        raise _fail(where, _("its player is not in the registry's list of players"))
    starts_on = _date(row, "from", where)
    if starts_on is None:
        raise _fail(where, _("%(key)s is not a date (YYYY-MM-DD)") % {"key": "from"})
    ends_on = _date(row, "until", where)
    if ends_on is not None and ends_on < starts_on:
        raise _fail(where, _("it ends before it starts"))
    count = row.get("tournaments")
    if count is not None and (
        isinstance(count, bool)
        or not isinstance(count, int)
        or not 1 <= count <= MAX_SANCTION_TOURNAMENTS
    ):
        raise _fail(
            where,
            _("tournaments is not a number between 1 and %(max)s")
            % {"max": MAX_SANCTION_TOURNAMENTS},
        )
    if ends_on is None and count is None:
        raise _fail(where, _("it has neither an end nor a number of tournaments"))
    return RegistrySanction(player=player, starts_on=starts_on, ends_on=ends_on, tournaments=count)
