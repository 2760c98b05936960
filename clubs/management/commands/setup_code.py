"""``manage.py setup_code``: where and how to set up a new installation in the browser.

While no account exists it prints the first-time setup's address and the one-time code that
someone on another device must type there (the laptop itself needs none). The venue server
and ``runserver`` call it as they start (``--renew --if-open``), so the code in the server's
window is the one that works; run by hand it shows the current code (a club server, where
nobody watches the server's window).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from clubs.services.setup import issue_setup_code


def manage_command(*arguments: str) -> str:
    """A command line that works as printed on this machine: this environment's Python and
    this checkout's ``manage.py``, quoted for the system's shell."""
    words = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *arguments]
    return subprocess.list2cmdline(words) if os.name == "nt" else shlex.join(words)


class Command(BaseCommand):
    help = "Print the first-time setup's address and one-time code (while no account exists)."
    leave_locale_alone = True  # the organiser reads it: in the site's language

    def add_arguments(self, parser):
        parser.add_argument(
            "--url",
            action="append",
            default=[],
            help="the server's address as others reach it (repeatable), "
            "e.g. http://192.168.1.20:8000",
        )
        parser.add_argument("--local-url", default="", help="the address on this laptop")
        parser.add_argument(
            "--renew", action="store_true", help="a new code (the old one stops working)"
        )
        parser.add_argument(
            "--if-open", action="store_true", help="print nothing once an account exists"
        )
        parser.add_argument(
            "--venue-data", default="", help="the venue's data folder (for the command shown)"
        )

    def handle(self, *args, **options):
        code = issue_setup_code(renew=options["renew"])
        out = self.stdout
        if code is None:
            if not options["if_open"]:
                out.write(_("The first-time setup is done: log in with your account."))
            return
        local = options["local_url"].rstrip("/")
        others = [url.rstrip("/") for url in options["url"]]
        if not others and not local:
            others = [settings.PUBLIC_BASE_URL or "http://localhost:8000"]
        out.write("")
        out.write(_("FIRST-TIME SETUP: nobody has an account yet. Open in the browser"))
        if local:
            out.write(_("  on this laptop:    %(url)s/setup/") % {"url": local})
        for url in others:
            out.write(
                _("  on another device: %(url)s/setup/  with the code  %(code)s")
                % {"url": url, "code": code}
            )
        if options["venue_data"]:
            out.write(_("Or on the command line, in another window:"))
            out.write(
                "  "
                + manage_command("venue", "--data", options["venue_data"], "--create-organiser")
            )
        out.write("")
