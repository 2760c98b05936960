"""``manage.py runserver`` with the first-time setup: on a database without any account it
prints the setup's address and one-time code before serving (as ``manage.py venue`` does).

Printed from ``inner_run``, which runs in the process that serves (the autoreloader's child),
once per start; the code is kept in the database, where the serving process checks it.
WhiteNoise's runserver (static files off) stays underneath.
"""

import contextlib

from django.core.management import call_command
from django.db import DatabaseError
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as RunserverCommand,
)

from venue.environment import is_loopback, lan_address


class Command(RunserverCommand):
    def inner_run(self, *args, **options):
        addr = "0.0.0.0" if self.addr == "0" else self.addr
        if addr in ("0.0.0.0", "::"):  # every network: others use the LAN address
            lan = lan_address()
            local_url = f"{self.protocol}://localhost:{self.port}"
            urls = [f"{self.protocol}://{lan}:{self.port}"] if lan else []
        else:
            url = f"{self.protocol}://{f'[{addr}]' if self._raw_ipv6 else addr}:{self.port}"
            local_url, urls = (url, []) if is_loopback(addr) else ("", [url])
        # Not migrated yet: nothing to print (runserver's own check says so below).
        with contextlib.suppress(DatabaseError):
            call_command(
                "setup_code",
                renew=True,
                if_open=True,
                local_url=local_url,
                url=urls,
                stdout=self.stdout,
            )
        super().inner_run(*args, **options)
