from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The registry's signals (renames, merges): clubs imports nothing from here.
        from tournaments import receivers  # noqa: F401
