"""Importing member lists and paper results: a preview first, then one transaction.

``plan_players`` / ``plan_results`` read nothing but the database and return one
:class:`PlanRow` per line of the file; ``apply_players`` / ``apply_results`` write a plan
(planned again inside the transaction, so that the preview's decisions hold for the rows as
they are then). Importing the same file twice finds every row as a match and writes nothing.

Club names: a line's club is found by its name or short name, then by a remembered spelling
(``ClubAlias``); any other name is an *unknown club*, listed once in the plan with the
likeliest existing club. The importer's :class:`ClubChoice` per unknown name (map to a club,
create it, no club) is checked again when applied and remembered as an alias.

Scope: a member-list import by an organiser matches, completes and links only players who
are members of a club the organiser runs, or of no club (those are every organiser's, as on
their pages). A line naming a player of another club becomes a new player of the line's club:
the other club's record is never touched (two clubs may well have a "Hans Müller" each; if
they are one person, a superuser merges them). Such a line without a club of the importer's
is an error: a second record without a club would serve nobody.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, cast

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import Category, Club, ClubAlias, Membership, Player
from clubs.permissions import is_superuser, manageable_clubs
from clubs.search import (
    CLUB_WORDS,
    club_key,
    club_similarity,
    normalise,
    player_key,
    similar_keys,
)
from clubs.services.players import place_named_guests
from clubs.tabular import Table

NEW, MATCH, AMBIGUOUS, ERROR = "new", "match", "ambiguous", "error"
STATUSES = (NEW, MATCH, AMBIGUOUS, ERROR)

CATEGORY_WORDS = {
    "": Category.OPEN,
    "offen": Category.OPEN,
    "open": Category.OPEN,
    "herren": Category.OPEN,
    "h": Category.OPEN,
    "m": Category.OPEN,
    "damen": Category.WOMAN,
    "dame": Category.WOMAN,
    "frau": Category.WOMAN,
    "frauen": Category.WOMAN,
    "d": Category.WOMAN,
    "w": Category.WOMAN,
    "woman": Category.WOMAN,
    "women": Category.WOMAN,
    "jugend": Category.YOUTH,
    "junioren": Category.YOUTH,
    "j": Category.YOUTH,
    "youth": Category.YOUTH,
    "senioren": Category.SENIOR,
    "senior": Category.SENIOR,
    "seniors": Category.SENIOR,
    "s": Category.SENIOR,
}
# The consent to be named as youngest or oldest: an empty cell says nothing (a new player
# has not agreed; a known one keeps what the record says).
CONSENT_WORDS = {
    "ja": True,
    "j": True,
    "x": True,
    "1": True,
    "yes": True,
    "y": True,
    "true": True,
    "wahr": True,
    "nein": False,
    "n": False,
    "0": False,
    "no": False,
    "false": False,
    "falsch": False,
}

STATUS_WORDS = {
    "": Membership.Status.ACTIVE,
    "aktiv": Membership.Status.ACTIVE,
    "active": Membership.Status.ACTIVE,
    "a": Membership.Status.ACTIVE,
    "passiv": Membership.Status.PASSIVE,
    "passive": Membership.Status.PASSIVE,
    "p": Membership.Status.PASSIVE,
}


# What to do with a club name the registry does not know.
MAP, CREATE, NO_CLUB = "map", "create", "none"
SUGGEST_FROM = 0.75  # club_similarity: town words alike (see tests/clubs/test_club_names.py)
SHORT_NAME_LENGTH = 20  # Club.short_name's max_length
# How "Cegofreunde …" is abbreviated by clubs themselves: CF Bräunlingen, CC Triberg.
_PREFIXES = {"cegofreunde": "CF", "cegoclub": "CC", "cegoklub": "CC", "cegorunde": "CR"}
_FILLERS = {"e", "v", "ev", "der", "die", "das", "des", "und", "von", "in", "im"}


@dataclass(frozen=True)
class ClubChoice:
    """The importer's answer for one unknown club name."""

    action: str  # MAP, CREATE or NO_CLUB
    club_id: int | None = None  # MAP: the existing club
    short_name: str = ""  # CREATE: the new club's short name


@dataclass
class UnknownClub:
    """A club name of the file that matches no club: once per name, however many lines."""

    name: str  # as the file first spells it
    key: str
    lines: int = 0
    suggestion: Club | None = None  # the likeliest existing club
    suggestion_usable: bool = False  # the importer runs it (may map to it)
    short_name: str = ""  # proposed for CREATE
    town: str = ""  # a created club's town: the name's town words
    choice: ClubChoice | None = None  # as chosen (None: not chosen, its lines are errors)
    error: str = ""  # why the choice cannot be applied

    @property
    def default(self) -> ClubChoice:
        """What the preview offers first: the suggested club if the importer runs it; no club
        if the likely club is someone else's (so no second one is created by accident);
        otherwise a new club."""
        if self.suggestion is not None:
            if self.suggestion_usable:
                return ClubChoice(MAP, club_id=self.suggestion.pk)
            return ClubChoice(NO_CLUB)
        return ClubChoice(CREATE, short_name=self.short_name)


@dataclass
class PlanRow:
    line: int
    status: str
    first_name: str = ""
    last_name: str = ""
    club: Club | None = None
    member_number: str = ""
    birth_year: int | None = None
    category: str = Category.OPEN
    email: str = ""
    named_for_age: bool | None = None  # None: the cell was empty
    since: dt.date | None = None
    membership_status: str = Membership.Status.ACTIVE
    total: int | None = None
    player: Player | None = None
    candidates: list[Player] = field(default_factory=list)
    similar: list[Player] = field(default_factory=list)  # a new player's near-miss spellings
    messages: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)  # what a match would fill in
    club_key: str = ""  # the unknown club name this line's club came from

    @property
    def name(self) -> str:
        return f"{self.last_name}, {self.first_name}".strip(", ")


@dataclass
class Plan:
    rows: list[PlanRow]
    columns: tuple[str, ...]
    unknown_columns: tuple[str, ...]
    warnings: list[str] = field(default_factory=list)
    unknown_clubs: list[UnknownClub] = field(default_factory=list)

    @property
    def club_errors(self) -> list[str]:
        return [unknown.error for unknown in self.unknown_clubs if unknown.error]

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows if row.status == status)

    @property
    def has_errors(self) -> bool:
        return any(row.status == ERROR for row in self.rows)


class ImportBlocked(ValidationError):
    """Rows have errors and the organiser did not choose to skip them: nothing written."""


def _town_and_prefix(name: str) -> tuple[str, str]:
    """The town words of a club's name as written, and the initials of the rest:
    "Cego-Club Bräunlingen e.V." → ("Bräunlingen", "CC")."""
    town, prefix = [], []
    for word in re.split(r"[\s\-/]+", name.strip()):
        keys = club_key(word).split()
        if not keys:
            continue
        if any(key not in CLUB_WORDS for key in keys):
            town.append(word)
        elif keys[0] not in _FILLERS:
            prefix.append(_PREFIXES.get(keys[0], keys[0][:1].upper()))
    return " ".join(town), "".join(prefix)


def propose_short_name(*, name: str, taken: set[str]) -> str:
    """A short name for a club created from a list, in the clubs' own style ("CC
    Bräunlingen"), not ``taken`` (club keys of the short names and names in use)."""
    town, prefix = _town_and_prefix(name)
    base = (f"{prefix} {town}".strip() or name.strip())[:SHORT_NAME_LENGTH].strip()
    candidate, number = base, 1
    while club_key(candidate) in taken:
        number += 1
        suffix = f" {number}"
        candidate = base[: SHORT_NAME_LENGTH - len(suffix)].strip() + suffix
    return candidate


class ClubNames:
    """Finds a line's club: its name or short name, then a remembered spelling, then the
    importer's choice for that unknown name. Collects the unknown names (with the likeliest
    club) and says where a line names a club the importer does not run."""

    def __init__(
        self,
        *,
        allowed_ids: frozenset[int] | None,
        choices: dict[str, ClubChoice] | None = None,
    ) -> None:
        self.clubs = list(Club.objects.all())
        self.by_id = {club.pk: club for club in self.clubs}
        self.by_key: dict[str, Club] = {}
        self.spellings: dict[int, list[str]] = {club.pk: [club.name] for club in self.clubs}
        for club in self.clubs:
            self.by_key.setdefault(club_key(club.short_name), club)
            self.by_key.setdefault(club_key(club.name), club)
        for alias in ClubAlias.objects.all():
            aliased = self.by_id.get(alias.club_id)
            if aliased is not None:
                self.by_key.setdefault(alias.key, aliased)
                self.spellings[aliased.pk].append(alias.alias)
        self.allowed_ids = allowed_ids  # None: every club (superuser, command line)
        self.choices = choices or {}
        self.unknown: dict[str, UnknownClub] = {}
        self.new_short_keys: set[str] = set()  # short names chosen for new clubs
        self.proposed_keys: set[str] = set()  # and proposed: two new clubs never share one

    def may_use(self, club: Club) -> bool:
        return self.allowed_ids is None or club.pk in self.allowed_ids

    def default(self, club: Club | None, row: PlanRow) -> Club | None:
        """The club chosen for lines without one (the views check it too)."""
        if club is not None and not self.may_use(club):
            row.messages.append(
                _("“%(text)s” is the club %(club)s, which you do not run")
                % {"text": club.short_name, "club": club.name}
            )
        return club

    def resolve(self, text: str, row: PlanRow) -> Club | None:
        key = club_key(text)
        club = self.by_key.get(key)
        if club is not None:
            if not self.may_use(club):
                row.messages.append(
                    _("“%(text)s” is the club %(club)s, which you do not run")
                    % {"text": text, "club": club.name}
                )
            return club
        unknown = self.unknown.get(key)
        if unknown is None:
            unknown = self.unknown[key] = self._unknown(text, key)
        unknown.lines += 1
        row.club_key = key
        choice = unknown.choice
        if choice is None or unknown.error:
            row.messages.append(_("unknown club “%(club)s”") % {"club": text})
            return None
        if choice.action == MAP:
            return self.by_id[cast(int, choice.club_id)]  # a mapping names its club
        if choice.action == CREATE:
            # Not saved in a preview: the rows show it by name; apply creates it first.
            return Club(name=unknown.name, short_name=choice.short_name, town=unknown.town)
        return None

    def _unknown(self, text: str, key: str) -> UnknownClub:
        unknown = UnknownClub(name=text, key=key)
        best, score = None, 0.0
        for club in self.clubs:
            for spelling in (*self.spellings[club.pk], club.short_name):
                alike = club_similarity(text, spelling)
                if alike > score:
                    best, score = club, alike
        if best is not None and score >= SUGGEST_FROM:
            unknown.suggestion, unknown.suggestion_usable = best, self.may_use(best)
        taken = set(self.by_key) | self.new_short_keys
        unknown.short_name = propose_short_name(name=text, taken=taken | self.proposed_keys)
        self.proposed_keys.add(club_key(unknown.short_name))
        unknown.town = (_town_and_prefix(text)[0] or text.strip())[:80]
        choice = self.choices.get(key)
        if choice is not None:
            unknown.choice = choice
            unknown.error = self._check_choice(unknown, choice, taken)
            if choice.action == CREATE and not unknown.error:
                self.new_short_keys.add(club_key(choice.short_name))
        return unknown

    def _check_choice(self, unknown: UnknownClub, choice: ClubChoice, taken: set[str]) -> str:
        """Why ``choice`` cannot be applied ("" if it can): checked in every preview and
        again when the import is confirmed."""
        if choice.action == MAP:
            club = self.by_id.get(choice.club_id or 0)
            if club is not None and not self.may_use(club):
                # Mapping would give the club members (and remember the spelling as its):
                # only its organisers may do that.
                return _(
                    "You do not run the club “%(club)s”: “%(name)s” cannot be mapped to it "
                    "(only its organisers may give it members); choose one of your clubs, a new "
                    "club or no club."
                ) % {"club": club.name, "name": unknown.name}
            if club is None:
                return _("“%(name)s”: choose one of your clubs, a new club or no club.") % {
                    "name": unknown.name
                }
            return ""
        if choice.action == CREATE:
            short = choice.short_name.strip()
            if len(unknown.name) > 120:
                return _("“%(name)s” is too long for a club's name (120 characters).") % {
                    "name": unknown.name[:40] + "…"
                }
            if not short or len(short) > SHORT_NAME_LENGTH:
                return _("“%(name)s”: the new club's short name needs 1 to %(max)s characters.") % {
                    "name": unknown.name,
                    "max": SHORT_NAME_LENGTH,
                }
            if club_key(short) in taken:
                return _("“%(name)s”: the short name “%(short)s” is taken.") % {
                    "name": unknown.name,
                    "short": short,
                }
            return ""
        if choice.action == NO_CLUB:
            return ""
        return _("“%(name)s”: choose what to do with this club.") % {"name": unknown.name}


def _field_word(field: str) -> str:
    """A column's name as the organiser reads it."""
    words = {
        "last_name": _("last name"),
        "first_name": _("first name"),
        "club": _("club"),
        "category": _("category"),
        "member_number": _("member number"),
        "birth_year": _("birth year"),
        "named_for_age": _("named as youngest/oldest"),
        "email": _("e-mail"),
        "since": _("joined"),
        "status": _("status"),
        "total": _("total"),
    }
    return str(words.get(field, field))


def _parse_row(
    line: int, values: dict[str, str], clubs: ClubNames, default_club: Club | None
) -> PlanRow:
    row = PlanRow(
        line=line,
        status=NEW,
        first_name=values.get("first_name", "").strip(),
        last_name=values.get("last_name", "").strip(),
        member_number=values.get("member_number", "").strip(),
        email=values.get("email", "").strip(),
    )
    errors = row.messages
    # A control character (a NUL from a broken export, say) is in no name: PostgreSQL refuses
    # to store one, so the line is an error here rather than a crash when it is written.
    for column, text in values.items():
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
            errors.append(
                _("the column “%(column)s” holds a control character (a broken export?)")
                % {"column": _field_word(column)}
            )
    if not row.last_name:
        errors.append(_("the last name is missing"))
    if not row.first_name:
        errors.append(_("the first name is missing"))
    club_text = values.get("club", "").strip()
    if club_text:
        row.club = clubs.resolve(club_text, row)
        if row.club is None and not errors:
            row.member_number = ""  # "no club" chosen: the number was the other club's
    else:
        row.club = clubs.default(default_club, row)
    if row.member_number and row.club is None:
        errors.append(_("a member number needs a club"))
    year = values.get("birth_year", "").strip()
    if year:
        if year.isdigit() and 1900 <= int(year) <= 2100:
            row.birth_year = int(year)
        else:
            errors.append(_("“%(value)s” is not a birth year") % {"value": year})
    category = normalise(values.get("category", ""))
    if category in CATEGORY_WORDS:
        row.category = CATEGORY_WORDS[category]
    else:
        errors.append(
            _("unknown category “%(value)s” (Damen, Jugend, Senioren or empty)")
            % {"value": values.get("category", "")}
        )
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            errors.append(_("“%(value)s” is not an e-mail address") % {"value": row.email})
    consent = normalise(values.get("named_for_age", ""))
    if consent in CONSENT_WORDS:
        row.named_for_age = CONSENT_WORDS[consent]
    elif consent:
        errors.append(
            _("“%(value)s” in “%(column)s” is neither ja nor nein")
            % {"value": values["named_for_age"], "column": _field_word("named_for_age")}
        )
    status = normalise(values.get("status", ""))
    if status in STATUS_WORDS:
        row.membership_status = STATUS_WORDS[status]
    else:
        errors.append(_("unknown status “%(value)s” (aktiv or passiv)") % {"value": status})
    since = values.get("since", "").strip()
    if since:
        for pattern in ("%Y-%m-%d", "%d.%m.%Y", "%d.%m.%y", "%Y"):
            try:
                row.since = dt.datetime.strptime(since[:10], pattern).date()
                break
            except ValueError:
                continue
        else:
            errors.append(_("“%(value)s” is not a date") % {"value": since})
    if "total" in values:
        text = values["total"].replace(" ", "").replace("+", "")
        try:
            row.total = int(text)
        except ValueError:
            errors.append(_("“%(value)s” is not a whole number of points") % {"value": text})
    if errors:
        row.status = ERROR
    return row


def _match(row: PlanRow, by_number: dict, by_key: dict) -> None:
    """Member number at the club first, else the name (spelling-tolerant), narrowed to the
    club where several people share the name."""
    if row.club is not None and row.member_number:
        player = by_number.get((row.club.pk, row.member_number))
        if player is not None:
            if player_key(row.first_name, row.last_name) != player.search_key:
                row.status = ERROR
                row.messages.append(
                    _("member number %(number)s belongs to %(name)s")
                    % {"number": row.member_number, "name": player}
                )
                return
            row.status, row.player = MATCH, player
            return
    same = by_key.get(player_key(row.first_name, row.last_name), [])
    if row.club is not None and len(same) > 1:
        in_club = [p for p in same if any(m.club_id == row.club.pk for m in p.memberships.all())]
        same = in_club or same
    if len(same) == 1:
        row.status, row.player = MATCH, same[0]
    elif len(same) > 1:
        row.status, row.candidates = AMBIGUOUS, same
        row.messages.append(
            _("%(count)s players have this name: give a member number or merge them first")
            % {"count": len(same)}
        )


def _changes(row: PlanRow) -> list[str]:
    player = cast(Player, row.player)  # asked of matched rows only
    changes = []
    if row.birth_year and player.birth_year is None:
        changes.append(_("birth year"))
    if row.email and not player.email:
        changes.append(_("e-mail"))
    # The one value a list may change, not only fill in: a member's consent, given or
    # withdrawn (a "nein" must be heard); the preview names it before anything is written.
    if row.named_for_age is not None and row.named_for_age != player.named_for_age:
        changes.append(
            _("may be named as youngest or oldest")
            if row.named_for_age
            else _("no longer named as youngest or oldest")
        )
    if row.club is not None:
        membership = next((m for m in player.memberships.all() if m.club_id == row.club.pk), None)
        if membership is None:
            changes.append(_("membership in %(club)s") % {"club": row.club.short_name})
        elif row.member_number and not membership.member_number:
            changes.append(_("member number"))
    return changes


def _offer_similar(rows: list[PlanRow], allowed: frozenset[int] | None) -> None:
    """A new player whose name is a near miss of one in the registry ("Brigite Baumer" beside
    "Brigitte Baumer") is said so in the preview: the importer checks the spelling. Only the
    players the importer may touch are compared. Three queries whatever the number of rows."""
    if not rows:
        return
    players = Player.objects.all()
    if allowed is not None:
        players = players.filter(Q(memberships__club_id__in=allowed) | Q(memberships__isnull=True))
    pks, choices = [], []
    for pk, search_key in players.values_list("pk", "search_key").distinct():
        pks.append(pk)
        choices.append(search_key.strip())
    hits: dict[int, list[int]] = {}
    for row in rows:
        key = player_key(row.first_name, row.last_name).strip()
        found = [
            pks[index]
            for index, _score in similar_keys(key, choices, limit=3)
            if choices[index] != key
        ]
        if found:
            hits[row.line] = found
    if not hits:
        return
    known = Player.objects.prefetch_related("memberships__club").in_bulk(
        [pk for found in hits.values() for pk in found]
    )
    for row in rows:
        if row.line not in hits:
            continue
        row.similar = [known[pk] for pk in hits[row.line]]
        names = ", ".join(
            f"{p.full_name}" + "".join(f" ({m.club.short_name})" for m in p.memberships.all())
            for p in row.similar
        )
        row.messages.append(
            _(
                "a similar name is in the registry: %(names)s. Check the spelling; as it "
                "stands, a new player is created"
            )
            % {"names": names}
        )


def _allowed_club_ids(user: Any, created_ids: frozenset[int]) -> frozenset[int] | None:
    """The clubs an import by ``user`` may name and whose players it may touch; None: all
    (a superuser, or no user: the command line and the results import)."""
    if user is None or is_superuser(user):
        return None
    return frozenset(manageable_clubs(user).values_list("pk", flat=True)) | created_ids


def _club_identity(row: PlanRow) -> object:
    if row.club is None:
        return None
    return row.club.pk if row.club.pk is not None else ("new", row.club_key)


def plan_table(
    *,
    table: Table,
    default_club: Club | None,
    want_total: bool,
    user: Any = None,
    club_choices: dict[str, ClubChoice] | None = None,
    created_ids: frozenset[int] = frozenset(),
) -> Plan:
    allowed = _allowed_club_ids(user, created_ids)
    clubs = ClubNames(allowed_ids=allowed, choices=club_choices)
    rows = [_parse_row(line, values, clubs, default_club) for line, values in table.rows]
    keys = {player_key(r.first_name, r.last_name) for r in rows if r.status != ERROR}
    numbers = {r.member_number for r in rows if r.member_number}
    players = list(
        Player.objects.filter(search_key__in=keys).prefetch_related("memberships")
        | Player.objects.filter(memberships__member_number__in=numbers).prefetch_related(
            "memberships"
        )
    )
    by_key: dict[str, list[Player]] = {}
    by_number: dict[tuple[int, str], Player] = {}
    elsewhere: set[str] = set()  # names of players the importer may not touch
    for player in {p.pk: p for p in players}.values():
        if allowed is not None:
            club_ids = {m.club_id for m in player.memberships.all()}
            if club_ids and not club_ids & allowed:
                elsewhere.add(player.search_key)
                continue
        by_key.setdefault(player.search_key, []).append(player)
        for membership in player.memberships.all():
            if membership.member_number:
                by_number[(membership.club_id, membership.member_number)] = player
    seen: dict[tuple, int] = {}
    for row in rows:
        if want_total and row.status != ERROR and row.total is None:
            row.status = ERROR
            row.messages.append(_("the total is missing"))
        if row.status == ERROR:
            continue
        identity = (player_key(row.first_name, row.last_name), _club_identity(row))
        if identity in seen:
            row.status = ERROR
            row.messages.append(_("the same person as in line %(line)s") % {"line": seen[identity]})
            continue
        seen[identity] = row.line
        if row.member_number and row.club is not None:
            number_key = ("number", row.club.pk, row.member_number)
            if number_key in seen:
                row.status = ERROR
                row.messages.append(
                    _("member number %(number)s is in line %(line)s too")
                    % {"number": row.member_number, "line": seen[number_key]}
                )
                continue
            seen[number_key] = row.line
        _match(row, by_number, by_key)
        if row.status == MATCH:
            row.changes = _changes(row)
        elif row.status == NEW and player_key(row.first_name, row.last_name) in elsewhere:
            if row.club is None:
                # A second record without a club would serve nobody: the club has them.
                row.status = ERROR
                row.messages.append(
                    _(
                        "a player of this name belongs to a club you do not run, and this line "
                        "names no club of yours: left out"
                    )
                )
                continue
            row.messages.append(
                _(
                    "a player of this name belongs to a club you do not run: this line makes "
                    "a new player (a superuser merges them if they are one person)"
                )
            )
    _offer_similar([row for row in rows if row.status == NEW], allowed)
    missing = []
    if "last_name" not in table.columns:
        missing.append("Nachname")
    if "first_name" not in table.columns:
        missing.append("Vorname")
    if want_total and "total" not in table.columns:
        missing.append("Punkte")
    plan = Plan(
        rows=rows,
        columns=tuple(table.columns),
        unknown_columns=table.unknown_columns,
        unknown_clubs=list(clubs.unknown.values()),
    )
    if missing:
        plan.warnings.append(_("Columns missing: %(columns)s.") % {"columns": ", ".join(missing)})
    return plan


def plan_players(
    *,
    table: Table,
    club: Club | None = None,
    user: Any = None,
    club_choices: dict[str, ClubChoice] | None = None,
) -> Plan:
    """What importing this member list would do, row by row; writes nothing. ``user``
    limits the clubs the lines may name and the players they may match (None: all);
    ``club_choices`` answers the unknown club names (by their key)."""
    return plan_table(
        table=table, default_club=club, want_total=False, user=user, club_choices=club_choices
    )


def write_rows(*, rows: list[PlanRow]) -> dict[int, Player]:
    """Create the new rows' players and fill in the blanks of the matched ones (never
    overwriting), with their memberships; one insert per table for the new rows, so a list
    of 1,500 members is a handful of queries. Returns line -> player."""
    players: dict[int, Player] = {}
    new_players = []
    for row in rows:
        if row.status != NEW:
            continue
        player = Player(
            first_name=row.first_name,
            last_name=row.last_name,
            birth_year=row.birth_year,
            category=row.category,
            email=row.email,
            named_for_age=bool(row.named_for_age),
        )
        player.clean_fields(exclude=["search_key"])  # the plan checked the rest
        new_players.append(player)
        players[row.line] = player
    Player.objects.bulk_create(new_players)
    new_memberships = []
    for row in rows:
        if row.status == NEW:
            player = players[row.line]
            known = []
        else:
            player = players[row.line] = cast(Player, row.player)  # a matched row's
            known = list(player.memberships.all())  # prefetched by the plan
            fields = []
            if row.birth_year and player.birth_year is None:
                player.birth_year = row.birth_year
                fields.append("birth_year")
            if row.email and not player.email:
                player.email = row.email
                fields.append("email")
            if row.named_for_age is not None and row.named_for_age != player.named_for_age:
                player.named_for_age = row.named_for_age
                fields.append("named_for_age")
            if fields:
                player.save(update_fields=fields)
        if row.club is None:
            continue
        membership = next((m for m in known if m.club_id == row.club.pk), None)
        if membership is None:
            new_memberships.append(
                Membership(
                    player=player,
                    club=row.club,
                    member_number=row.member_number,
                    since=row.since,
                    status=row.membership_status,
                )
            )
        elif row.member_number and not membership.member_number:
            membership.member_number = row.member_number
            membership.save(update_fields=["member_number"])
    Membership.objects.bulk_create(new_memberships)
    return players


@dataclass(frozen=True)
class Outcome:
    created: int
    updated: int
    unchanged: int
    skipped: int
    clubs_created: int = 0
    spellings_remembered: int = 0


def check_blocked(*, plan: Plan, skip_errors: bool) -> None:
    if plan.has_errors and not skip_errors:
        raise ImportBlocked(
            _(
                "%(count)s rows have errors: correct the file, or choose to skip those rows. "
                "Nothing was written."
            )
            % {"count": plan.count(ERROR)}
        )


def _apply_club_choices(plan: Plan, *, user: Any) -> tuple[frozenset[int], int]:
    """Create the clubs chosen to be created and remember the spellings mapped to a club,
    for the unknown names that a line to be written uses. Returns the new clubs' ids and
    the number of spellings remembered."""
    used = {row.club_key for row in plan.rows if row.status in (NEW, MATCH) and row.club_key}
    added_by = user if getattr(user, "pk", None) is not None else None
    created: set[int] = set()
    remembered = 0
    for unknown in plan.unknown_clubs:
        choice = unknown.choice
        if unknown.key not in used or choice is None:
            continue
        if choice.action == MAP:
            _, new = ClubAlias.objects.get_or_create(
                key=unknown.key,
                defaults={
                    "alias": unknown.name,
                    "club_id": cast(int, choice.club_id),  # a mapping names its club
                    "added_by": added_by,
                },
            )
            remembered += int(new)
            place_named_guests(club=Club(pk=choice.club_id), keys=[unknown.key])
        elif choice.action == CREATE:
            # A club created from a list has no organisers: a superuser names them (the
            # importer need not be one of them; see docs/architecture/security.md, "Who may do what").
            club = Club(name=unknown.name.strip(), short_name=choice.short_name.strip())
            club.town = unknown.town
            club.full_clean(validate_unique=False, validate_constraints=False)
            try:
                with transaction.atomic():
                    club.save()
            except IntegrityError as error:
                raise ValidationError(
                    _(
                        "The club “%(name)s” or the short name “%(short)s” was taken meanwhile: "
                        "show the preview again. Nothing was written."
                    )
                    % {"name": club.name, "short": club.short_name}
                ) from error
            created.add(club.pk)
            place_named_guests(
                club=club, keys=[unknown.key, club_key(club.name), club_key(club.short_name)]
            )
    return frozenset(created), remembered


@transaction.atomic
def apply_players(
    *,
    table: Table,
    club: Club | None = None,
    skip_errors: bool = False,
    user: User | None = None,
    club_choices: dict[str, ClubChoice] | None = None,
) -> Outcome:
    """Write the member list in one transaction. Rows with errors block everything unless
    ``skip_errors``; ambiguous rows are left for the organiser to decide by hand. The
    choices for unknown club names are checked again; one that cannot be applied (a club
    the importer does not run, a short name taken) stops everything."""
    if club is not None:
        # Two imports into one club wait for each other (and so do not both create a row).
        Club.objects.select_for_update().get(pk=club.pk)
    plan = plan_players(table=table, club=club, user=user, club_choices=club_choices)
    if plan.club_errors:
        raise ValidationError(plan.club_errors)
    check_blocked(plan=plan, skip_errors=skip_errors)
    created_ids, remembered = _apply_club_choices(plan, user=user)
    if created_ids or remembered:
        # The new clubs and spellings are found by name now: the rows link to saved clubs.
        plan = plan_table(
            table=table,
            default_club=club,
            want_total=False,
            user=user,
            club_choices=club_choices,
            created_ids=created_ids,
        )
        check_blocked(plan=plan, skip_errors=skip_errors)
    created = updated = unchanged = skipped = 0
    write_rows(rows=[row for row in plan.rows if row.status in (NEW, MATCH)])
    for row in plan.rows:
        if row.status in (ERROR, AMBIGUOUS):
            skipped += 1
            continue
        if row.status == NEW:
            created += 1
        elif row.changes:
            updated += 1
        else:
            unchanged += 1
    return Outcome(
        created=created,
        updated=updated,
        unchanged=unchanged,
        skipped=skipped,
        clubs_created=len(created_ids),
        spellings_remembered=remembered,
    )
