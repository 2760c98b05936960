from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = _("Printing")

    def ready(self) -> None:
        # The tournament day's signals (a round drawn, the draw page open).
        from printing import receivers  # noqa: F401
