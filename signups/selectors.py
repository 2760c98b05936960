"""Reads of the online pre-registration: whether a tournament's sign-up is open, its counts,
the organiser's list, a person's status by their link. A constant number of queries each."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from clubs.models import Club
from signups.models import Signup, SignupChange, SignupSheet
from tournaments.models import Round, Tournament


def token_hash(token: str) -> str:
    """What is stored of a personal link's token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def email_code(signup: Signup) -> str:
    """The code in the first mail's link that confirms the address: a keyed hash (the
    site's SECRET_KEY) of the sign-up and its current address, so it is in that mail only
    (not on the page the sender sees after signing up) and stops fitting when the address
    changes. Nothing of it is stored."""
    value = f"{signup.pk}:{signup.token_hash}:{signup.email.lower()}"
    return salted_hmac("signups.email_code", value, algorithm="sha256").hexdigest()[:32]


def email_code_fits(signup: Signup, code: str) -> bool:
    return bool(signup.email) and constant_time_compare(email_code(signup), code or "")


def sheet_of(tournament: Tournament) -> SignupSheet | None:
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


def waiting_list(*, tournament: Tournament):
    """The waiting list in its order (first moves up first)."""
    return Signup.objects.filter(tournament=tournament, status=Signup.Status.WAITING).order_by(
        "queue", "pk"
    )


def waiting_position(signup: Signup) -> int | None:
    """1 for the first on the waiting list; None when not waiting (one query)."""
    if signup.status != Signup.Status.WAITING:
        return None
    ahead = Signup.objects.filter(
        tournament_id=signup.tournament_id, status=Signup.Status.WAITING
    ).filter(Q(queue__lt=signup.queue) | Q(queue=signup.queue, pk__lt=signup.pk))
    return ahead.count() + 1


def signup_by_token(token: str) -> Signup | None:
    """The sign-up a personal link names (by the hash of its token), or None."""
    if not token or len(token) > 100:
        return None
    return (
        Signup.objects.select_related("tournament", "tournament__host_club", "club")
        .filter(token_hash=token_hash(token))
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
