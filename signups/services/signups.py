"""Every change to a tournament's online pre-registration.

Each service locks the tournament's sign-up sheet (``select_for_update``) before it counts
seats, so of two people taking the last seat at once one gets it and the other the waiting
list (on SQLite the IMMEDIATE transaction mode serialises writers the same way), writes a
``SignupChange`` row saying who did it, and leaves everything as it was when it refuses
(``SignupError``, a German message).

A confirmed sign-up becomes the tournament's registration (``tournaments.services.
registration.register_players``: an entry, not checked in; a ``HallRegistration`` once a
venue laptop holds the tournament), with the registry's player found by name and club where
that is unambiguous, else a new player record. So it travels to the hall with the
tournament (``publishing.server.handover``) and becomes the check-in list there.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Category, Club
from clubs.permissions import held_in_hall
from clubs.search import player_key
from signups.models import Signup, SignupChange, SignupSheet
from signups.names import has_control_character, looks_like_address
from signups.selectors import closed_reason, email_code_fits, token_hash
from signups.services.players import player_for, registry_for
from tournaments.models import Entry, Tournament
from tournaments.selectors.sanctions import banned_signing_up
from tournaments.services.registration import (
    register_players,
    unregister,
    withdraw_for_the_hall,
)

NAME_LENGTH = 60
CLUB_TEXT_LENGTH = 120
MAX_CAPACITY = 2000


class SignupError(ValidationError):
    """Refused with a German message; nothing was written."""


def new_token() -> str:
    """A personal link's token: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


def _user(user: User | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _log(
    *,
    tournament: Tournament,
    action: str,
    signup: Signup | None = None,
    user: User | None = None,
    actor: str = "",
    before=None,
    after=None,
    note: str = "",
) -> None:
    SignupChange.objects.create(
        tournament=tournament,
        signup=signup,
        action=action,
        changed_by=_user(user),
        actor=actor[:120],
        before=before,
        after=after,
        note=note[:300],
    )


def _snapshot(signup: Signup) -> dict:
    """What a log row keeps of a sign-up. Not the e-mail address (the log is append-only and
    a cancellation deletes the address): only whether there is one."""
    return {
        "first_name": signup.first_name,
        "last_name": signup.last_name,
        "club": signup.club.short_name if signup.club is not None else signup.club_text,
        "email": bool(signup.email),
        "status": signup.status,
        "category": signup.category,
    }


def _fields(signup: Signup) -> tuple:
    return (
        signup.first_name,
        signup.last_name,
        signup.club_id,
        signup.club_text,
        signup.email,
        signup.category,
    )


def _lock_sheet(tournament: Tournament) -> SignupSheet:
    sheet = SignupSheet.objects.select_for_update().filter(tournament_id=tournament.pk).first()
    if sheet is None:
        sheet, _created = SignupSheet.objects.get_or_create(tournament_id=tournament.pk)
        sheet = SignupSheet.objects.select_for_update().get(pk=sheet.pk)
    return sheet


def _seats_taken(tournament: Tournament) -> int:
    return Signup.objects.filter(
        tournament=tournament, status__in=[Signup.Status.HELD, Signup.Status.CONFIRMED]
    ).count()


def _next_queue(tournament: Tournament) -> int:
    highest = Signup.objects.filter(tournament=tournament).aggregate(m=Max("queue"))["m"]
    return (highest or 0) + 1


@dataclass(frozen=True)
class Person:
    """What the form (or the organiser's edit) says about a person, checked."""

    first_name: str
    last_name: str
    club: Club | None
    club_text: str
    email: str


def clean_person(
    *, first_name: str, last_name: str, club: Club | None, club_text: str, email: str
) -> Person:
    """Trim and check the fields; ``SignupError`` (by field) when something is wrong."""
    first, last = (first_name or "").strip(), (last_name or "").strip()
    text, mail = (club_text or "").strip(), (email or "").strip()
    errors: dict[str, str] = {}
    if not first:
        errors["first_name"] = _("Please enter your first name.")
    if not last:
        errors["last_name"] = _("Please enter your last name.")
    for name, value in (("first_name", first), ("last_name", last)):
        if len(value) > NAME_LENGTH:
            errors[name] = _("At most %(n)d characters, please.") % {"n": NAME_LENGTH}
        elif value and not any(c.isalpha() for c in value):
            errors[name] = _("A name needs letters.")
        elif has_control_character(value):
            errors[name] = _("A name is one line: no line breaks, tabs or control characters.")
        elif looks_like_address(value):
            errors[name] = _(
                "A name holds no web or e-mail address (after a dot, please a space: “St. Georgen”)."
            )
    if len(text) > CLUB_TEXT_LENGTH:
        errors["club_text"] = _("At most %(n)d characters, please.") % {"n": CLUB_TEXT_LENGTH}
    elif has_control_character(text):
        errors["club_text"] = _("One line, please: no line breaks, tabs or control characters.")
    if mail:
        try:
            validate_email(mail)
        except ValidationError:
            errors["email"] = _("This is not an e-mail address.")
    if errors:
        raise SignupError(errors)
    return Person(
        first_name=first,
        last_name=last,
        club=club,
        club_text="" if club is not None else text,
        email=mail,
    )


def clean_category(*, category: str | None) -> str:
    """Not said ("") or one of the registry's categories; ``SignupError`` else."""
    value = (category or "").strip()
    if value and value not in Category.values:
        raise SignupError({"category": _("Choose one of the categories offered.")})
    return value


def _duplicate(tournament: Tournament, key: str, *, other_than: int | None = None) -> bool:
    rows = Signup.objects.filter(tournament=tournament, name_key=key).exclude(
        status=Signup.Status.CANCELLED
    )
    if other_than is not None:
        rows = rows.exclude(pk=other_than)
    return rows.exists()


def _duplicate_error(person: Person, tournament: Tournament) -> SignupError:
    return SignupError(
        {
            "last_name": _(
                "%(name)s is signed up for %(tournament)s already. Use your personal link to "
                "see or cancel that sign-up."
            )
            % {"name": f"{person.first_name} {person.last_name}", "tournament": tournament.name}
        }
    )


@dataclass(frozen=True)
class SignedUp:
    signup: Signup
    token: str  # the personal link's token: shown once, mailed once, never stored
    position: int | None  # on the waiting list


def sign_up(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    club: Club | None = None,
    club_text: str = "",
    email: str = "",
    consent: bool,
    now: dt.datetime | None = None,
    category: str = "",
) -> SignedUp:
    """Someone signs up through the public form: a seat while there is one (held until the
    organisers confirm it), else the waiting list. ``SignupError``: sign-up closed, no
    consent, a field wrong, the name signed up already; nothing written."""
    person = clean_person(
        first_name=first_name, last_name=last_name, club=club, club_text=club_text, email=email
    )
    category = clean_category(category=category)
    if not consent:
        raise SignupError(
            {
                "consent": _(
                    "Please agree to the use of your data; without it we cannot sign you up."
                )
            }
        )
    key = player_key(person.first_name, person.last_name)
    token = new_token()
    try:
        with transaction.atomic():
            sheet = _lock_sheet(tournament)
            locked = Tournament.objects.get(pk=tournament.pk)
            reason = closed_reason(tournament=locked, sheet=sheet, now=now)
            if reason:
                raise SignupError(reason)
            if _duplicate(locked, key):
                raise _duplicate_error(person, locked)
            # A banned player (the association's register) is refused without a reason: the
            # form is public, and anyone may type a name.
            if banned_signing_up(
                name_key=key, club_id=person.club.pk if person.club else None, on=locked.date
            ):
                raise SignupError(
                    _(
                        "Online sign-up under this name is not possible for this tournament. "
                        "Please contact the tournament's organisers directly."
                    )
                )
            full = sheet.capacity is not None and _seats_taken(locked) >= sheet.capacity
            signup = Signup.objects.create(
                tournament=locked,
                first_name=person.first_name,
                last_name=person.last_name,
                name_key=key,
                club=person.club,
                club_text=person.club_text,
                email=person.email,
                category=category,
                consent_at=now or timezone.now(),
                status=Signup.Status.WAITING if full else Signup.Status.HELD,
                queue=_next_queue(locked),
                token_hash=token_hash(token=token),
            )
            _log(
                tournament=locked,
                signup=signup,
                action=SignupChange.Action.SIGNED_UP,
                actor=_("public form"),
                after=_snapshot(signup),
            )
    except IntegrityError:  # the same name at the same moment: the constraint decided
        raise _duplicate_error(person, tournament) from None
    from signups.selectors import waiting_position

    return SignedUp(signup=signup, token=token, position=waiting_position(signup=signup))


# --- seats and the waiting list --------------------------------------------------------


@dataclass
class Outcome:
    signup: Signup | None = None
    moved_up: list[Signup] = field(default_factory=list)  # given a seat from the waiting list
    note: str = ""
    guest: str = ""  # confirmed: a guest from another club, and from where (else "")


@dataclass(frozen=True)
class AllConfirmed:
    count: int
    guests: tuple[str, ...] = ()  # the guests among them, and from where


def _fill_seats(
    *, sheet: SignupSheet, tournament: Tournament, user: User | None, actor: str
) -> list[Signup]:
    """Give free seats to the first on the waiting list (held, to be confirmed)."""
    moved: list[Signup] = []
    while sheet.capacity is None or _seats_taken(tournament) < sheet.capacity:
        first = (
            Signup.objects.select_for_update()
            .filter(tournament=tournament, status=Signup.Status.WAITING)
            .order_by("queue", "pk")
            .first()
        )
        if first is None:
            break
        first.status = Signup.Status.HELD
        first.save(update_fields=["status", "updated_at"])
        _log(
            tournament=tournament,
            signup=first,
            action=SignupChange.Action.MOVED_UP,
            user=user,
            actor=actor,
            before={"status": Signup.Status.WAITING},
            after={"status": Signup.Status.HELD},
        )
        moved.append(first)
    return moved


def _after_commit_mails(outcome: Outcome) -> Outcome:
    from signups.services.mail import send_moved_up

    for signup in outcome.moved_up:
        if signup.email and signup.email_confirmed_at is not None:  # else it is on their page
            send_moved_up(signup=signup)
    return outcome


def _locked_signup(signup: Signup) -> tuple[SignupSheet, Signup, Tournament]:
    sheet = _lock_sheet(signup.tournament)
    locked = Signup.objects.select_for_update(of=("self",)).select_related("club").get(pk=signup.pk)
    return sheet, locked, Tournament.objects.get(pk=locked.tournament_id)


def _withdraw_registration(*, tournament: Tournament, signup: Signup, user: User | None) -> str:
    """Take a confirmed sign-up's registration off the tournament's list (here, or for the
    hall that holds it). Returns a note for the log."""
    player = signup.player
    if player is None:
        return ""
    if held_in_hall(tournament):
        withdraw_for_the_hall(tournament=tournament, player=player, user=user)
        return _("withdrawn for the venue laptop")
    entry = Entry.objects.filter(tournament=tournament, player=player).first()
    if entry is None:
        return ""
    try:
        unregister(entry=entry, user=user)
    except ValidationError as error:
        raise SignupError(error.messages[0]) from None
    return _("registration removed")


def cancel(*, signup: Signup, user: User | None = None, by_link: bool = False) -> Outcome:
    """Cancel a sign-up (the person by their link, or an organiser). A confirmed one leaves
    the tournament's list too; the first on the waiting list moves up into a freed seat
    (a mail if they gave an address). ``SignupError``: cancelled already, or the player has
    checked in."""
    actor = _("the person, by the personal link") if by_link else ""
    with transaction.atomic():
        sheet, locked, tournament = _locked_signup(signup)
        if locked.status == Signup.Status.CANCELLED:
            raise SignupError(_("This sign-up is cancelled already."))
        if by_link and (
            tournament.finished_at is not None or tournament.date < timezone.localdate()
        ):
            raise SignupError(_("This tournament is over."))
        before = _snapshot(locked)
        note = ""
        if locked.status == Signup.Status.CONFIRMED:
            note = _withdraw_registration(tournament=tournament, signup=locked, user=user)
        had_seat = locked.has_seat
        locked.status = Signup.Status.CANCELLED
        locked.email = ""  # the consent ends: the address goes (the name stays for the record)
        locked.email_confirmed_at = None
        locked.save(update_fields=["status", "email", "email_confirmed_at", "updated_at"])
        _log(
            tournament=tournament,
            signup=locked,
            action=SignupChange.Action.CANCELLED,
            user=user,
            actor=actor,
            before=before,
            after={"status": locked.status},
            note=note,
        )
        moved = (
            _fill_seats(sheet=sheet, tournament=tournament, user=user, actor=actor)
            if had_seat
            else []
        )
    return _after_commit_mails(Outcome(signup=locked, moved_up=moved))


def confirm(*, signup: Signup, user: User | None) -> Outcome:
    """The organisers confirm a sign-up: it becomes the tournament's registration. One on
    the waiting list is confirmed only into a free seat. ``SignupError``: cancelled,
    confirmed already, no free seat, or the hall has begun."""
    with transaction.atomic():
        sheet, locked, tournament = _locked_signup(signup)
        if locked.status == Signup.Status.CONFIRMED:
            raise SignupError(_("This sign-up is confirmed already."))
        if locked.status == Signup.Status.CANCELLED:
            raise SignupError(_("This sign-up is cancelled."))
        if (
            locked.status == Signup.Status.WAITING
            and sheet.capacity is not None
            and _seats_taken(tournament) >= sheet.capacity
        ):
            raise SignupError(
                _(
                    "Every seat is taken. Raise the number of seats or cancel a sign-up "
                    "before confirming someone from the waiting list."
                )
            )
        before = _snapshot(locked)
        found = player_for(signup=locked, registry=registry_for(tournament=tournament, user=user))
        player, note = found.player, found.note
        try:
            result = register_players(tournament=tournament, players=[player], user=user)
        except ValidationError as error:
            raise SignupError(error.messages[0]) from None
        if result.already and not result.registered and not result.for_the_hall:
            note = _("was on the tournament's list already")
        locked.player = player
        locked.status = Signup.Status.CONFIRMED
        locked.save(update_fields=["player", "status", "updated_at"])
        _log(
            tournament=tournament,
            signup=locked,
            action=SignupChange.Action.CONFIRMED,
            user=user,
            before=before,
            after={"status": locked.status, "player": player.pk},
            note=note,
        )
    return Outcome(signup=locked, note=note, guest=found.guest)


@transaction.atomic
def confirm_all(*, tournament: Tournament, user: User | None) -> AllConfirmed:
    """Confirm every sign-up holding a seat, in one transaction and one registration of all
    their players (one refused: none is); says how many, and the guests among them."""
    _lock_sheet(tournament)
    locked = Tournament.objects.get(pk=tournament.pk)
    held = list(
        Signup.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(tournament=locked, status=Signup.Status.HELD)
        .order_by("created_at", "pk")
    )
    if not held:
        return AllConfirmed(count=0)
    registry = registry_for(tournament=locked, user=user)
    found = [(signup, player_for(signup=signup, registry=registry)) for signup in held]
    try:
        register_players(tournament=locked, players=[f.player for _s, f in found], user=user)
    except ValidationError as error:
        raise SignupError(error.messages[0]) from None
    now = timezone.now()
    changes = []
    for signup, result in found:
        player, note = result.player, result.note
        before = _snapshot(signup)
        signup.player, signup.status, signup.updated_at = player, Signup.Status.CONFIRMED, now
        changes.append(
            SignupChange(
                tournament=locked,
                signup=signup,
                action=SignupChange.Action.CONFIRMED,
                changed_by=_user(user),
                before=before,
                after={"status": signup.status, "player": player.pk},
                note=note[:300],
            )
        )
    Signup.objects.bulk_update(held, ["player", "status", "updated_at"])
    SignupChange.objects.bulk_create(changes)
    return AllConfirmed(
        count=len(held), guests=tuple(result.guest for _s, result in found if result.guest)
    )


def edit(
    *,
    signup: Signup,
    user: User | None,
    first_name: str,
    last_name: str,
    club: Club | None,
    club_text: str,
    email: str,
    category: str | None = None,
) -> Outcome:
    """The organisers correct a sign-up (``category`` None: as it is). Once confirmed only
    the e-mail address: the name, club and category are the registry's then (the player's
    page). ``SignupError``: a field wrong, the name signed up already, or a confirmed
    sign-up's name, club or category changed."""
    person = clean_person(
        first_name=first_name, last_name=last_name, club=club, club_text=club_text, email=email
    )
    wanted = None if category is None else clean_category(category=category)
    with transaction.atomic():
        _sheet, locked, tournament = _locked_signup(signup)
        _check_category(locked, wanted)
        before, fields_before = _snapshot(locked), _fields(locked)
        email_before = locked.email
        key = player_key(person.first_name, person.last_name)
        if locked.status == Signup.Status.CONFIRMED and (
            key != locked.name_key
            or person.club != locked.club
            or person.club_text != locked.club_text
        ):
            raise SignupError(
                _(
                    "This sign-up is confirmed: change the name or club on the player's "
                    "record in the registry; here only the e-mail address."
                )
            )
        if locked.status != Signup.Status.CANCELLED and _duplicate(
            tournament, key, other_than=locked.pk
        ):
            raise _duplicate_error(person, tournament)
        locked.first_name, locked.last_name, locked.name_key = (
            person.first_name,
            person.last_name,
            key,
        )
        locked.club, locked.club_text, locked.email = person.club, person.club_text, person.email
        if wanted is not None:
            locked.category = wanted
        after = _snapshot(locked)
        if _fields(locked) == fields_before:
            return Outcome(signup=locked)
        if locked.email != email_before:
            # An address an organiser enters is theirs to answer for (the log says who).
            locked.email_confirmed_at = timezone.now() if locked.email else None
        locked.save()
        _log(
            tournament=tournament,
            signup=locked,
            action=SignupChange.Action.EDITED,
            user=user,
            before=before,
            after=after,
        )
    return Outcome(signup=locked)


def _check_category(signup: Signup, wanted: str | None) -> None:
    if (
        wanted is not None
        and wanted != signup.category
        and signup.status == Signup.Status.CONFIRMED
    ):
        raise SignupError(
            {
                "category": _(
                    "%(name)s is confirmed: the category is the player's in the registry "
                    "now; change it on the player's page."
                )
                % {"name": signup.full_name}
            }
        )


def set_categories(*, tournament: Tournament, user: User | None, categories: dict[int, str]) -> int:
    """The organisers set the categories in their list at once (sign-up id -> category, ""
    for not said): each changed one logged. ``SignupError`` (nothing written): a category
    not offered, or one of a confirmed sign-up changed. Returns how many changed."""
    wanted = {pk: clean_category(category=value) for pk, value in categories.items()}
    with transaction.atomic():
        _lock_sheet(tournament)
        rows = list(
            Signup.objects.select_for_update()
            .filter(tournament_id=tournament.pk, pk__in=wanted)
            .exclude(status=Signup.Status.CANCELLED)
            .order_by("pk")
        )
        changed = [row for row in rows if row.category != wanted[row.pk]]
        for row in changed:
            _check_category(row, wanted[row.pk])
        now = timezone.now()
        log = []
        for row in changed:
            log.append(
                SignupChange(
                    tournament_id=tournament.pk,
                    signup=row,
                    action=SignupChange.Action.EDITED,
                    changed_by=_user(user),
                    before={"category": row.category},
                    after={"category": wanted[row.pk]},
                )
            )
            row.category, row.updated_at = wanted[row.pk], now
        Signup.objects.bulk_update(changed, ["category", "updated_at"])
        SignupChange.objects.bulk_create(log)
    return len(changed)


def confirm_email(*, signup: Signup, code: str) -> bool:
    """The person followed the link from the first mail: their address is confirmed, and
    from now on the mails of the sign-up go there (``send_moved_up``). True when it is
    confirmed (now or before); ``SignupError`` when the code does not fit the sign-up's
    current address (changed since, cancelled, or a wrong link)."""
    with transaction.atomic():
        _sheet, locked, tournament = _locked_signup(signup)
        if not email_code_fits(signup=locked, code=code):
            raise SignupError(
                _(
                    "This confirmation link does not fit (any more): the e-mail address was "
                    "changed or the sign-up cancelled. Your sign-up is shown below."
                )
            )
        if locked.email_confirmed_at is not None:
            return True
        locked.email_confirmed_at = timezone.now()
        locked.save(update_fields=["email_confirmed_at", "updated_at"])
        _log(
            tournament=tournament,
            signup=locked,
            action=SignupChange.Action.EDITED,
            actor=_("the person, by the link in the e-mail"),
            before={"email_confirmed": False},
            after={"email_confirmed": True},
            note=_("e-mail address confirmed"),
        )
    return True


def move(*, signup: Signup, user: User | None, direction: str) -> Outcome:
    """Move a sign-up one place up or down the waiting list. ``SignupError``: not waiting,
    or first/last already."""
    if direction not in ("up", "down"):
        raise SignupError(_("Unknown direction."))
    with transaction.atomic():
        _sheet, locked, tournament = _locked_signup(signup)
        if locked.status != Signup.Status.WAITING:
            raise SignupError(_("Only someone on the waiting list can be moved."))
        waiting = list(
            Signup.objects.select_for_update()
            .filter(tournament=tournament, status=Signup.Status.WAITING)
            .order_by("queue", "pk")
        )
        index = next(i for i, s in enumerate(waiting) if s.pk == locked.pk)
        other_index = index - 1 if direction == "up" else index + 1
        if not 0 <= other_index < len(waiting):
            raise SignupError(
                _("First on the waiting list already.")
                if direction == "up"
                else _("Last on the waiting list already.")
            )
        # Renumber the list in its order, then swap the two (queues may be equal or gappy).
        order = [s.pk for s in waiting]
        order[index], order[other_index] = order[other_index], order[index]
        base = min(s.queue for s in waiting)
        for offset, pk in enumerate(order):
            Signup.objects.filter(pk=pk).update(queue=base + offset)
        _log(
            tournament=tournament,
            signup=locked,
            action=SignupChange.Action.MOVED,
            user=user,
            before={"position": index + 1},
            after={"position": other_index + 1},
        )
    locked.refresh_from_db()
    return Outcome(signup=locked)


def set_sheet(
    *,
    tournament: Tournament,
    user: User | None,
    is_open: bool,
    capacity: int | None,
    closes_at: dt.datetime | None,
) -> Outcome:
    """The organisers open or close the sign-up, set the seats and the closing time. More
    seats move the waiting list up; fewer never take a seat from anyone (those beyond stay,
    and newcomers wait). ``SignupError``: a number out of range."""
    if capacity is not None and not 1 <= capacity <= MAX_CAPACITY:
        raise SignupError(
            {
                "capacity": _("Between 1 and %(n)d seats, or empty for no limit.")
                % {"n": MAX_CAPACITY}
            }
        )
    with transaction.atomic():
        sheet = _lock_sheet(tournament)
        before = {
            "is_open": sheet.is_open,
            "capacity": sheet.capacity,
            "closes_at": sheet.closes_at.isoformat() if sheet.closes_at else None,
        }
        sheet.is_open, sheet.capacity, sheet.closes_at = is_open, capacity, closes_at
        after = {
            "is_open": is_open,
            "capacity": capacity,
            "closes_at": closes_at.isoformat() if closes_at else None,
        }
        if after == before:
            return Outcome()
        sheet.save()
        _log(
            tournament=tournament,
            action=SignupChange.Action.SETTINGS,
            user=user,
            before=before,
            after=after,
        )
        moved = _fill_seats(sheet=sheet, tournament=tournament, user=user, actor="")
    return _after_commit_mails(Outcome(moved_up=moved))
