from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SimultaneousConfig(AppConfig):
    name = "simultaneous"
    verbose_name = _("Simultaneous Cego days")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from simultaneous import receivers  # noqa: F401 (connects the venue's start)
