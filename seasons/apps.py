from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        # A tournament finished or imported: its results stored for the season pages.
        from seasons import receivers  # noqa: F401
