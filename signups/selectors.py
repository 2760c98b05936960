"""Reads of the online pre-registration: whether a tournament's sign-up is open, its counts,
the organiser's list, a person's status by their link. A constant number of queries each."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from clubs.models import Club, Membership
from clubs.permissions import manageable_clubs
from clubs.search import club_key, player_key
from clubs.selectors import clubs_by_key
from signups.models import Signup, SignupChange, SignupSheet
from tournaments.models import Round, Tournament


def token_hash(*, token: str) -> str:
    """What is stored of a personal link's token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def email_code(*, signup: Signup) -> str:
    """The code in the first mail's link that confirms the address: a keyed hash (the
    site's SECRET_KEY) of the sign-up and its current address, so it is in that mail only
    (not on the page the sender sees after signing up) and stops fitting when the address
    changes. Nothing of it is stored."""
    value = f"{signup.pk}:{signup.token_hash}:{signup.email.lower()}"
    return salted_hmac("signups.email_code", value, algorithm="sha256").hexdigest()[:32]


def email_code_fits(*, signup: Signup, code: str) -> bool:
    return bool(signup.email) and constant_time_compare(email_code(signup=signup), code or "")


def sheet_of(*, tournament: Tournament) -> SignupSheet | None:
    return SignupSheet.objects.filter(tournament=tournament).first()


def closed_reason(
    *, tournament: Tournament, sheet: SignupSheet | None, now: dt.datetime | None = None
) -> str:
    """Why nobody can sign up now (German), or "" while the sign-up is open: only while the
    tournament is upcoming (not finished, no round drawn, its day not past) and its
    organisers opened the sign-up, until its closing time."""
    now = now or timezone.now()
    if sheet is None or not sheet.is_open:
        return _("Online sign-up is not open for this tournament.")
    if tournament.finished_at is not None or tournament.date < timezone.localdate(now):
        return _("This tournament is over.")
    if Round.objects.filter(tournament=tournament).exists():
        return _("This tournament has begun; sign-up is closed.")
    if sheet.closes_at is not None and now >= sheet.closes_at:
        return _("Sign-up closed on %(when)s.") % {
            "when": formats.date_format(timezone.localtime(sheet.closes_at), "DATETIME_FORMAT")
        }
    return ""


@dataclass(frozen=True)
class Counts:
    held: int
    confirmed: int
    waiting: int
    cancelled: int
    capacity: int | None

    @property
    def seats_taken(self) -> int:
        return self.held + self.confirmed

    @property
    def seats_free(self) -> int | None:
        return None if self.capacity is None else max(self.capacity - self.seats_taken, 0)


def counts(*, tournament: Tournament, sheet: SignupSheet | None) -> Counts:
    """How many hold a seat, are confirmed, wait, cancelled (one query)."""
    by = dict(
        Signup.objects.filter(tournament=tournament)
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    return Counts(
        held=by.get(Signup.Status.HELD, 0),
        confirmed=by.get(Signup.Status.CONFIRMED, 0),
        waiting=by.get(Signup.Status.WAITING, 0),
        cancelled=by.get(Signup.Status.CANCELLED, 0),
        capacity=sheet.capacity if sheet is not None else None,
    )


def waiting_position(*, signup: Signup) -> int | None:
    """1 for the first on the waiting list; None when not waiting (one query)."""
    if signup.status != Signup.Status.WAITING:
        return None
    ahead = Signup.objects.filter(
        tournament_id=signup.tournament_id, status=Signup.Status.WAITING
    ).filter(Q(queue__lt=signup.queue) | Q(queue=signup.queue, pk__lt=signup.pk))
    return ahead.count() + 1


def signup_by_token(*, token: str) -> Signup | None:
    """The sign-up a personal link names (by the hash of its token), or None."""
    if not token or len(token) > 100:
        return None
    return (
        Signup.objects.select_related("tournament", "tournament__host_club", "club")
        .filter(token_hash=token_hash(token=token))
        .first()
    )


@dataclass(frozen=True)
class ListRow:
    signup: Signup
    position: int | None  # on the waiting list


def organiser_list(*, tournament: Tournament) -> list[ListRow]:
    """Every sign-up of the tournament for its organisers: seats first (in the order they
    came), then the waiting list in its order, then the cancelled (one query)."""
    rows = list(
        Signup.objects.filter(tournament=tournament)
        .select_related("club", "player")
        .order_by("created_at", "pk")
    )
    seats = [s for s in rows if s.has_seat]
    waiting = sorted(
        (s for s in rows if s.status == Signup.Status.WAITING), key=lambda s: (s.queue, s.pk)
    )
    cancelled = [s for s in rows if s.status == Signup.Status.CANCELLED]
    return (
        [ListRow(s, None) for s in seats]
        + [ListRow(s, i) for i, s in enumerate(waiting, start=1)]
        + [ListRow(s, None) for s in cancelled]
    )


def named_club(*, signup: Signup, clubs: Mapping[str, Club]) -> Club | None:
    """The club of the server a sign-up names: the one chosen on the form, else the one
    whose name, short name or remembered spelling the "other club" text is (``clubs``:
    ``clubs.selectors.clubs_by_key``); None for other text or none."""
    if signup.club_id is not None:
        return signup.club
    text = signup.club_text.strip()
    return clubs.get(club_key(text)) if text else None


def guest_words(*, name: str, where: str, on_server: bool, member: bool) -> str:
    """A guest as the organisers read it: who, from where, and how the club is kept."""
    if not on_server:
        return _("%(name)s (“%(club)s”, not a club on this server)") % {
            "name": name,
            "club": where,
        }
    if member:
        return _("%(name)s (%(club)s)") % {"name": name, "club": where}
    return _("%(name)s (%(club)s, without membership)") % {"name": name, "club": where}


@dataclass(frozen=True)
class Guest:
    """A sign-up naming another club than the host's: from where (a club's short name here,
    or the text as typed), and whether they are (or become, when confirmed by ``user``) a
    member there; a guest without membership is shown with that club all the same."""

    where: str
    on_server: bool
    member: bool


def guests(*, tournament: Tournament, rows: list[ListRow], user: Any) -> dict[int, Guest]:
    """Sign-up id -> ``Guest`` for the rows not cancelled whose club is not the host club:
    what confirming them gives (``services.players``). Four queries, whatever the count."""
    clubs = clubs_by_key()
    runs = set(manageable_clubs(user).values_list("pk", flat=True)) if user else set()
    named = {
        row.signup.pk: named_club(signup=row.signup, clubs=clubs)
        for row in rows
        if row.signup.status != Signup.Status.CANCELLED
    }
    keys = {
        player_key(row.signup.first_name, row.signup.last_name)
        for row in rows
        if named.get(row.signup.pk) is not None
    }
    members = set(
        Membership.objects.filter(player__search_key__in=keys).values_list(
            "player__search_key", "club_id"
        )
    )
    found: dict[int, Guest] = {}
    for row in rows:
        signup = row.signup
        if signup.pk not in named:
            continue
        club = named[signup.pk]
        if club is None:
            if signup.club_text.strip():
                found[signup.pk] = Guest(signup.club_text.strip(), on_server=False, member=False)
            continue
        if club.pk == tournament.host_club_id:
            continue
        key = player_key(signup.first_name, signup.last_name)
        found[signup.pk] = Guest(
            club.short_name, on_server=True, member=club.pk in runs or (key, club.pk) in members
        )
    return found


def signup_log(*, tournament: Tournament, limit: int = 200):
    """The newest changes to the tournament's sign-ups (one query)."""
    return (
        SignupChange.objects.filter(tournament=tournament)
        .select_related("signup", "changed_by")
        .order_by("-changed_at", "-pk")[:limit]
    )


def club_choices():
    """The server's clubs, by name, for the public form (one query)."""
    return Club.objects.order_by("name").only("pk", "name", "short_name")


def open_tournaments(*, now: dt.datetime | None = None):
    """Tournaments whose sign-up is open now (for a link from other pages; one query)."""
    now = now or timezone.now()
    return (
        Tournament.objects.filter(
            signup_sheet__is_open=True,
            finished_at__isnull=True,
            date__gte=timezone.localdate(now),
        )
        .filter(Q(signup_sheet__closes_at__isnull=True) | Q(signup_sheet__closes_at__gt=now))
        .exclude(pk__in=Round.objects.values("tournament_id"))
        .select_related("host_club")
        .order_by("date", "name")
    )
