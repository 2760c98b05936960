"""``manage.py venue``: the tournament day on the organiser's laptop.

``manage.py`` has already configured the process (``venue.environment.prepare_environment``):
DEBUG off, the data folder's database and secret key, allowed hosts, backups. This command
refuses data a newer version wrote (``venue.versions``), migrates (which records this version),
collects the static files for WhiteNoise, and serves with waitress (pure Python:
Windows, macOS and Linux) to the hall's network.
"""

import os
import sys
import threading
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.wsgi import get_wsgi_application
from django.utils.translation import gettext as _

from cego_club.platform.front import front, is_crowd
from cego_club.platform.readiness import load_urls, per_thread_locals, settle_memory
from venue.backups import backup_folder_problem
from venue.environment import command_line, is_loopback, lan_address, venue_arguments
from venue.folder_lock import FolderInUse, FolderLock
from venue.laptop import (
    FIREWALL_TIMEOUT,
    firewall_advice,
    firewall_report,
    forgiving,
    qr_style,
    qr_text,
    synced_by,
    synced_folder_warning,
)
from venue.serving import create_venue_server, hand_over_quickly, quiet_queue_warnings
from venue.signals import lines_from, serving_started
from venue.spectators import SpectatorsProcess, for_spectators, private_cookies
from venue.tokens import publish_token, token_arguments
from venue.versions import refuse_newer_data


class Command(BaseCommand):
    help = (
        "Serve a tournament day to the hall's network from this laptop: migrate, collect "
        "static files, print the address (and QR code) phones use, serve with waitress."
    )
    # The organiser reads the terminal: in the site's language (German).
    leave_locale_alone = True

    def add_arguments(self, parser):
        venue_arguments(parser)
        parser.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
        parser.add_argument(
            "--create-organiser",
            action="store_true",
            help="create an organiser's account and its club (asks in German), then stop",
        )
        # Handed on to `create_organiser` (the club area's command, called by name: this
        # command sits below every area and imports none).
        for name in ("--username", "--club", "--club-name", "--club-short", "--club-town"):
            parser.add_argument(name, default=None, help="with --create-organiser")
        parser.add_argument("--password-stdin", action="store_true", help="with --create-organiser")
        parser.add_argument(
            "--no-input", action="store_false", dest="interactive", help="with --create-organiser"
        )
        parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
        parser.add_argument(
            "--one-process",
            action="store_true",
            help="serve the spectators in this process too (no second process for them)",
        )
        parser.add_argument(
            "--publish-to",
            default=None,
            help="the season server (https://…): every tournament here is sent to it whenever "
            "it changes and the internet is there",
        )
        # The token never on the command line (the process list shows it): from
        # CEGO_PUBLISH_TOKEN, --publish-token-file FILE, or asked for (venue/tokens.py).
        token_arguments(parser, old_names=("--publish-token",))

    def handle(self, *args, **options):
        if os.environ.get("SECRET_KEY_FILE") is None:
            raise CommandError(
                "Start the venue server with cego-club or manage.py (they set up the day)."
            )
        for stream in (sys.stdout, sys.stderr):
            forgiving(stream)  # a path or a name the console's code page lacks: "?", no crash
        folder = Path(os.environ["SECRET_KEY_FILE"]).parent
        # Before anything else: data of a newer version are refused, untouched (German, both
        # versions named); on SQLite the file is only read (venue/versions.py). Before the
        # folder's lock too, whose file would be a change.
        refuse_newer_data()
        # One venue per data folder, refused before anything is changed (venue/folder_lock.py):
        # a second double-click while the first start still migrates. Creating an organiser
        # beside a running venue stays possible.
        lock = None if options["create_organiser"] else hold(folder)
        try:
            self.run_venue(options, folder=folder, lock=lock)
        finally:
            if lock is not None:
                lock.release()

    def run_venue(self, options, *, folder: Path, lock: FolderLock | None) -> None:
        firewall = FirewallCheck() if sys.platform == "win32" else None
        call_command("migrate", interactive=False, verbosity=0)
        organiser_options = {
            name: options[name]
            for name in ("username", "club", "club_name", "club_short", "club_town")
            if options[name] is not None
        }
        if options["create_organiser"]:
            call_command(
                "create_organiser",
                password_stdin=options["password_stdin"],
                interactive=options["interactive"],
                stdout=self.stdout,
                stderr=self.stderr,
                **organiser_options,
            )
            return
        token = serving_token(options, organiser_options=organiser_options)
        call_command("collectstatic", interactive=False, verbosity=0)
        load_urls()

        quiet_queue_warnings()

        server = listening_server(options)
        port = server.effective_port
        if lock is not None:
            lock.note(url=f"http://localhost:{port}/")
        bind = options["bind"]
        local_only = is_loopback(bind)
        lan = None if local_only else (lan_address() if bind in ("0.0.0.0", "::", "") else bind)
        out = self.stdout
        out.write(_("Cego Club is running for the tournament day (stop it with Ctrl+C)."))
        self.say_folders(folder)
        self.say_addresses(options, port=port, lan=lan, local_only=local_only)
        if firewall is not None and lan:
            advice = firewall.advice()
            if advice:
                out.write(self.style.WARNING(advice))
        # No account yet: the first-time setup's address and a fresh one-time code (printed
        # here, kept in the database the server reads; the clubs area's command, by name).
        call_command(
            "setup_code",
            renew=True,
            if_open=True,
            local_url=f"http://localhost:{port}",
            url=[f"http://{lan}:{port}"] if lan else [],
            venue_data=os.path.dirname(os.environ["SECRET_KEY_FILE"]),
            stdout=out,
        )
        if options["publish_to"]:
            out.write(
                _("Tournaments are sent to %(url)s whenever they change.")
                % {"url": options["publish_to"]}
            )
        # The areas above get ready (the printouts read their fonts) before the first answer.
        responses = serving_started.send(
            sender=None,
            publish_to=options["publish_to"],
            publish_token=token,
        )
        for line in lines_from(responses):  # e.g. where each publication stands
            out.write(line)
        self.serve(server, options)

    def say_folders(self, folder: Path) -> None:
        """The data folder (a folder a cloud service syncs: warned) and where backups go."""
        out = self.stdout
        out.write(_("Data folder: %(path)s") % {"path": folder})
        service = synced_by(folder)
        if service:
            elsewhere = str(Path.home() / "CegoClub")  # the home folder itself is not synced
            out.write(
                self.style.WARNING(
                    synced_folder_warning(
                        folder,
                        service=service,
                        elsewhere=command_line("venue", "--data", elsewhere),
                    )
                )
            )
        out.write(
            _("A backup is written after each closed round into: %(path)s")
            % {"path": settings.VENUE_BACKUP_DIR}
        )
        problem = backup_folder_problem()
        if problem:
            out.write(self.style.WARNING(_("WARNING: %(problem)s") % {"problem": problem}))

    def say_addresses(self, options, *, port: int, lan: str | None, local_only: bool) -> None:
        """Where this laptop, the phones and the desk's other laptops open the day."""
        out = self.stdout
        if lan:
            url = f"http://{lan}:{port}"
            # The score sheets' QR codes point here (the port is known only now).
            settings.PUBLIC_BASE_URL = url
            out.write(_("On this laptop: http://localhost:%(port)s/") % {"port": port})
            out.write(_("Phones and the desk's other laptops open:"))
            out.write(f"    {url}/")
            style = None if options["no_qr"] else qr_style(out)
            if style:  # into a file or a pipe: the address alone
                out.write(qr_text(url + "/", style))
        elif local_only:
            out.write(_("On this laptop only: http://localhost:%(port)s/") % {"port": port})
        else:
            out.write(_("On this laptop: http://localhost:%(port)s/") % {"port": port})
            out.write(
                _(
                    "NO NETWORK: this laptop has no address on a network, so phones cannot "
                    "reach it and the score sheets' QR codes would not work. Connect it to the "
                    "hall's Wi-Fi (or open a hotspot) and start again."
                )
            )

    def serve(self, server, options) -> None:
        """Serve until Ctrl+C (the spectators by a second process unless --one-process)."""
        out = self.stdout
        settle_memory()
        per_thread_locals()  # no lock shared by the threads on every gettext and reverse
        hand_over_quickly()  # a phone's queries are not held up by the crowd's threads
        # The spectators' connections served by a second process (venue/spectators.py).
        spectators = None if options["one_process"] else start_spectators(server, out)
        out.flush()
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
            if spectators is not None:
                spectators.stop()
        out.write(_("Stopped."))


def serving_token(options, *, organiser_options: dict) -> str | None:
    """The season server's token where the day is published (never from the command line);
    options that belong to another use refused."""
    if organiser_options or options["password_stdin"]:
        raise CommandError(_("These options belong to --create-organiser."))
    if options["publish_token_file"] and not options["publish_to"]:
        raise CommandError(_("--publish-token-file belongs to --publish-to ADDRESS."))
    if options["publish_to"] or options["old_token_option"]:
        return publish_token(options)  # refuses a token on the command line
    return None


def listening_server(options):
    """The venue's waitress server listening on its port, or the German refusal."""
    try:
        return create_venue_server(
            # spectators' shared pages answered in front of Django (cego_club/platform/front.py)
            front(get_wsgi_application()),
            host=options["bind"],
            port=options["port"],
            threads=options["threads"],
            is_crowd=is_crowd,  # a phone's deal goes before the spectators' queued pages
        )
    except OSError as error:
        raise CommandError(
            _("Cannot listen on port %(port)s: %(error)s. Is the server running already?")
            % {"port": options["port"], "error": error}
        ) from error


def hold(folder: Path) -> FolderLock:
    """The data folder's lock, or the German refusal naming the folder (and the running
    venue's address when it serves already)."""
    try:
        return FolderLock(folder).acquire()
    except FolderInUse as busy:
        message = _(
            "Cego Club is already running on this data folder (%(folder)s), or is starting in "
            "another window. Close this window and use the other one: it opens the browser as "
            "soon as Cego Club is ready. Nothing was changed."
        ) % {"folder": folder}
        url = busy.holder.get("url")
        if url:
            message += " " + _("It serves at %(url)s") % {"url": url}
        raise CommandError(message) from None


class FirewallCheck:
    """Windows' answer about its firewall, asked at once in a thread (PowerShell takes a
    second or two) while the venue migrates and collects its files; read at most
    ``FIREWALL_TIMEOUT`` seconds later. No answer by then counts as a failed check."""

    def __init__(self) -> None:
        self.report: str | None = None
        self.lan = lan_address()
        self.thread = threading.Thread(target=self.ask, daemon=True)
        self.thread.start()

    def ask(self) -> None:
        self.report = firewall_report(lan=self.lan, timeout=FIREWALL_TIMEOUT * 3)

    def advice(self) -> str | None:
        self.thread.join(timeout=FIREWALL_TIMEOUT)
        return firewall_advice(None if self.thread.is_alive() else self.report)


def start_spectators(server, out) -> SpectatorsProcess:
    """The second process serving the spectators' connections, handed to it by ``server``
    once it is ready (it says so in the terminal)."""
    spectators = SpectatorsProcess(public_base_url=getattr(settings, "PUBLIC_BASE_URL", "") or "")
    private = private_cookies()

    def ready() -> None:
        out.write(_("The spectators' pages are now answered by a second process."))
        out.flush()

    spectators.attach(
        server,
        lambda data: for_spectators(data, is_crowd=is_crowd, private_cookies=private) is True,
        when_ready=ready,
    )
    return spectators
