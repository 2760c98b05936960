"""The first run of a new installation: the first account, its club, its organiser role.

``/setup/`` (``clubs.views.setup``) and ``manage.py venue --create-organiser``
(``clubs.management.commands.create_organiser``) both end in ``create_organiser``: user,
club (or an existing one) and the organiser role in one transaction, recorded on the
``FirstRun`` row when it is the installation's first account. Who may claim the page is
decided in ``clubs.permissions.first_run_needs_code``; the code itself is checked here.
"""

from __future__ import annotations

import hmac
import secrets
from typing import cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import CharField
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRole, FirstRun
from clubs.services.admin import save_club

# Eight characters without look-alikes (no 0/O, 1/I/L): 32**8 ≈ 10**12 codes, and a code
# is void after ten wrong tries, so guessing it from the hall's Wi-Fi is hopeless.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
MAX_WRONG_CODES = 10
ROW = 1  # FirstRun has one row


class SetupClosed(Exception):
    """An account exists already: the first run is over."""


def _locked_row() -> FirstRun:
    # The one row serialises two claims: whoever locks it second finds the account the first
    # created (SQLite's IMMEDIATE transactions serialise writers anyway; PostgreSQL waits here).
    FirstRun.objects.get_or_create(pk=ROW)
    return FirstRun.objects.select_for_update().get(pk=ROW)


def normalise_code(*, code: str) -> str:
    """As printed ("ABCD-EFGH") or typed ("abcd efgh"): upper case, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def format_code(*, code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


@transaction.atomic
def issue_setup_code(*, renew: bool = False) -> str | None:
    """The one-time code for ``/setup/`` (as printed, "ABCD-EFGH"), or None once an account
    exists. A server starting renews it (``renew``): the code in its terminal is the only one
    that works. A code that was typed wrong too often is renewed in any case."""
    if get_user_model().objects.exists():
        return None
    row = _locked_row()
    if renew or not row.code or row.wrong_codes >= MAX_WRONG_CODES:
        row.code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
        row.code_issued_at = timezone.now()
        row.wrong_codes = 0
        row.save()
    return format_code(code=row.code)


def check_setup_code(*, code: str) -> None:
    """Accept the code printed in the terminal or raise ``ValidationError`` on ``code``.
    Compared in constant time; every wrong try is counted (and kept, though the claim
    fails), and after ``MAX_WRONG_CODES`` the code is void until the server prints a new one."""
    given = normalise_code(code=code).encode()
    with transaction.atomic():
        row = _locked_row()
        if get_user_model().objects.exists():
            raise SetupClosed
        void = not row.code or row.wrong_codes >= MAX_WRONG_CODES
        # compare_digest on equal-length inputs: a wrong length costs the same as a wrong code.
        right = not void and hmac.compare_digest(given.ljust(64)[:64], row.code.encode().ljust(64))
        if not right and not void:
            row.wrong_codes += 1
            row.save(update_fields=["wrong_codes"])
            void = row.wrong_codes >= MAX_WRONG_CODES
    if right:
        return
    if void:
        raise ValidationError(
            {
                "code": _(
                    "This code no longer works (typed wrong too often). Open this page on the "
                    "laptop itself, or restart the server: it prints a new code."
                )
            }
        )
    raise ValidationError(
        {"code": _("This is not the code the server printed. Look at its window again.")}
    )


def _check_username(username: str) -> list[str]:
    user_model = get_user_model()
    field = cast(CharField, user_model._meta.get_field(user_model.USERNAME_FIELD))
    limit = cast(int, field.max_length)  # the user name's column has a length
    if not username:
        return [_("Choose a user name.")]
    if len(username) > limit:
        return [_("At most %(count)d characters.") % {"count": limit}]
    try:
        for validator in field.validators:
            validator(username)
    except ValidationError:
        return [_("Letters, digits and . @ + - _ only (no spaces).")]
    if user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__iexact": username}).exists():
        return [_("This user name is taken.")]
    return []


@transaction.atomic
def create_organiser(
    *,
    username: str,
    password: str,
    club: Club | None = None,
    club_name: str = "",
    club_short_name: str = "",
    club_town: str = "",
    club_public_player_pages: bool = False,
    first_run: bool = False,
    via: str = FirstRun.Via.COMMAND,
    address: str = "",
) -> User:
    """Create an organiser: the user, the club (``club``, or a new one from ``club_*``) and
    the user's organiser role in it, or nothing (``ValidationError`` naming the fields
    ``username``, ``password``, ``club_name``, ``club_short_name``, ``club_town``).

    With ``first_run`` (the ``/setup/`` page) it refuses with ``SetupClosed`` once any account
    exists. The installation's first account is also its superuser: nobody else could give
    the next organisers and referees their accounts (Django admin). Its claim is recorded on
    the ``FirstRun`` row (when, by whom, ``via``, from which ``address``)."""
    user_model = get_user_model()
    row = _locked_row()
    first = not user_model.objects.exists()
    if first_run and not first:
        raise SetupClosed
    username = username.strip()
    errors: dict[str, list] = {}
    if problems := _check_username(username):
        errors["username"] = problems
    try:
        validate_password(password, user=user_model(**{user_model.USERNAME_FIELD: username}))
    except ValidationError as error:
        errors["password"] = error.messages
    if club is None:
        for name, value in (
            ("club_name", club_name),
            ("club_short_name", club_short_name),
            ("club_town", club_town),
        ):
            if not value.strip():
                errors[name] = [_("This field is required.")]
    if errors:
        raise ValidationError(errors)
    if club is None:
        try:
            club = save_club(
                name=club_name,
                short_name=club_short_name,
                town=club_town,
                public_player_pages=club_public_player_pages,
            )
        except ValidationError as error:
            raise ValidationError(
                {f"club_{name}": messages for name, messages in error.message_dict.items()}
            ) from error
    user = user_model.objects.create_user(
        **{user_model.USERNAME_FIELD: username},
        password=password,
        is_staff=first,
        is_superuser=first,
    )
    ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.ORGANISER)
    if first:
        row.code, row.wrong_codes = "", 0  # used up
        row.claimed_at, row.claimed_by = timezone.now(), user
        row.via, row.claimed_from = via, address[:45]
        row.save()
    return user


def claim_first_run(
    *,
    username: str,
    password: str,
    club_name: str,
    club_short_name: str,
    club_town: str,
    code: str | None,
    address: str = "",
    club_public_player_pages: bool = False,
) -> User:
    """The ``/setup/`` page's claim: ``code`` is None where the permissions module lets the
    request in without one (the laptop itself), else it is checked first (a wrong code is
    counted even though nothing else is written)."""
    if code is not None:
        check_setup_code(code=code)
    return create_organiser(
        username=username,
        password=password,
        club_name=club_name,
        club_short_name=club_short_name,
        club_town=club_town,
        club_public_player_pages=club_public_player_pages,
        first_run=True,
        via=FirstRun.Via.LAPTOP if code is None else FirstRun.Via.CODE,
        address=address,
    )
