"""Importing member lists and paper results: a preview first, then one transaction.

``plan_players`` / ``plan_results`` read nothing but the database and return one
:class:`PlanRow` per line of the file; ``apply_players`` / ``apply_results`` write a plan
(planned again inside the transaction, so that the preview's decisions hold for the rows as
they are then). Importing the same file twice finds every row as a match and writes nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Category, Club, Membership, Player
from clubs.search import normalise, player_key
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
STATUS_WORDS = {
    "": Membership.Status.ACTIVE,
    "aktiv": Membership.Status.ACTIVE,
    "active": Membership.Status.ACTIVE,
    "a": Membership.Status.ACTIVE,
    "passiv": Membership.Status.PASSIVE,
    "passive": Membership.Status.PASSIVE,
    "p": Membership.Status.PASSIVE,
}


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
    since: dt.date | None = None
    membership_status: str = Membership.Status.ACTIVE
    total: int | None = None
    player: Player | None = None
    candidates: list[Player] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)  # what a match would fill in

    @property
    def name(self) -> str:
        return f"{self.last_name}, {self.first_name}".strip(", ")


@dataclass
class Plan:
    rows: list[PlanRow]
    columns: tuple[str, ...]
    unknown_columns: tuple[str, ...]
    warnings: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows if row.status == status)

    @property
    def has_errors(self) -> bool:
        return any(row.status == ERROR for row in self.rows)


class ImportBlocked(ValidationError):
    """Rows have errors and the organiser did not choose to skip them: nothing written."""


def _clubs_by_name() -> dict[str, Club]:
    clubs: dict[str, Club] = {}
    for club in Club.objects.all():
        clubs.setdefault(normalise(club.short_name), club)
        clubs.setdefault(normalise(club.name), club)
    return clubs


def _parse_row(
    line: int, values: dict[str, str], clubs: dict[str, Club], default_club: Club | None
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
    if not row.last_name:
        errors.append(_("the last name is missing"))
    if not row.first_name:
        errors.append(_("the first name is missing"))
    club_text = values.get("club", "").strip()
    if club_text:
        row.club = clubs.get(normalise(club_text))
        if row.club is None:
            errors.append(_("unknown club “%(club)s”") % {"club": club_text})
    else:
        row.club = default_club
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
    player = row.player
    changes = []
    if row.birth_year and player.birth_year is None:
        changes.append(_("birth year"))
    if row.email and not player.email:
        changes.append(_("e-mail"))
    if row.club is not None:
        membership = next((m for m in player.memberships.all() if m.club_id == row.club.pk), None)
        if membership is None:
            changes.append(_("membership in %(club)s") % {"club": row.club.short_name})
        elif row.member_number and not membership.member_number:
            changes.append(_("member number"))
    return changes


def plan_table(table: Table, default_club: Club | None, *, want_total: bool) -> Plan:
    clubs = _clubs_by_name()
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
    for player in {p.pk: p for p in players}.values():
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
        identity = (player_key(row.first_name, row.last_name), row.club.pk if row.club else None)
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
    )
    if missing:
        plan.warnings.append(_("Columns missing: %(columns)s.") % {"columns": ", ".join(missing)})
    return plan


def plan_players(*, table: Table, club: Club | None = None) -> Plan:
    """What importing this member list would do, row by row; writes nothing."""
    return plan_table(table, club, want_total=False)


def write_rows(rows: list[PlanRow]) -> dict[int, Player]:
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
            player = players[row.line] = row.player
            known = list(player.memberships.all())  # prefetched by the plan
            fields = []
            if row.birth_year and player.birth_year is None:
                player.birth_year = row.birth_year
                fields.append("birth_year")
            if row.email and not player.email:
                player.email = row.email
                fields.append("email")
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


def check_blocked(plan: Plan, skip_errors: bool) -> None:
    if plan.has_errors and not skip_errors:
        raise ImportBlocked(
            _(
                "%(count)s rows have errors: correct the file, or choose to skip those rows. "
                "Nothing was written."
            )
            % {"count": plan.count(ERROR)}
        )


@transaction.atomic
def apply_players(
    *,
    table: Table,
    club: Club | None = None,
    skip_errors: bool = False,
    user: AbstractBaseUser | None = None,
) -> Outcome:
    """Write the member list in one transaction. Rows with errors block everything unless
    ``skip_errors``; ambiguous rows are left for the organiser to decide by hand."""
    if club is not None:
        # Two imports into one club wait for each other (and so do not both create a row).
        Club.objects.select_for_update().get(pk=club.pk)
    plan = plan_players(table=table, club=club)
    check_blocked(plan, skip_errors)
    created = updated = unchanged = skipped = 0
    write_rows([row for row in plan.rows if row.status in (NEW, MATCH)])
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
    return Outcome(created=created, updated=updated, unchanged=unchanged, skipped=skipped)
