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
from signups.services.throttle import mail_allowed

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


def send_signed_up(*, signup: Signup, link: str) -> bool:
    """The first mail to the address the form was given (which need not be the sender's):
    the person's name, the tournament (the organisers' words), and the link that confirms
    the address and leads to the sign-up's page. No other text the sender typed, not even
    the seat or the place on the waiting list: that is on the page the link opens. Nothing
    else goes to the address until the link was followed (``send_moved_up`` waits for
    ``email_confirmed_at``). At most ``SIGNUP_MAILS_PER_ADDRESS`` such mails a day to one
    address (``throttle.mail_allowed``); False when none was sent."""
    if not signup.email:
        return False
    if not mail_allowed(email=signup.email):
        logger.warning("sign-up mail to %s not sent: the address had its mails today", signup.pk)
        return False
    return _send(signup=signup, template="signups/mail/signed_up.txt", context={"link": link})


def send_moved_up(*, signup: Signup) -> bool:
    """A seat came free: they moved up from the waiting list (only to a confirmed address)."""
    if signup.email_confirmed_at is None:
        return False
    return _send(signup=signup, template="signups/mail/moved_up.txt", context={})
