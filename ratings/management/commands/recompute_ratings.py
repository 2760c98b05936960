"""``manage.py recompute_ratings``: the rating across seasons worked out again from the first
season (``--changed-only``: only from the first tournament that changed)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ratings.services import bring_up_to_date


class Command(BaseCommand):
    help = "Recompute the rating across seasons from every finished tournament."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--changed-only",
            action="store_true",
            help="Only from the first tournament that changed since it was rated.",
        )

    def handle(self, *args, **options) -> None:
        run = bring_up_to_date(reason="recompute_ratings", full=not options["changed_only"])
        if run is None:
            self.stdout.write("Wertungszahlen: alles auf dem neuesten Stand.")
            return
        self.stdout.write(
            f"Wertungszahlen: {run.tournaments} Turniere gewertet ({run.get_kind_display()}) "
            f"in {run.seconds:.1f} s."
        )
