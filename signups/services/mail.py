"""The German mails of the online sign-up, through Django's mail framework (the console
unless the server configures a mail server; the tests read ``mail.outbox``). A mail that
cannot be sent is logged, never an error for the person signing up: the page shows the
personal link as well."""

from __future__ import annotations

import logging

from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

from signups.models import Signup

logger = logging.getLogger(__name__)


def _send(*, signup: Signup, template: str, context: dict) -> bool:
    if not signup.email:
        return False
    with translation.override("de"):
        subject, _sep, body = (
            render_to_string(
                template, {"signup": signup, "tournament": signup.tournament, **context}
            )
            .strip()
            .partition("\n")
        )
    try:
        send_mail(subject.strip(), body.strip() + "\n", None, [signup.email])
    except Exception:  # a mail server out of reach must not undo the sign-up
        logger.exception("sign-up mail to %s not sent", signup.pk)
        return False
    return True


def send_signed_up(*, signup: Signup, link: str, position: int | None) -> bool:
    """After signing up: what they hold (a seat or a place on the waiting list) and the
    personal link to see and cancel it."""
    return _send(
        signup=signup,
        template="signups/mail/signed_up.txt",
        context={"link": link, "position": position},
    )


def send_moved_up(*, signup: Signup) -> bool:
    """A seat came free: they moved up from the waiting list."""
    return _send(signup=signup, template="signups/mail/moved_up.txt", context={})
